// The reference databases through HTTP (docs/design.md section 6), filled by the CLI from
// files in the published formats: search a person filling a form calls good, scopes,
// paging, and the documented error body for every bad input.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson } from './support/cli.ts';
import { callApi } from './support/api-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { createSsoFixture, signInForTokens } from './support/sso.ts';
import { BRUSSELS_ADDRESSES, bestCsv, eeaFiles, kboDump, tempDir, writeFolder } from './support/reference-files.ts';

let server: TestServer;
let reader: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  reader = await createTenant(server.database.handle, ['enterprise:read', 'address:read', 'vehicle:read']);
  const addresses = path.join(tempDir(), 'openaddress-bebru.csv');
  fs.writeFileSync(addresses, bestCsv(BRUSSELS_ADDRESSES));
  for (const args of [
    ['enterprises', writeFolder(kboDump())],
    ['addresses', addresses],
    ['vehicles', ...eeaFiles()],
  ]) {
    await cliJson(server.database.env, ['data', 'import', ...args]);
  }
});
afterAll(() => server.close());

const get = (url: string, headers: Record<string, string> = {}) => callApi(server, reader, 'GET', url, { headers });
const numbers = (reply: { body: any }) => reply.body.items.map((item: any) => item.enterprise_number);

describe('enterprises', () => {
  it('finds one enterprise by its number in every spelling', async () => {
    for (const spelling of ['0200.065.765', '0200065765', '200065765', 'BE0200065765', 'be0200.065.765']) {
      const reply = await get(`/enterprises/${encodeURIComponent(spelling)}`);
      expect(reply.status, spelling).toBe(200);
      expect(reply.body).toMatchObject({
        enterprise_number: '0200.065.765',
        vat_number: 'BE0200065765',
        name: 'Intergemeentelijke Vereniging Veneco',
        status: 'active',
        type: 'legal_person',
        juridical_form: { code: '416' },
        start_date: '1961-03-29',
        contacts: [
          { type: 'email', value: 'info@veneco.be' },
          { type: 'phone', value: '09 240 83 00' },
        ],
        activities: [{ nace_version: '2008', nace_code: '84130', classification: 'main' }],
      });
      expect(reply.body.denominations).toEqual([
        { type: 'name', language: 'nl', name: 'Intergemeentelijke Vereniging Veneco' },
        { type: 'abbreviation', language: 'nl', name: 'Veneco' },
      ]);
    }
  });

  it("answers the name and descriptions in the caller's language", async () => {
    const nl = await get('/enterprises/0403.170.701', { 'accept-language': 'nl-BE' });
    const fr = await get('/enterprises/0403.170.701', { 'accept-language': 'fr-BE' });
    expect(nl.body.name).toBe('Bakkerij Het Brood, Dupont BV');
    expect(fr.body.name).toBe('Boulangerie "Le Pain", Dupont SRL');
    expect(nl.body.juridical_form.description).toBe('Besloten Vennootschap');
    expect(fr.body.juridical_form.description).toBe('Société à responsabilité limitée');
    expect(fr.body.addresses[0]).toMatchObject({ street: 'Rue de Liège', city: 'Liège', boxnr: 'B' });
    expect(nl.body.addresses[0]).toMatchObject({ street: 'Luikstraat', city: 'Luik' });
  });

  it('is 422 on number for a failed mod-97 check or a malformed number, 404 for an unknown one', async () => {
    for (const bad of ['0200.065.766', '12345', 'BE02000657650', 'abc']) {
      const reply = await get(`/enterprises/${bad}`);
      expect(reply.status, bad).toBe(422);
      expect(reply.body.detail.errors).toEqual([
        expect.objectContaining({ type: 'ValidationError', target: 'number' }),
      ]);
    }
    // The last two: their check holds, but they are past what a 32-bit integer holds (the
    // PostgreSQL column's type), which must not make the look-up fail.
    for (const number of ['0202.239.951', '2243.496.172', '9901.042.101']) {
      const unknown = await get(`/enterprises/${number}`);
      expect(unknown.status, number).toBe(404);
      expect(unknown.body.detail.type).toBe('NotFound');
    }
  });

  it('names each enterprise in a search as its detail does, one with only a commercial name too', async () => {
    const liegeois = await get('/enterprises?q=liegeois');
    expect(liegeois.body.items).toEqual([expect.objectContaining({ name: 'Liègeois Frituur' })]);
    for (const language of ['nl', 'fr']) {
      const found = await get('/enterprises?q=0&limit=100', { 'accept-language': language });
      expect(found.body.items.length).toBeGreaterThan(1);
      for (const item of found.body.items) {
        const detail = await get(`/enterprises/${item.enterprise_number}`, { 'accept-language': language });
        expect(detail.body.name).not.toBeNull();
        expect(item.name, item.enterprise_number).toBe(detail.body.name);
      }
    }
  });

  it('searches any word prefix, accents and case ignored, best match first', async () => {
    expect(numbers(await get('/enterprises?q=vene'))).toEqual(['0200.065.765']);
    expect(numbers(await get('/enterprises?q=VERENIG%20interg'))).toEqual(['0200.065.765']);
    expect(numbers(await get('/enterprises?q=liegeois'))).toEqual(['0417.497.106']);
    expect(numbers(await get('/enterprises?q=boulangerie'))).toEqual(['0403.170.701']);
    expect(numbers(await get('/enterprises?q=dupont&zipcode=4000'))).toEqual(['0403.170.701']);
    expect(numbers(await get('/enterprises?q=dupont&zipcode=9000'))).toEqual([]);
  });

  it('finds numbers typed with or without dots, BE or the leading zero', async () => {
    for (const typed of ['0200.065', 'BE0200065765', '200065', '0200 065 765']) {
      expect(numbers(await get(`/enterprises?q=${encodeURIComponent(typed)}`)), typed).toEqual(['0200.065.765']);
    }
    expect(numbers(await get('/enterprises?q=04'))).toEqual(['0403.170.701', '0417.497.106']);
  });

  it('pages with next links until the last page', async () => {
    const first = await get('/enterprises?q=0&limit=2');
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/api\/enterprises\?q=0&limit=2&cursor=/);
    const second = await get(first.body.next.replace(`${server.config.publicUrl}/v1/api`, ''));
    expect(numbers(second)).toEqual(['0417.497.106']);
    expect(second.body.next).toBeNull();
  });
});

describe('addresses', () => {
  it('finds the same address from Dutch or French free text, the exact house number first', async () => {
    const nl = await get(`/addresses?q=${encodeURIComponent('Wetstraat 16 Brussel')}`);
    const fr = await get(`/addresses?q=${encodeURIComponent('rue de la loi 16 1000')}`);
    expect(nl.body.items[0]).toMatchObject({
      id: '1',
      street: 'Wetstraat',
      housenr: '16',
      zipcode: '1000',
      municipality: 'Brussel',
      language: 'nl',
    });
    expect(fr.body.items[0]).toMatchObject({
      id: '1',
      street: 'Rue de la Loi',
      municipality: 'Bruxelles',
      language: 'fr',
    });
    expect(nl.body.items[0].street_names).toEqual({ nl: 'Wetstraat', fr: 'Rue de la Loi', de: null });
    // A house number typed in full means itself; the number being typed also finds longer ones.
    expect(nl.body.items.map((a: any) => a.id)).toEqual(['1']);
    expect((await get('/addresses?q=wetstraat%2016')).body.items.map((a: any) => a.id)).toEqual(['1', '3', '2']);
  });

  it('ignores accents and case, and filters by zipcode and municipality', async () => {
    expect((await get('/addresses?q=LEONARD')).body.items.map((a: any) => a.id)).toEqual(['5']);
    expect((await get('/addresses?q=liege')).body.items.map((a: any) => a.id)).toEqual(['5']);
    expect((await get('/addresses?q=wetstraat%2016&zipcode=1040')).body.items.map((a: any) => a.id)).toEqual(['3']);
    expect((await get('/addresses?q=wet&municipality=etterbeek')).body.items.map((a: any) => a.id)).toEqual(['3']);
    const german = await get('/addresses?q=bahnhofstr');
    expect(german.body.items[0]).toMatchObject({ id: '6', street: 'Bahnhofstraße', language: 'de' });
  });

  it('answers one address by id, 404 for retired or unknown ones', async () => {
    expect((await get('/addresses/1')).body).toMatchObject({ id: '1', lat: 50.8466, lon: 4.3528 });
    for (const id of ['4', 'nope']) expect((await get(`/addresses/${id}`)).status).toBe(404);
  });

  it('lists postal codes by number or name prefix', async () => {
    const brussels = await get('/postal-codes?q=brux');
    expect(brussels.body.items).toEqual([
      {
        zipcode: '1000',
        municipality: { nl: 'Brussel', fr: 'Bruxelles', de: null },
        postname: { nl: 'Brussel', fr: 'Bruxelles' },
        addresses: 2,
      },
    ]);
    expect((await get('/postal-codes?q=10')).body.items.map((p: any) => p.zipcode)).toEqual(['1000', '1040']);
    expect((await get('/postal-codes')).body.items).toHaveLength(4);
  });
});

describe('vehicles', () => {
  it('lists brands, models and versions', async () => {
    expect((await get('/vehicles/brands')).body).toEqual({
      items: [
        { name: 'TESLA', versions: 1 },
        { name: 'VOLKSWAGEN', versions: 2 },
      ],
      next: null,
    });
    expect((await get('/vehicles/brands/volkswagen/models')).body.items).toEqual([{ name: 'GOLF', versions: 2 }]);
    expect((await get('/vehicles/brands/TRABANT/models')).status).toBe(404);
    const versions = await get('/vehicles/versions?brand=VOLKSWAGEN&year=2019');
    expect(versions.body.items.map((v: any) => v.version)).toEqual(['CDA110', 'CDB085']);
    const one = await get(`/vehicles/versions/${versions.body.items[1].id}`);
    expect(one.body).toMatchObject({
      brand: 'VOLKSWAGEN',
      model: 'GOLF',
      fuel: 'diesel',
      engine_cc: 1968,
      power_kw: 85,
      years: [2019],
    });
    expect((await get('/vehicles/versions/unknown')).status).toBe(404);
  });

  it('searches versions by word prefixes', async () => {
    expect((await get('/vehicles/versions?q=golf%20dies')).body.items.map((v: any) => v.version)).toEqual(['CDB085']);
    expect((await get('/vehicles/versions?q=model%203')).body.items[0]).toMatchObject({
      brand: 'TESLA',
      electric_range_km: 513,
    });
    // The filters apply inside every tier of a search.
    expect((await get('/vehicles/versions?q=golf&fuel=diesel')).body.items.map((v: any) => v.version)).toEqual([
      'CDB085',
    ]);
    expect((await get('/vehicles/versions?q=golf&fuel=electric')).body.items).toEqual([]);
  });

  it('decodes VINs and is 422 on vin for a malformed one', async () => {
    const golf = await get('/vehicles/vin/WVWZZZ1KZAW000001');
    expect(golf.body).toEqual({
      vin: 'WVWZZZ1KZAW000001',
      valid: true,
      wmi: 'WVW',
      manufacturer: 'Volkswagen',
      country: 'Germany',
      region: 'Europe',
      model_year: [1980, 2010],
      check_digit: { applies: false, valid: null },
      brand: 'VOLKSWAGEN',
    });
    const american = await get('/vehicles/vin/1M8GDM9A1KP042788');
    expect(american.body).toMatchObject({
      valid: false,
      check_digit: { applies: true, valid: false },
      region: 'North America',
    });
    for (const bad of ['WVWZZZ1KZAW00000', 'WVWZZZ1KZAW0000001', 'WVWZZZ1KZAW00000O', 'WVWZZZ1KZAW00000%C3%A9']) {
      const reply = await get(`/vehicles/vin/${bad}`);
      expect(reply.status, bad).toBe(422);
      expect(reply.body.detail.errors[0].target).toBe('vin');
    }
  });
});

describe('access and bad input', () => {
  const paths = [
    '/enterprises/0200065765',
    '/enterprises?q=vene',
    '/addresses?q=wet',
    '/addresses/1',
    '/postal-codes',
    '/vehicles/brands',
    '/vehicles/brands/TESLA/models',
    '/vehicles/versions',
    '/vehicles/vin/WVWZZZ1KZAW000001',
  ];
  const scopeOf = (p: string) =>
    p.startsWith('/enterprises') ? 'enterprise:read' : p.startsWith('/vehicles') ? 'vehicle:read' : 'address:read';

  it('is 401 without credentials and 403 without the scope, for any distribution token with it', async () => {
    const leadsOnly = await createTenant(server.database.handle, ['leads:write', 'leads:read']);
    for (const p of paths) {
      expect((await callApi(server, 'apikey nope', 'GET', p)).status, p).toBe(401);
      const forbidden = await callApi(server, leadsOnly, 'GET', p);
      expect(forbidden.status, p).toBe(403);
      expect(forbidden.body.detail.type).toBe('Forbidden');
      const scoped = await createTenant(server.database.handle, [scopeOf(p)]);
      expect((await callApi(server, scoped, 'GET', p)).status, p).toBe(200);
    }
  });

  it('lets an SSO user with scope api read every database', async () => {
    const fixture = await createSsoFixture(server, undefined, { language: 'fr' });
    const { access_token: token } = await signInForTokens(server, fixture, 'openid api');
    for (const p of paths) expect((await callApi(server, `Bearer ${token}`, 'GET', p)).status, p).toBe(200);
    const fr = await callApi(server, `Bearer ${token}`, 'GET', '/enterprises/0403170701');
    expect(fr.body.name).toBe('Boulangerie "Le Pain", Dupont SRL');
  });

  it('answers every bad query with 422 in the documented body, naming the parameter', async () => {
    const cases: [string, string][] = [
      ['/enterprises?q=', 'q'],
      [`/enterprises?q=${'a'.repeat(500)}`, 'q'],
      ['/enterprises?q=%22%2A%28%29', 'q'],
      ['/enterprises?q=vene&limit=0', 'limit'],
      ['/enterprises?q=vene&limit=101', 'limit'],
      ['/enterprises?q=vene&cursor=%21%21', 'cursor'],
      ['/enterprises?q=vene&zipcode=10000', 'zipcode'],
      ['/addresses', 'q'],
      ['/addresses?q=%20', 'q'],
      ['/addresses?q=wet&municipality=%2D', 'municipality'],
      ['/addresses?q=wet&limit=x', 'limit'],
      ['/postal-codes?q=x&other=1', 'other'],
      ['/vehicles/versions?year=20x', 'year'],
      ['/vehicles/versions?q=%2A', 'q'],
      ['/vehicles/brands?cursor=LTE', 'cursor'],
    ];
    for (const [url, target] of cases) {
      const reply = await get(url);
      expect(reply.status, url).toBe(422);
      expect(reply.body.detail.type).toBe('ValidationError');
      expect(
        reply.body.detail.errors.map((e: any) => e.target),
        url,
      ).toContain(target);
    }
  });

  it('never answers 5xx to search syntax, odd characters or huge offsets', async () => {
    for (const q of [
      '"wet',
      'wet*',
      'NEAR(a b)',
      'a OR b',
      'a AND NOT b',
      "l'église",
      '16-18',
      '😀 wet',
      'zipcode:1000',
      '-x',
      '^a',
      'a:*',
      '!&|',
    ]) {
      for (const base of ['/enterprises', '/addresses', '/postal-codes', '/vehicles/versions']) {
        const reply = await get(`${base}?q=${encodeURIComponent(q)}`);
        expect(reply.status, `${base} ${q}`).toBeLessThan(500);
      }
    }
  });
});
