// The demo start fills empty reference databases with the repository's samples, and the
// curls docs/reference-data.md shows with the demo token answer from them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSamplesIfEmpty } from '../src/reference/demo-samples.ts';
import { cliJson, ROOT } from './support/cli.ts';
import { callApi } from './support/api-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;
const log = {
  info: () => {},
  error: (object: object) => {
    throw new Error(JSON.stringify(object));
  },
};

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, ['enterprise:read', 'address:read', 'vehicle:read']);
});
afterAll(() => server.close());

describe('demo start', () => {
  it('imports the samples once, and the curls of docs/reference-data.md answer from them', async () => {
    await importSamplesIfEmpty(server.database.handle, { ...server.config, production: false }, log);
    const status = await cliJson(server.database.env, ['data', 'status']);
    expect(status.enterprises.rows.enterprise).toBeGreaterThanOrEqual(200);
    expect(status.addresses.rows.address).toBeGreaterThanOrEqual(200);
    expect(status.vehicles.rows.version).toBeGreaterThanOrEqual(20);

    const page = fs.readFileSync(path.join(ROOT, 'docs', 'reference-data.md'), 'utf8');
    const urls = [
      ...page.matchAll(/^curl -s -H "Authorization: apikey \$TOKEN" 'http:\/\/localhost:8080\/v1\/api(\S+)'$/gm),
    ].map((m) => m[1]!);
    expect(urls).toHaveLength(3);
    for (const url of urls) {
      const reply = await callApi(server, tenant, 'GET', url);
      expect(reply.status, url).toBe(200);
      expect(reply.body.items.length, url).toBeGreaterThan(0);
    }
    const veneco = await callApi(server, tenant, 'GET', urls[0]!);
    expect(veneco.body.items[0].name).toBe('Intergemeentelijke Vereniging Veneco');

    // A second start leaves imported data alone.
    await importSamplesIfEmpty(server.database.handle, { ...server.config, production: false }, log);
    expect((await cliJson(server.database.env, ['data', 'status'])).enterprises.imported_at).toBe(
      status.enterprises.imported_at,
    );
  });
});
