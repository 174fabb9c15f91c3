// Words are runs of letters and digits on both databases, in the data as in a query
// (src/reference/search/search-text.ts): "petrol/electric" and "ID.3" are two words each, found by either.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson } from './support/cli.ts';
import { callApi } from './support/api-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { bestCsv, csv, EEA_RECENT, tempDir } from './support/reference-files.ts';

let server: TestServer;
let reader: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  reader = await createTenant(server.database.handle, ['vehicle:read', 'address:read']);
  const dir = tempDir();
  const vehicles = path.join(dir, 'CO2_passenger_cars_2023.csv');
  fs.writeFileSync(
    vehicles,
    csv([
      EEA_RECENT,
      [
        '1',
        'BE',
        'BMW',
        'X1 XDRIVE25E',
        'U1',
        'U1X',
        'U1X120',
        'petrol/electric',
        'P',
        '1499',
        '120',
        '1870',
        '22',
        '89',
        '9',
        '2023',
      ],
      [
        '2',
        'BE',
        'VOLKSWAGEN',
        'ID.3',
        'E1',
        'E1A',
        'E1A150',
        'electric',
        'E',
        '',
        '150',
        '1820',
        '0',
        '426',
        '8',
        '2023',
      ],
    ]),
  );
  const addresses = path.join(dir, 'openaddress-bebru.csv');
  fs.writeFileSync(
    addresses,
    bestCsv([
      [
        '1',
        '1',
        '',
        '1080',
        'Sint-Jans-Molenbeek/Plein',
        'Place Communale/Molenbeek',
        '',
        'Brussel',
        'Bruxelles',
        'current',
      ],
    ]),
  );
  await cliJson(server.database.env, ['data', 'import', 'vehicles', vehicles]);
  await cliJson(server.database.env, ['data', 'import', 'addresses', addresses]);
});
afterAll(() => server.close());

const get = async (url: string) => (await callApi(server, reader, 'GET', url)).body.items;

describe('words split at punctuation', () => {
  it('finds a version by each word of its fuel and of its model name', async () => {
    expect((await get('/vehicles/versions?q=x1%20electric')).map((v: any) => v.version)).toEqual(['U1X120']);
    expect((await get('/vehicles/versions?q=petrol')).map((v: any) => v.version)).toEqual(['U1X120']);
    expect((await get('/vehicles/versions?q=id%203')).map((v: any) => v.version)).toEqual(['E1A150']);
  });

  it('finds an address by each word of a street name written with slashes and hyphens', async () => {
    expect((await get('/addresses?q=plein%20molenbeek')).map((a: any) => a.id)).toEqual(['1']);
    expect((await get('/addresses?q=communale%201080')).map((a: any) => a.id)).toEqual(['1']);
  });
});
