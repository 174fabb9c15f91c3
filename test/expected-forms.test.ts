// A value refused for its form keeps the specification's sentence and names the form it
// should have, in every language (docs/design.md section 16); a body that is not an object
// names its root. Through real HTTP, on both databases; refused requests write nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { countRows, pushLead } from './support/lead-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'enterprise:read', 'vehicle:read']);
});
afterAll(async () => server?.close());

interface Entry {
  type: string;
  target: string;
  message: string;
}

/** The entries of a 422 as target -> message. */
function byTarget(reply: { status: number; body: any }): Record<string, string> {
  expect(reply.status).toBe(422);
  expect(reply.body.detail.type).toBe('ValidationError');
  return Object.fromEntries((reply.body.detail.errors as Entry[]).map((entry) => [entry.target, entry.message]));
}

const UUID_V1 = 'c232ab00-9414-11ec-b3c8-9f6bdeced846';
const customer = (prospect: object) => ({ prospect: { first_name: 'Jan', last_name: 'Peeters', ...prospect } });

describe('a push refused for the form of its values', () => {
  it('names each form after the sentence of the specification', async () => {
    const before = await countRows(server);
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({
        id: 'not-a-uuid',
        birth: '12/04/1985',
        telephonenr: 'call me',
        language: 'NL',
        address: { housenr: '1', zipcode: '9000', city: 'Gent', country_code: 'be' },
        risk_objects: { cars: [{ id: UUID_V1, vin: 'WVWZZZ1JZXW0O0001', value: 22000 }] },
        policy_packages: [{ premium: 499.95 }],
        insurance_policies: [{ premium: '499,95', coverages: [{ insured_value: '1000' }] }],
      }),
    );
    expect(byTarget(reply)).toEqual({
      'prospect.id': "Error for 'id'. The specified value is invalid: a UUID is expected.",
      'prospect.birth':
        "Error for 'birth'. The specified value is invalid: a date as YYYY-MM-DD is expected, such as 1985-04-12.",
      'prospect.telephonenr':
        "Error for 'telephonenr'. The specified value is invalid: a telephone number of 6 to 20 digits, spaces and ( ) . / - is expected, with an optional leading +.",
      'prospect.language':
        "Error for 'language'. The specified value is invalid: a language code of two lower-case letters is expected, such as nl.",
      'prospect.address.country_code':
        "Error for 'country_code'. The specified value is invalid: a country code of two capital letters is expected, such as BE.",
      'prospect.risk_objects.cars.0.id':
        "Error for 'id'. The specified value is invalid: a UUID version 4 is expected.",
      'prospect.risk_objects.cars.0.vin':
        "Error for 'vin'. The specified value is invalid: a VIN of 17 characters without I, O or Q is expected.",
      // A number where numeric text is expected is told so, not just that text is expected.
      'prospect.risk_objects.cars.0.value':
        'Error for \'value\'. The specified value is invalid: numeric text is expected, such as "499.95".',
      'prospect.policy_packages.0.premium':
        'Error for \'premium\'. The specified value is invalid: numeric text is expected, such as "499.95".',
      'prospect.insurance_policies.0.premium':
        'Error for \'premium\'. The specified value is invalid: numeric text is expected, such as "499.95".',
      'prospect.insurance_policies.0.coverages.0.insured_value':
        "Error for 'insured_value'. The specified value is invalid: a number is expected.",
    });
    expect(await countRows(server)).toEqual(before);
  });

  it('names the company forms', async () => {
    const reply = await pushLead(server, tenant, 'companies', {
      backref: 'ftp://crm.example.com/4711',
      prospect: { name: 'Acme', enterprise_nr: 'be0123/456/789', email: 'info@', callbacks: [42] },
    });
    expect(byTarget(reply)).toEqual({
      backref: "Error for 'backref'. The specified value is invalid: an absolute http or https URL is expected.",
      'prospect.enterprise_nr':
        "Error for 'enterprise_nr'. The specified value is invalid: an enterprise number such as BE0123.456.749 is expected (4 to 20 digits, capital letters, spaces, dots or hyphens).",
      'prospect.email': "Error for 'email'. The specified value is invalid: an e-mail address is expected.",
      'prospect.callbacks.0':
        "Error for 'callbacks'. The specified value is invalid: an absolute http or https URL is expected.",
    });
  });

  it.each([
    ['en', "Error for 'id'. The specified value is invalid: a UUID version 4 is expected."],
    ['nl-BE', "Fout voor 'id'. De opgegeven waarde is ongeldig: een UUID versie 4 wordt verwacht."],
    ['fr-BE', "Erreur pour 'id'. La valeur spécifiée n'est pas valide : un UUID version 4 est attendu."],
    ['de', "Fehler für 'id'. Der angegebene Wert ist ungültig: eine UUID der Version 4 wird erwartet."],
  ])('in %s', async (language, message) => {
    const reply = await pushLead(
      server,
      tenant,
      'customers',
      customer({ risk_objects: { cars: [{ id: UUID_V1 }] }, policy_packages: [{ premium: 1 }] }),
      { 'accept-language': language },
    );
    const messages = byTarget(reply);
    expect(messages['prospect.risk_objects.cars.0.id']).toBe(message);
    // Every language names the form; none falls back to the bare sentence.
    expect(messages['prospect.policy_packages.0.premium']).toContain('"499.95"');
  });
});

describe('a body that is not an object', () => {
  it.each([
    ['[1,2]', 'list'],
    ['"x"', 'text'],
    ['42', 'number'],
  ])('%s is refused on the target body, which the message names', async (body) => {
    const before = await countRows(server);
    const reply = await pushLead(server, tenant, 'customers', body);
    expect(reply.body.detail.errors).toEqual([
      {
        type: 'ValidationError',
        target: 'body',
        message: "Error for 'body'. The specified value is invalid: an object is expected.",
      },
    ]);
    expect(reply.body.detail.error_str).toBe(
      "1 validation error for CustomerLead\nbody\n  Error for 'body'. The specified value is invalid: an object is expected.",
    );
    expect(await countRows(server)).toEqual(before);
  });

  it('in French too', async () => {
    const reply = await pushLead(server, tenant, 'customers', '[1,2]', { 'accept-language': 'fr' });
    expect(byTarget(reply)).toEqual({
      body: "Erreur pour 'body'. La valeur spécifiée n'est pas valide : un objet est attendu.",
    });
  });
});

describe('query strings and reference look-ups', () => {
  const get = (path: string, headers: Record<string, string> = {}) => callApi(server, tenant, 'GET', path, { headers });

  it('updated_since without a time or zone names the form', async () => {
    for (const since of ['2026-11-26', '2026-11-26T10:00:00']) {
      const reply = await get(`/distributions/${tenant.distributionId}/leads?updated_since=${since}`);
      expect(byTarget(reply)).toEqual({
        updated_since:
          "Error for 'updated_since'. The specified value is invalid: a date and time with a time zone is expected, such as 2026-11-20T10:15:00Z.",
      });
    }
    const nl = await get(`/distributions/${tenant.distributionId}/leads?updated_since=2026-11-26`, {
      'accept-language': 'nl',
    });
    expect(byTarget(nl).updated_since).toBe(
      "Fout voor 'updated_since'. De opgegeven waarde is ongeldig: een datum en tijd met tijdzone wordt verwacht, zoals 2026-11-20T10:15:00Z.",
    );
  });

  it('an enterprise number with a bad check digit', async () => {
    expect(byTarget(await get('/enterprises/0200.065.766'))).toEqual({
      number:
        "Error for 'number'. The specified value is invalid: an enterprise number with a valid check digit is expected, such as 0200.065.765.",
    });
    expect(byTarget(await get('/enterprises/0200.065.766', { 'accept-language': 'de' }))).toEqual({
      number:
        "Fehler für 'number'. Der angegebene Wert ist ungültig: eine Unternehmensnummer mit gültiger Prüfziffer wird erwartet, etwa 0200.065.765.",
    });
  });

  it('a VIN with an O, at the decoder', async () => {
    expect(byTarget(await get('/vehicles/vin/WVWZZZ1JZXW0O0001'))).toEqual({
      vin: "Error for 'vin'. The specified value is invalid: a VIN of 17 characters without I, O or Q is expected.",
    });
    expect(byTarget(await get('/vehicles/vin/WVWZZZ1JZXW0O0001', { 'accept-language': 'fr' }))).toEqual({
      vin: "Erreur pour 'vin'. La valeur spécifiée n'est pas valide : un VIN de 17 caractères sans I, O ni Q est attendu.",
    });
  });

  it('a cursor that is not one of ours', async () => {
    const reply = await get(
      `/distributions/${tenant.distributionId}/leads?updated_since=2026-11-26T00:00:00Z&cursor=x`,
    );
    expect(byTarget(reply)).toEqual({
      cursor: "Error for 'cursor'. The specified value is invalid: the cursor of a next link is expected, unchanged.",
    });
  });
});

describe('the document', () => {
  it('names the form of every pattern it declares, so no refusal of a pattern is left without one', async () => {
    const document = await (await fetch(`${server.url}/openapi.json`)).json();
    const unnamed: string[] = [];
    let named = 0;
    const walk = (node: unknown, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) walk(item, `${at}/${i}`);
        return;
      }
      const schema = node as Record<string, unknown>;
      if (typeof schema.pattern === 'string') {
        if (typeof schema['x-expected'] === 'string') named++;
        else unnamed.push(`${at}: ${schema.pattern}`);
      }
      for (const [key, value] of Object.entries(schema)) walk(value, `${at}/${key}`);
    };
    walk(document, '#');
    expect(unnamed).toEqual([]);
    expect(named).toBeGreaterThan(5);
  });
});
