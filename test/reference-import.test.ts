// `lead-intake data import|status` as an operator runs them, against the published
// formats: the KBO dump as a folder or a zip, BeST CSVs plain or gzipped, EEA CSVs in both
// header spellings; a wrong file is refused by name; a new import replaces the old one
// while the server serves, and while it runs holds nothing that pushes or reads wait for.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { main } from '../src/cli/main.ts';
import { childEnv, cliJson, printedJson, runCli, runCliProcess } from './support/cli.ts';
import { callApi } from './support/api-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { pushLead } from './support/lead-client.ts';
import {
  BRUSSELS_ADDRESSES,
  type BestRow,
  bestCsv,
  eeaFiles,
  gzip,
  kboDump,
  tempDir,
  writeFolder,
  writeZip,
} from './support/reference-files.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, ['enterprise:read', 'address:read', 'vehicle:read']);
});
afterAll(() => server.close());

const importData = (...args: string[]) => runCli(server.database.env, ['data', 'import', ...args]);

describe('data import enterprises', () => {
  it('loads a KBO dump folder: enterprises only, struck-off addresses dropped, with a JSON summary', async () => {
    const summary = await cliJson(server.database.env, ['data', 'import', 'enterprises', writeFolder(kboDump())]);
    expect(summary).toMatchObject({
      source: 'enterprises',
      snapshot_date: '2026-11-01',
      rows: { enterprise: 3, establishment: 2, denomination: 5, address: 2, contact: 2, activity: 2 },
      skipped: {
        'struck-off addresses': 1,
        'denomination rows of establishments': 1,
        'address rows of establishments': 1,
      },
    });
    expect(summary.rows_per_second).toBeGreaterThan(0);
    expect(summary.peak_rss_mb).toBeGreaterThan(0);
    const veneco = await callApi(server, tenant, 'GET', '/enterprises/0200.065.765');
    expect(veneco.status).toBe(200);
    expect(veneco.body.addresses).toEqual([
      {
        type: 'registered_office',
        street: 'Sint-Lievenslaan',
        housenr: '27',
        boxnr: null,
        zipcode: '9000',
        city: 'Gent',
        country_code: 'BE',
      },
    ]);
    expect(veneco.body.establishment_count).toBe(2);
    // A quoted comma and quotes inside a name survive as published.
    const bakery = await callApi(server, tenant, 'GET', '/enterprises/0403170701', {
      headers: { 'accept-language': 'fr' },
    });
    expect(bakery.body.name).toBe('Boulangerie "Le Pain", Dupont SRL');
    expect(bakery.body.start_date).toBe('1990-02-01');
  });

  it('loads the same dump as a zip, and a new import replaces the old data while the server serves', async () => {
    const zip = writeZip(kboDump({ veneco: 'Veneco Intercommunale Nieuw' }));
    const summary = await cliJson(server.database.env, ['data', 'import', 'enterprises', zip]);
    expect(summary.files[0]).toContain('KboOpenData_0140_2026_11_Full.zip:meta.csv');
    const veneco = await callApi(server, tenant, 'GET', '/enterprises/BE0200065765');
    expect(veneco.body.name).toBe('Veneco Intercommunale Nieuw');
    const search = await callApi(server, tenant, 'GET', '/enterprises?q=vereniging');
    expect(search.body.items).toEqual([]);
  });

  it('refuses a folder that is not a KBO dump, naming the missing files, and keeps the data it had', async () => {
    const files = kboDump();
    delete files['activity.csv'];
    delete files['contact.csv'];
    const refused = await importData('enterprises', writeFolder(files));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('missing contact.csv, activity.csv');
    expect((await callApi(server, tenant, 'GET', '/enterprises/0200065765')).status).toBe(200);
  });

  it('refuses a file whose header lacks columns, naming them', async () => {
    const files = kboDump();
    files['enterprise.csv'] = '"EnterpriseNumber","Status"\n"0200.065.765","AC"\n';
    const refused = await importData('enterprises', writeFolder(files));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /enterprise\.csv: not the expected format, missing columns JuridicalSituation, TypeOfEnterprise, JuridicalForm, StartDate/,
    );
  });
});

describe('data import addresses', () => {
  it('loads BeST CSVs, plain and gzipped, serving only current addresses', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'openaddress-bebru.csv'), bestCsv(BRUSSELS_ADDRESSES.slice(0, 4)));
    fs.writeFileSync(path.join(dir, 'openaddress-bewal.csv.gz'), gzip(bestCsv(BRUSSELS_ADDRESSES.slice(4))));
    const summary = await cliJson(server.database.env, [
      'data',
      'import',
      'addresses',
      path.join(dir, 'openaddress-bebru.csv'),
      path.join(dir, 'openaddress-bewal.csv.gz'),
    ]);
    expect(summary.rows).toEqual({ address: 5 });
    expect(summary.skipped).toEqual({ retired: 1 });
    expect((await callApi(server, tenant, 'GET', '/addresses/4')).status).toBe(404);
    const eupen = await callApi(server, tenant, 'GET', '/addresses/6');
    expect(eupen.body).toMatchObject({
      street_names: { nl: null, fr: 'Rue de la Gare', de: 'Bahnhofstraße' },
      boxnr: null,
    });
  });

  it('refuses a CSV that is not BeST, naming the missing columns', async () => {
    const file = path.join(tempDir(), 'addresses.csv');
    fs.writeFileSync(file, 'address_id,house_number\n1,16\n');
    const refused = await importData('addresses', file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('missing columns EPSG:4326_lat, EPSG:4326_lon, box_number');
  });
});

describe('data import vehicles', () => {
  it('reads both EEA header spellings into one version per make/name/type/variant/version/fuel/power', async () => {
    const summary = await cliJson(server.database.env, ['data', 'import', 'vehicles', ...eeaFiles()]);
    expect(summary.rows).toEqual({ version: 3 });
    expect(summary.rows_read).toBe(6);
    expect(summary.skipped).toEqual({ 'without make or name': 1 });
    const golf = await callApi(server, tenant, 'GET', '/vehicles/versions?brand=Volkswagen&model=golf&fuel=petrol');
    expect(golf.body.items).toHaveLength(1);
    expect(golf.body.items[0]).toMatchObject({
      engine_cc: 1498,
      power_kw: 110,
      years: [2019, 2023],
      registrations: 35,
      co2_wltp: 128,
    });
  });
});

describe('data status and the command line', () => {
  it('shows progress on a terminal, and only there', async () => {
    let stderr = '';
    let stdout = '';
    const code = await main(['data', 'import', 'vehicles', ...eeaFiles()], {
      env: childEnv(server.database.env),
      stdin: Readable.from([]),
      stdout: { write: (text: string) => (stdout += text) },
      stderr: Object.assign({ write: (text: string) => (stderr += text) }, { isTTY: true }),
    });
    expect(code).toBe(0);
    expect(stderr).toContain('building indexes and swapping in');
    expect(JSON.parse(stdout).rows).toEqual({ version: 3 });
    // Not a terminal (every other test here): stderr stays empty.
    expect((await runCli(server.database.env, ['data', 'import', 'vehicles', ...eeaFiles()])).stderr).toBe('');
  });

  it('tells what is loaded', async () => {
    const status = await cliJson(server.database.env, ['data', 'status']);
    expect(status.enterprises).toMatchObject({ snapshot_date: '2026-11-01', rows: { enterprise: 3 } });
    expect(status.addresses.rows).toEqual({ address: 5 });
    expect(status.vehicles.imported_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('refuses unknown databases, missing paths and missing files with a usage error', async () => {
    expect((await importData('companies', 'x.csv')).stderr).toContain('unknown database "companies"');
    expect((await importData('vehicles')).code).toBe(2);
    const missing = await importData('vehicles', '/nonexistent/file.csv');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('/nonexistent/file.csv: no such file or folder');
  });
});

// Last: it leaves other addresses loaded than the tests above expect.
describe('an import in progress', () => {
  it('holds nothing that pushes or reads wait for while it runs: an import process parked mid-file', async () => {
    const current = path.join(tempDir(), 'openaddress-bebru.csv');
    fs.writeFileSync(current, bestCsv(BRUSSELS_ADDRESSES));
    await cliJson(server.database.env, ['data', 'import', 'addresses', current]);
    // A named pipe as the input: the import reads what is written and waits for the rest.
    const fifo = path.join(tempDir(), 'openaddress-bebru.csv');
    execFileSync('mkfifo', [fifo]);
    const importing = runCliProcess(server.database.env, ['data', 'import', 'addresses', fifo]);
    const rows = Array.from(
      { length: 3_000 },
      (_, i): BestRow => [
        `${1000 + i}`,
        `${i + 1}`,
        '',
        '1000',
        'Teststraat',
        'Rue du Test',
        '',
        'Brussel',
        'Bruxelles',
        'current',
      ],
    );
    const lines = bestCsv(rows).split('\n');
    const writer = fs.createWriteStream(fifo);
    // Far more than a pipe holds: the write completes only once the import has read most of it.
    await new Promise<void>((resolve, reject) =>
      writer.write(`${lines.slice(0, -2).join('\n')}\n`, (error) => (error ? reject(error) : resolve())),
    );

    const pusher = await createTenant(server.database.handle, ['leads:write']);
    for (let i = 0; i < 5; i++) {
      const pushed = await pushLead(server, pusher, 'customers', {
        prospect: { first_name: 'During', last_name: `Import ${i}` },
      });
      expect(pushed.status).toBe(201);
    }
    // The old data still answers, and the new is not there yet.
    expect((await callApi(server, tenant, 'GET', '/addresses/6')).status).toBe(200);
    expect((await callApi(server, tenant, 'GET', '/addresses/1000')).status).toBe(404);

    writer.end(`${lines.at(-2)}\n`);
    const summary = printedJson(await importing);
    expect(summary.rows).toEqual({ address: 3_000 });
    expect((await callApi(server, tenant, 'GET', '/addresses/1000')).status).toBe(200);
    expect((await callApi(server, tenant, 'GET', '/addresses/6')).status).toBe(404);
  });
});
