// Physical erasure on SQLite (docs/design.md section 15; docs/personal-data.md,
// "Answering an erasure request"): after an erasure the database files (the database and
// its WAL) hold none of the erased text: freed space is overwritten (secure_delete), the
// search index drops the words at once (FTS5 secure-delete) and the WAL, which still held
// the old pages, is checkpointed and emptied. PostgreSQL leaves dead tuples to VACUUM, as
// docs/personal-data.md says.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { pushRichPerson } from './support/personal-data.ts';
import { createTenant, dialect, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, [
    'leads:write',
    'parties:read',
    'parties:update',
    'parties:erase',
  ]);
});
afterAll(() => server.close());

/**
 * The database files that exist now, with how often each holds `marker`'s tail (as UTF-8
 * bytes): the search index keeps words folded to lower case and prefix-compressed, so only
 * the marker's last hex digits are sure to appear as they are.
 */
function occurrences(marker: string): Record<string, number> {
  const text = marker.slice(-8);
  const base = path.join(server.database.env.DATA_DIR!, 'lead-intake.db');
  const found: Record<string, number> = {};
  for (const file of [base, `${base}-wal`, `${base}-shm`, `${base}-journal`]) {
    if (!fs.existsSync(file)) continue;
    const bytes = fs.readFileSync(file);
    let count = 0;
    for (let at = bytes.indexOf(text); at !== -1; at = bytes.indexOf(text, at + 1)) count++;
    found[path.basename(file)] = count;
  }
  return found;
}

const total = (found: Record<string, number>) => Object.values(found).reduce((sum, n) => sum + n, 0);

describe.skipIf(dialect !== 'sqlite')('the SQLite files after an erasure', () => {
  it('hold none of the erased text, while another person stays readable', async () => {
    const kept = await pushRichPerson(server, tenant);
    const people = [await pushRichPerson(server, tenant), await pushRichPerson(server, tenant)];
    for (const person of people) expect(total(occurrences(person.marker)), person.marker).toBeGreaterThan(0);

    for (const person of people) {
      const reply = await callApi(
        server,
        tenant,
        'DELETE',
        `/distributions/${tenant.distributionId}/parties/${person.partyId}`,
      );
      expect(reply.status).toBe(200);
    }
    for (const person of people)
      expect(total(occurrences(person.marker)), JSON.stringify(occurrences(person.marker))).toBe(0);
    expect(total(occurrences(kept.marker))).toBeGreaterThan(0);
  });
});
