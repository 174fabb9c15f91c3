// A word typed longer than FTS5's prefix indexes reach (eight letters) is looked up as the
// whole indexed words it begins (src/reference/search/search-tiers.ts): it must find every one of them, and
// still every one when they are too many to list.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson } from './support/cli.ts';
import { callApi } from './support/api-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { bestCsv, tempDir } from './support/reference-files.ts';

let server: TestServer;
let reader: Tenant;

// 3 streets share the prefix "stationsstr"; 80 more share "verbindingsweg" (over the 64 listed).
const streets = [
  'Stationsstraat',
  'Stationsstraatje',
  'Stationsstratenplein',
  ...Array.from({ length: 80 }, (_, i) => `Verbindingsweg${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`),
];

beforeAll(async () => {
  server = await startTestServer();
  reader = await createTenant(server.database.handle, ['address:read']);
  const file = path.join(tempDir(), 'openaddress-bevlg.csv');
  fs.writeFileSync(
    file,
    bestCsv(streets.map((street, i) => [String(i + 1), '1', '', '9000', street, '', '', 'Gent', 'Gand', 'current'])),
  );
  await cliJson(server.database.env, ['data', 'import', 'addresses', file]);
});
afterAll(() => server.close());

const ids = async (q: string) =>
  (await callApi(server, reader, 'GET', `/addresses?q=${encodeURIComponent(q)}&limit=100`)).body.items.map(
    (item: { id: string }) => item.id,
  );

describe('a prefix longer than the prefix indexes', () => {
  it('finds every word it begins, in every tier and in the municipality filter', async () => {
    expect(await ids('stationsstr')).toEqual(['1', '2', '3']);
    expect(await ids('stationsstraat')).toEqual(['1', '2']);
    expect(await ids('stationsstraatj')).toEqual(['2']);
    expect(await ids('stationsstraatjes')).toEqual([]);
    expect(await ids('stationsstra 1 gent')).toEqual(['1', '2', '3']);
    const filtered = await callApi(server, reader, 'GET', '/addresses?q=stationsstraat&municipality=gent');
    expect(filtered.body.items.map((item: { id: string }) => item.id)).toEqual(['1', '2']);
  });

  it('finds them all when they are more than can be listed', async () => {
    expect(await ids('verbindingsweg')).toHaveLength(80);
    expect(await ids('verbindingswegz0')).toEqual(['29']);
  });
});
