// Pushing many leads in one request (docs/design.md section 14; docs/api.md, "Pushing many
// leads at once"), through real HTTP on both databases: per-item results as the single push
// answers them, 200 or 207, counts, the envelope's one 422, refused items writing nothing,
// items applied in order, one request for the rate limit, and rule 10 against single pushes.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { callApi, type ApiReply } from './support/api-client.ts';
import { countRows, pushLead } from './support/lead-client.ts';
import { leadExamples } from '../src/party/index.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer({ BODY_LIMIT: '4KiB', BATCH_BODY_LIMIT: '256KiB' });
  tenant = await createTenant(server.database.handle);
});
afterAll(() => server.close());

let serial = 0;
/** A minimal customer of its own, found again by its external ref. */
function customer(extra: Record<string, unknown> = {}) {
  serial += 1;
  return {
    origin: 'crm-sync',
    prospect: {
      first_name: 'Batch',
      last_name: `Customer ${serial}`,
      external_refs: [{ external_ref: `batch-${serial}-${Date.now()}`, external_ref_company: 'crm' }],
      ...extra,
    },
  };
}

async function pushBatch(leads: unknown, t: Tenant = tenant, headers: Record<string, string> = {}): Promise<ApiReply> {
  const response = await fetch(`${server.url}/v1/api/distributions/${t.distributionId}/leads/batch`, {
    method: 'POST',
    headers: { authorization: `apikey ${t.token}`, 'content-type': 'application/json', ...headers },
    body: typeof leads === 'string' ? leads : JSON.stringify({ leads }),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const targets = (error: any) => error.detail.errors.map((entry: any) => entry.target);

describe('a batch whose items all succeed', () => {
  it('answers 200 with one result per item in order, each the single push answer, and counts', async () => {
    const first = customer();
    const company = { prospect: { name: `Batch NV ${Date.now()}`, enterprise_nr: 'BE0123.456.749' } };
    const merge = { prospect: { ...first.prospect, telephonenr: '+32 9 123 45 67' } };
    const reply = await pushBatch([
      { type: 'CUSTOMER', ...first },
      { type: 'COMPANY', ...company },
      { type: 'CUSTOMER', ...merge },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ created: 2, updated: 1, failed: 0 });
    const [a, b, c] = reply.body.results;
    expect([a.index, b.index, c.index]).toEqual([0, 1, 2]);
    expect([a.status, b.status, c.status]).toEqual([201, 201, 200]);
    expect(b.lead.prospect).toMatchObject({ type: 'COMPANY', name: company.prospect.name });
    // The second item naming the first's lead merged into what the first wrote.
    expect(c.lead.id).toBe(a.lead.id);
    expect(c.lead.prospect.telephonenr).toBe('+32 9 123 45 67');
    // Each result's lead is the lead as a read (and a single push) shows it.
    const read = await callApi(server, tenant, 'GET', `/distributions/${tenant.distributionId}/leads/${a.lead.id}`);
    expect(read.body).toEqual(c.lead);
    // Every item has its push log entry, with the lead it landed on; a lead's entries are in
    // the order applied (its stamps strictly increase, docs/design.md section 2, rule 6).
    const log = await server.database.handle.db
      .selectFrom('lead_pushes')
      .select(['lead_id', 'status', 'kind', 'payload'])
      .where('lead_id', 'in', [a.lead.id, b.lead.id])
      .orderBy('received_at')
      .execute();
    const entries = (leadId: string) =>
      log.filter((entry) => entry.lead_id === leadId).map((entry) => [entry.status, entry.kind]);
    expect(entries(a.lead.id)).toEqual([
      [201, 'CUSTOMER'],
      [200, 'CUSTOMER'],
    ]);
    expect(entries(b.lead.id)).toEqual([[201, 'COMPANY']]);
    // Each item as sent, its type included.
    expect(log.find((entry) => entry.lead_id === b.lead.id)!.payload).toBe(
      JSON.stringify({ type: 'COMPANY', ...company }),
    );
  });

  it('applies the items in their order, whether or not an item carries refs', async () => {
    // One person four times: with a ref, then matched by e-mail, birth date and address
    // without one, alternately. In order, the first creates the lead and the others merge
    // into it; an item run before the one ahead of it would create the lead instead.
    const person = {
      first_name: 'Ordered',
      last_name: `Items${Date.now()}`,
      email: `ordered.${Date.now()}@example.be`,
      birth: '1980-02-03',
      address: { street: 'Kerkstraat', housenr: '1', zipcode: '9000', city: 'Gent' },
    };
    const ref = { external_refs: [{ external_ref: `ordered-${Date.now()}`, external_ref_company: 'crm' }] };
    const items = [0, 1, 2, 3].map((i) => ({
      type: 'CUSTOMER',
      prospect: { ...person, ...(i % 2 === 0 ? ref : {}), telephonenr: `+32 9 000 00 0${i}` },
    }));
    const reply = await pushBatch(items);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.results.map((result: any) => result.status)).toEqual([201, 200, 200, 200]);
    expect(reply.body.results.at(-1).lead.prospect.telephonenr).toBe('+32 9 000 00 03');
  });

  it('takes the example pushes of both kinds as a single push does, with their webhook events', async () => {
    const before = await server.database.handle.db
      .selectFrom('webhook_events')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const other = await createTenant(server.database.handle);
    const reply = await pushBatch(
      [
        { type: 'CUSTOMER', ...leadExamples.CUSTOMER },
        { type: 'COMPANY', ...leadExamples.COMPANY },
      ],
      other,
    );
    expect(reply.status).toBe(200);
    const single = await pushLead(server, other, 'customers', leadExamples.CUSTOMER);
    expect(single.status).toBe(200);
    expect(single.body.id).toBe(reply.body.results[0].lead.id);
    const after = await server.database.handle.db
      .selectFrom('webhook_events')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    // One lead.created, for the customer example (the one with a callback); the unchanged
    // single push after it sends none.
    expect(Number(after.n) - Number(before.n)).toBe(1);
  });
});

describe('a batch with refused items', () => {
  it('answers 207: each refused item carries the error body its single push gets, targets relative to the item', async () => {
    const a = await pushLead(server, tenant, 'customers', customer());
    const b = await pushLead(server, tenant, 'customers', customer());
    // Names a's party by id and b's by its ref: two parties, 409.
    const twoParties = {
      prospect: { id: a.body.party_id, first_name: 'X', last_name: 'Y', external_refs: b.body.prospect.external_refs },
    };
    twoParties.prospect.external_refs = b.body.prospect.external_refs.map((ref: any) => ({
      external_ref: ref.ref,
      external_ref_company: ref.company,
    }));
    const invalid = { prospect: { first_name: 'No last name', email: 'not an email' } };
    const good = customer();
    const reply = await pushBatch([
      { type: 'CUSTOMER', ...invalid },
      { type: 'CUSTOMER', ...twoParties },
      { type: 'CUSTOMER', ...good },
    ]);
    expect(reply.status).toBe(207);
    expect(reply.body).toMatchObject({ created: 1, updated: 0, failed: 2 });
    const [r0, r1, r2] = reply.body.results;
    expect(r0.status).toBe(422);
    expect(r0.lead).toBeUndefined();
    expect(targets(r0.error)).toEqual(expect.arrayContaining(['prospect.last_name', 'prospect.email']));
    expect(r1.status).toBe(409);
    expect(r2.status).toBe(201);
    // The same bodies pushed one by one get exactly these answers.
    const single0 = await pushLead(server, tenant, 'customers', invalid);
    expect([single0.status, single0.body]).toEqual([422, r0.error]);
    const single1 = await pushLead(server, tenant, 'customers', twoParties);
    expect([single1.status, single1.body]).toEqual([409, r1.error]);
  });

  it('writes nothing for a refused item, and localises its messages like a single push', async () => {
    const before = await countRows(server);
    const reply = await pushBatch(
      [
        { type: 'COMPANY', prospect: { first_name: 'A company has a name' } },
        { type: 'CUSTOMER', prospect: { first_name: 'A', last_name: 'B', id: crypto.randomUUID() } },
      ],
      tenant,
      { 'accept-language': 'nl' },
    );
    expect(reply.status).toBe(207);
    expect(reply.body).toMatchObject({ created: 0, updated: 0, failed: 2 });
    expect(targets(reply.body.results[0].error).sort()).toEqual(['prospect.first_name', 'prospect.name']);
    expect(reply.body.results[0].error.detail.error_str).toMatch(/^2 validation errors for CompanyLead/);
    expect(reply.body.results[1].error.detail.errors).toEqual([
      expect.objectContaining({ target: 'prospect.id', message: expect.stringMatching(/^Fout|Error/) }),
    ]);
    expect(await countRows(server)).toEqual(before);
  });

  it('keeps each item in the push log exactly as sent, spacing and number forms included', async () => {
    const ref = `verbatim-${Date.now()}`;
    const item = `{ "type" : "CUSTOMER",\n  "prospect": {"first_name": "Ver\\u00e9", "last_name": "Batim",
      "external_refs": [{"external_ref": "${ref}", "external_ref_company": "crm"}],
      "policy_packages": [{"name": "P", "premium": "10.50"}]} }`;
    const reply = await pushBatch(`{"leads": [ ${item} ]}`);
    expect(reply.status).toBe(200);
    const [entry] = await server.database.handle.db
      .selectFrom('lead_pushes')
      .select('payload')
      .where('lead_id', '=', reply.body.results[0].lead.id)
      .execute();
    expect(entry!.payload).toBe(item);
  });

  it('reports text the database cannot store (NUL) on its item only', async () => {
    const good = customer();
    const body = JSON.stringify({
      leads: [
        { type: 'CUSTOMER', prospect: { first_name: 'Nul\u0000', last_name: 'Byte' } },
        { type: 'CUSTOMER', ...good },
      ],
    });
    const reply = await pushBatch(body);
    expect(reply.status).toBe(207);
    expect(reply.body.results[0]).toMatchObject({ index: 0, status: 422 });
    expect(targets(reply.body.results[0].error)).toEqual(['prospect.first_name']);
    expect(reply.body.results[1].status).toBe(201);
  });
});

describe('a wrong envelope', () => {
  const cases: Array<[string, unknown, string[]]> = [
    ['not an object', [1, 2], ['leads']],
    ['without leads', {}, ['leads']],
    ['leads not a list', { leads: { type: 'CUSTOMER' } }, ['leads']],
    ['no items', { leads: [] }, ['leads']],
    ['101 items', { leads: Array.from({ length: 101 }, () => ({ type: 'CUSTOMER' })) }, ['leads']],
    [
      'items without a valid type',
      { leads: [{ type: 'CUSTOMER', prospect: {} }, 'x', { prospect: {} }, { type: 'customer' }] },
      ['leads.1', 'leads.2.type', 'leads.3.type'],
    ],
    ['an unknown field beside leads', { leads: [{ type: 'CUSTOMER' }], extra: 1 }, ['extra']],
  ];
  for (const [name, body, expected] of cases) {
    it(`is one 422 for the request and writes nothing: ${name}`, async () => {
      const before = await countRows(server);
      const reply = await pushBatch(JSON.stringify(body));
      expect(reply.status).toBe(422);
      expect(reply.body.detail.type).toBe('ValidationError');
      expect(targets(reply.body)).toEqual(expected);
      expect(reply.body.detail.error_str).toMatch(/for LeadBatch/);
      expect(await countRows(server)).toEqual(before);
    });
  }

  it('answers 401, 403 and 415 before looking at the body', async () => {
    const readOnly = await createTenant(server.database.handle, ['leads:read']);
    expect((await pushBatch([], { ...tenant, token: 'nope' })).status).toBe(401);
    expect((await pushBatch([{ type: 'CUSTOMER', ...customer() }], readOnly)).status).toBe(403);
    const other = await createTenant(server.database.handle);
    expect((await pushBatch([{ type: 'CUSTOMER', ...customer() }], { ...other, token: tenant.token })).status).toBe(
      403,
    );
    const text = await fetch(`${server.url}/v1/api/distributions/${tenant.distributionId}/leads/batch`, {
      method: 'POST',
      headers: { authorization: `apikey ${tenant.token}`, 'content-type': 'text/plain' },
      body: '{"leads": []}',
    });
    expect(text.status).toBe(415);
  });
});

describe('its size', () => {
  it('takes a batch far over BODY_LIMIT up to BATCH_BODY_LIMIT, and refuses one over it with 413', async () => {
    const leads = Array.from({ length: 100 }, () => ({ type: 'CUSTOMER', ...customer() }));
    const body = JSON.stringify({ leads });
    expect(body.length).toBeGreaterThan(4 * 1024);
    const reply = await pushBatch(body);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ created: 100, updated: 0, failed: 0 });
    expect(reply.body.results.map((result: any) => result.index)).toEqual([...Array(100).keys()]);

    const before = await countRows(server);
    const padded = leads.map((lead) => ({ ...lead, source: 'x'.repeat(255) }));
    const huge = JSON.stringify({ leads: [...padded, ...padded].slice(0, 100) }).padEnd(257 * 1024, ' ');
    const tooLarge = await pushBatch(huge);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.detail.type).toBe('PayloadTooLarge');
    expect(await countRows(server)).toEqual(before);
  });
});

describe('the rate limit', () => {
  it('counts a batch of many leads as one request', async () => {
    const limited = await startTestServer({ RATE_LIMIT: '2/min' });
    try {
      const t = await createTenant(limited.database.handle);
      const batch = () =>
        fetch(`${limited.url}/v1/api/distributions/${t.distributionId}/leads/batch`, {
          method: 'POST',
          headers: { authorization: `apikey ${t.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ leads: Array.from({ length: 20 }, () => ({ type: 'CUSTOMER', ...customer() })) }),
        });
      const first = await batch();
      expect([first.status, first.headers.get('ratelimit-remaining')]).toEqual([200, '1']);
      expect((await batch()).status).toBe(200);
      expect((await batch()).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('concurrent batches and single pushes naming the same lead (rule 10)', () => {
  it('make one lead, and never refuse each other', async () => {
    const shared = customer();
    const variants = Array.from({ length: 6 }, (_, i) => ({
      ...shared,
      prospect: { ...shared.prospect, telephonenr: `+32 9 000 00 0${i}` },
    }));
    const replies = await Promise.all([
      ...variants.slice(0, 3).map((body) =>
        pushBatch([
          { type: 'CUSTOMER', ...body },
          { type: 'CUSTOMER', ...body },
        ]),
      ),
      ...variants.slice(3).map((body) => pushLead(server, tenant, 'customers', body)),
    ]);
    const statuses = replies.flatMap((reply) =>
      reply.body.results ? reply.body.results.map((result: any) => result.status) : [reply.status],
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 201 && status !== 200)).toEqual([]);
    const ids = new Set(
      replies.flatMap((reply) =>
        reply.body.results ? reply.body.results.map((result: any) => result.lead.id) : [reply.body.id],
      ),
    );
    expect(ids.size).toBe(1);
  });
});

describe('the example of docs/api.md', () => {
  it('answers as the page shows: 207, two leads created, the customer without a last name refused', async () => {
    const page = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
    const section = page.split('## Pushing many leads at once')[1]!;
    const body = /-d '(\{"leads": [\s\S]*?\})'\n/.exec(section)![1]!;
    const t = await createTenant(server.database.handle);
    const reply = await pushBatch(body, t);
    expect(reply.status).toBe(207);
    expect(reply.body).toMatchObject({ created: 2, updated: 0, failed: 1 });
    expect(reply.body.results.map((result: { status: number }) => result.status)).toEqual([201, 201, 422]);
    expect(targets(reply.body.results[2].error)).toEqual(['prospect.last_name']);
  });
});
