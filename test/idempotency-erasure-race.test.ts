// Stored Idempotency-Key answers never outlive an erasure (docs/design.md section 14), tried
// as an auditor would: a keyed merge push, a keyed batch and a keyed lead PATCH of a person,
// and the person's DELETE 0 to 22 ms after them, 40 times per database. Whichever commits
// first, once the DELETE has answered and the writes are done no row of the key store holds
// the person, and the same requests sent again with their keys answer without the person.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveTables, uniqueMarker } from './support/personal-data.ts';
import { createTenant, dialect, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

const TRIES = 40;
const MAX_DELAY_MS = 22;

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, ['leads:write', 'parties:update', 'parties:erase']);
});
afterAll(() => server.close());

interface Keyed {
  readonly method: string;
  readonly path: string;
  readonly key: string;
  /** The exact bytes, sent again as they are for the replay. */
  readonly body: string;
  readonly contentType: string;
}

interface Reply {
  readonly status: number;
  readonly replayed: boolean;
  readonly text: string;
}

async function send(request: Omit<Keyed, 'key'> & { key?: string }): Promise<Reply> {
  const response = await fetch(`${server.url}/v1/api${request.path}`, {
    method: request.method,
    headers: {
      authorization: `apikey ${tenant.token}`,
      ...(request.body !== '' && { 'content-type': request.contentType }),
      ...(request.key !== undefined && { 'idempotency-key': request.key }),
    },
    ...(request.body !== '' && { body: request.body }),
  });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed') === 'true',
    text: await response.text(),
  };
}

const d = () => `/distributions/${tenant.distributionId}`;
const json = (method: string, path: string, body: unknown, contentType = 'application/json'): Keyed => ({
  method,
  path,
  key: randomUUID(),
  body: JSON.stringify(body),
  contentType,
});

function prospectOf(marker: string) {
  return {
    first_name: marker,
    last_name: `Family${marker}`,
    email: `${marker.toLowerCase()}@example.be`,
    external_refs: [{ external_ref: `crm-${marker}`, external_ref_company: 'crm' }],
  };
}

/** The key store's tables (whatever they are called) whose rows hold `marker`. */
async function keyStoreRowsWith(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const table of (await liveTables(server.database.handle)).filter((name) => name.startsWith('idempotency'))) {
    const { rows } = await sql`select * from ${sql.table(table)}`.execute(server.database.handle.db);
    for (const row of rows) if (JSON.stringify(row).includes(marker)) found.push(`${table}: ${JSON.stringify(row)}`);
  }
  return found;
}

describe(`a person erased while keyed writes of them run (${dialect})`, () => {
  it(`keeps no answer that shows them and replays none, over ${TRIES} tries with the DELETE 0-${MAX_DELAY_MS} ms later`, async () => {
    const committedBefore = { merge: 0, batch: 0, patch: 0 };
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const marker = uniqueMarker();
      const created = await send({
        ...json('POST', `${d()}/leads/customers`, { prospect: prospectOf(marker) }),
        key: undefined,
      });
      expect(created.status, created.text).toBe(201);
      const { id: leadId, party_id: partyId } = JSON.parse(created.text) as { id: string; party_id: string };

      const writes = {
        merge: json('POST', `${d()}/leads/customers`, {
          prospect: { ...prospectOf(marker), telephonenr: '+32 9 222 33 44' },
        }),
        batch: json('POST', `${d()}/leads/batch`, {
          leads: [
            { type: 'CUSTOMER', prospect: { ...prospectOf(marker), birth: '1980-02-03' } },
            { type: 'CUSTOMER', prospect: prospectOf(uniqueMarker()) },
          ],
        }),
        patch: json(
          'PATCH',
          `${d()}/leads/${leadId}`,
          { status: 'lost', lost_reason: `Reason ${marker}` },
          'application/merge-patch+json',
        ),
      };
      const running = Promise.all([send(writes.merge), send(writes.batch), send(writes.patch)]);
      await delay(attempt % (MAX_DELAY_MS + 1));
      const erased = await send({ method: 'DELETE', path: `${d()}/parties/${partyId}`, body: '', contentType: '' });
      expect(erased.status, erased.text).toBe(200);
      const [merge, batch, patch] = await running;
      const trail = `try ${attempt}: merge ${merge.status}, batch ${batch.status}, patch ${patch.status}`;
      // Each write committed before the erasure (and is erased with it) or met it.
      expect([200, 409], trail).toContain(merge.status);
      expect([200, 207], trail).toContain(batch.status);
      expect([200, 410], trail).toContain(patch.status);
      if (merge.status === 200) committedBefore.merge++;
      if (batch.status === 200) committedBefore.batch++;
      if (patch.status === 200) committedBefore.patch++;

      expect(await keyStoreRowsWith(marker), trail).toEqual([]);
      for (const [name, request] of Object.entries(writes)) {
        const replay = await send(request);
        expect(replay.text, `${trail}; ${name} replayed: ${replay.status}`).not.toContain(marker);
        expect(replay.status, `${trail}; ${name} replayed: ${replay.text}`).toBeLessThan(500);
      }
      // The replays wrote nothing of the person either.
      expect(await keyStoreRowsWith(marker), trail).toEqual([]);
    }
    // The race was run from both sides: writes that committed before the erasure (whose
    // answers it then removed) in some tries.
    expect(committedBefore.merge + committedBefore.batch + committedBefore.patch).toBeGreaterThan(0);
  }, 240_000);
});
