// 422 answers through real HTTP: every problem of a push in one answer, with exact
// targets and messages, localised, and nothing written (docs/design.md section 3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { pushLead } from './support/lead-client.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle);
});
afterAll(async () => server?.close());

interface Entry {
  type: string;
  target: string;
  message: string;
}

interface PushOptions {
  kind?: 'customers' | 'companies';
  headers?: Record<string, string>;
}

const push = (body: unknown, options: PushOptions = {}) =>
  pushLead(server, tenant, options.kind ?? 'customers', body, options.headers);

/** The entries of a 422, as target -> message. */
async function problems(body: unknown, options: PushOptions = {}): Promise<Record<string, string>> {
  const answer = await push(body, options);
  expect(answer.status).toBe(422);
  const errors = answer.body.detail.errors as Entry[];
  expect(new Set(errors.map((entry) => entry.target)).size).toBe(errors.length);
  return Object.fromEntries(errors.map((entry) => [entry.target, entry.message]));
}

const customer = (prospect: object = {}, extra: object = {}) => ({
  prospect: { first_name: 'Jan', last_name: 'Peeters', ...prospect },
  ...extra,
});
const ID_A = '3f0c9a43-4f6e-4c9b-9a57-2f1d1c8b7e01';
const ID_B = '9b2e4f7a-1c3d-4e5f-8a6b-7c8d9e0f1a2b';
const residence = (zipcode: string, extra: object = {}) => ({
  address: { housenr: '1', zipcode, city: 'Gent' },
  ...extra,
});

async function countRows() {
  const db = server.database.handle.db;
  const count = async (table: 'parties' | 'leads') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('distribution_id', '=', tenant.distributionId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { parties: await count('parties'), leads: await count('leads') };
}

describe('a push with several problems', () => {
  it('returns all of them in one 422 with exact targets, messages and error_str', async () => {
    const answer = await push({
      prospect: {
        first_name: '',
        email: 'not-an-email',
        address: { housenr: '1', city: 'Gent' },
        risk_objects: { residences: [residence('12')] },
      },
    });
    expect(answer.status).toBe(422);
    expect(answer.headers.get('x-request-id')).toMatch(/./);
    const { detail } = answer.body;
    expect(detail.type).toBe('ValidationError');
    const byTarget = (a: Entry, b: Entry) => a.target.localeCompare(b.target);
    expect([...detail.errors].sort(byTarget)).toEqual([
      {
        type: 'ValidationError',
        target: 'prospect.address.zipcode',
        message: "Error for 'zipcode'. This value is missing",
      },
      {
        type: 'ValidationError',
        target: 'prospect.email',
        message: "Error for 'email'. The specified value is invalid: an e-mail address is expected.",
      },
      {
        type: 'ValidationError',
        target: 'prospect.first_name',
        message: "Error for 'first_name'. The specified value does not meet the minimum length. (1)",
      },
      {
        type: 'ValidationError',
        target: 'prospect.last_name',
        message: "Error for 'last_name'. This value is missing",
      },
      {
        type: 'ValidationError',
        target: 'prospect.risk_objects.residences.0.address.zipcode',
        message:
          "Error for 'zipcode'. The specified value is invalid: a Belgian postcode of 4 digits from 1000 to 9999 is expected.",
      },
    ]);
    expect(detail.error_str).toBe(
      '5 validation errors for CustomerLead' +
        detail.errors.map((entry: Entry) => `\n${entry.target}\n  ${entry.message}`).join(''),
    );
  });

  it('says "1 validation error" for one, named after the company schema', async () => {
    const answer = await push({ prospect: {} }, { kind: 'companies' });
    expect(answer.status).toBe(422);
    expect(answer.body.detail.error_str).toBe(
      "1 validation error for CompanyLead\nprospect.name\n  Error for 'name'. This value is missing",
    );
  });

  it('writes nothing', async () => {
    const before = await countRows();
    expect(before).toEqual({ parties: 0, leads: 0 });
    await push(customer({ gender: 'X', email: 'x' }, { unknown: true }));
    await push(customer({ risk_objects: { cars: [{ id: ID_A }, { id: ID_A }] } }));
    expect(await countRows()).toEqual({ parties: 0, leads: 0 });
  });
});

describe('schema rules', () => {
  it('refuses unknown fields at the top level, in the prospect and in a nested car, naming the allowed ones', async () => {
    expect(
      await problems(
        customer({ nickname: 'J', risk_objects: { cars: [{ brand: 'VW', color: 'red' }] } }, { priority: 1 }),
      ),
    ).toEqual({
      priority: "Error for 'priority'. This field is not allowed. Allowed here: origin, prospect, backref, source.",
      'prospect.nickname':
        "Error for 'nickname'. This field is not allowed. Allowed here: first_name, last_name, language, birth, " +
        'gender, id, email, address, callbacks, external_ref, risk_objects, external_refs, telephonenr, ' +
        'policy_packages, insurance_policies.',
      'prospect.risk_objects.cars.0.color':
        "Error for 'color'. This field is not allowed. Allowed here: model, value, id, vin, brand, kw, version, " +
        'mileage, fuel_type, license_plate, first_registration.',
    });
  });

  it('suggests the field meant: country for country_code, a misspelt first name, zip for zipcode', async () => {
    expect(
      await problems(
        customer({ frist_name: 'Jan', address: { housenr: '1', zip: '9000', city: 'Gent', country: 'BE' } }),
      ),
    ).toEqual({
      'prospect.frist_name': "Error for 'frist_name'. This field is not allowed: did you mean 'first_name'?",
      'prospect.address.country': "Error for 'country'. This field is not allowed: did you mean 'country_code'?",
      'prospect.address.zip': "Error for 'zip'. This field is not allowed: did you mean 'zipcode'?",
      'prospect.address.zipcode': "Error for 'zipcode'. This value is missing",
    });
    expect(
      await problems(customer({ address: { housenr: '1', zipcode: '9000', city: 'Gent', country: 'BE' } }), {
        headers: { 'accept-language': 'nl' },
      }),
    ).toEqual({
      'prospect.address.country': "Fout voor 'country'. Dit veld is niet toegelaten: bedoelde u 'country_code'?",
    });
  });

  it('names the allowed values of an enum, without null', async () => {
    expect(await problems(customer({ gender: 'X', risk_objects: { cars: [{ fuel_type: 'STEAM' }] } }))).toEqual({
      'prospect.gender':
        "Error for 'gender'. The specified value is not one of the allowed values. (MALE, FEMALE, OTHER)",
      'prospect.risk_objects.cars.0.fuel_type':
        "Error for 'fuel_type'. The specified value is not one of the allowed values. " +
        '(PETROL, DIESEL, ELECTRIC, HYBRID, PLUG_IN_HYBRID, LPG, CNG, HYDROGEN, OTHER)',
    });
  });

  it('does not coerce types, and reports a value failing format and pattern once', async () => {
    expect(await problems(customer({ callbacks: ['not a url'], risk_objects: { cars: [{ kw: '5' }] } }))).toEqual({
      'prospect.callbacks.0':
        "Error for 'callbacks'. The specified value is invalid: an absolute http or https URL is expected.",
      'prospect.risk_objects.cars.0.kw': "Error for 'kw'. The specified value is invalid: a whole number is expected.",
    });
  });

  it('gives the limit of lengths, item counts and numbers', async () => {
    const callbacks = Array.from({ length: 11 }, (_, i) => `https://crm.example.com/hooks/${i}`);
    expect(
      await problems(
        customer({ last_name: 'x'.repeat(101), callbacks, risk_objects: { cars: [{ kw: 3000, mileage: -1 }] } }),
      ),
    ).toEqual({
      'prospect.last_name': "Error for 'last_name'. The specified value exceeds the maximum length. (100)",
      'prospect.callbacks': "Error for 'callbacks'. The specified list exceeds the maximum number of items. (10)",
      'prospect.risk_objects.cars.0.kw': "Error for 'kw'. The specified value is above the maximum. (2000)",
      'prospect.risk_objects.cars.0.mileage': "Error for 'mileage'. The specified value is below the minimum. (0)",
    });
  });
});

describe('localised messages', () => {
  const body = customer({ last_name: undefined, gender: 'X' });

  it.each([
    ['nl', "Fout voor 'last_name'. Deze waarde ontbreekt"],
    ['nl-BE,en;q=0.5', "Fout voor 'last_name'. Deze waarde ontbreekt"],
    ['fr-BE', "Erreur pour 'last_name'. Cette valeur est manquante"],
    ['de;q=0.2, fr;q=0.9', "Erreur pour 'last_name'. Cette valeur est manquante"],
    ['de', "Fehler für 'last_name'. Dieser Wert fehlt"],
    ['es, nl;q=0.1', "Fout voor 'last_name'. Deze waarde ontbreekt"],
    ['es', "Error for 'last_name'. This value is missing"],
  ])('Accept-Language %s', async (acceptLanguage, message) => {
    const answer = await push(body, { headers: { 'accept-language': acceptLanguage } });
    expect(answer.status).toBe(422);
    const entry = answer.body.detail.errors.find((e: Entry) => e.target === 'prospect.last_name');
    expect(entry).toEqual({ type: 'ValidationError', target: 'prospect.last_name', message });
    // Types, targets and the count line stay as they are.
    expect(answer.body.detail.type).toBe('ValidationError');
    expect(answer.body.detail.error_str).toMatch(/^2 validation errors for CustomerLead\n/);
  });

  it('translates the other messages too', async () => {
    expect(await problems(body, { headers: { 'accept-language': 'de' } })).toEqual({
      'prospect.last_name': "Fehler für 'last_name'. Dieser Wert fehlt",
      'prospect.gender':
        "Fehler für 'gender'. Der angegebene Wert ist keiner der zulässigen Werte. (MALE, FEMALE, OTHER)",
    });
  });
});

describe('payload rules', () => {
  const invalid =
    "Error for 'zipcode'. The specified value is invalid: a Belgian postcode of 4 digits from 1000 to 9999 is expected.";
  const invalidNl =
    "Error for 'zipcode'. The specified value is invalid: a Dutch postcode such as 1234 AB is expected.";
  const invalidOther =
    "Error for 'zipcode'. The specified value is invalid: a postcode of 2 to 10 letters, digits, spaces or hyphens is expected.";
  // Each body also lacks last_name, so the push is refused whatever the zipcodes: the
  // absence of a zipcode problem is what shows a zipcode was accepted.
  const lacking = (prospect: object) => customer({ last_name: undefined, ...prospect });
  const missingLastName = { 'prospect.last_name': "Error for 'last_name'. This value is missing" };

  it('checks a Belgian zipcode by default, on the prospect and on every residence', async () => {
    expect(
      await problems(
        lacking({
          address: { housenr: '1', zipcode: '0999', city: 'Gent' },
          risk_objects: {
            residences: [
              residence('9000'),
              residence('90000'),
              { address: { housenr: '1', zipcode: '1000', city: 'Brussel', country_code: 'BE' } },
            ],
          },
        }),
      ),
    ).toEqual({
      ...missingLastName,
      'prospect.address.zipcode': invalid,
      'prospect.risk_objects.residences.1.address.zipcode': invalid,
    });
  });

  it('checks a Dutch zipcode as 1234 AB, with or without the space', async () => {
    const nl = (zipcode: string) => ({ address: { housenr: '1', zipcode, city: 'Utrecht', country_code: 'NL' } });
    expect(
      await problems(
        lacking({
          address: nl('1234 AB').address,
          risk_objects: { residences: [nl('1234AB'), nl('1234'), nl('9000')] },
        }),
      ),
    ).toEqual({
      ...missingLastName,
      'prospect.risk_objects.residences.1.address.zipcode': invalidNl,
      'prospect.risk_objects.residences.2.address.zipcode': invalidNl,
    });
  });

  it('accepts 2-10 letters, digits, spaces or hyphens elsewhere', async () => {
    const other = (zipcode: string, country_code: string) => ({
      address: { housenr: '1', zipcode, city: 'X', country_code },
    });
    expect(
      await problems(
        lacking({
          address: other('SW1A 1AA', 'GB').address,
          risk_objects: { residences: [other('1234-567', 'PT'), other('7', 'FR'), other('75#008', 'FR')] },
        }),
      ),
    ).toEqual({
      ...missingLastName,
      'prospect.risk_objects.residences.1.address.zipcode': invalidOther,
      'prospect.risk_objects.residences.2.address.zipcode': invalidOther,
    });
  });

  it('reports an id used twice in one collection, and a car id reused by a residence', async () => {
    const duplicate = "Error for 'id'. The specified value is used more than once.";
    expect(
      await problems(
        customer({
          risk_objects: {
            cars: [{ id: ID_A }, { id: ID_A }],
            residences: [residence('9000', { id: ID_A }), residence('9000', { id: ID_B })],
          },
          policy_packages: [{ id: ID_B }, { id: ID_B }],
        }),
      ),
    ).toEqual({
      'prospect.risk_objects.cars.1.id': duplicate,
      'prospect.risk_objects.residences.0.id': duplicate,
      'prospect.policy_packages.1.id': duplicate,
    });
  });

  it('joins the schema problems in the same answer', async () => {
    const answer = await push(customer({ gender: 'X', risk_objects: { cars: [{ id: ID_A }, { id: ID_A }] } }), {
      kind: 'customers',
    });
    expect(answer.body.detail.error_str).toMatch(/^2 validation errors for CustomerLead\n/);
    expect(answer.body.detail.errors.map((e: Entry) => e.target).sort()).toEqual([
      'prospect.gender',
      'prospect.risk_objects.cars.1.id',
    ]);
  });
});

describe('a valid push', () => {
  it('is accepted with 201', async () => {
    const answer = await push(
      customer({ address: { housenr: '1', zipcode: '1234 AB', city: 'Utrecht', country_code: 'NL' } }),
    );
    expect(answer.status).toBe(201);
    expect(await countRows()).toEqual({ parties: 1, leads: 1 });
  });
});
