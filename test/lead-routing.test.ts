// Routing new leads (docs/design.md section 15), on both databases: rules set with
// `lead-intake routing set` (a malformed or unknown-user file refused with its path, and
// nothing changed), tried in order on creation only; one user or round-robin; the
// assignment in the lead's history as made by the rule; a push that merges, a PATCH and a
// lead no rule matches are never routed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/sso/index.ts';
import { ROUTING_RULES_TTL_MS } from '../src/party/index.ts';
import { callApi } from './support/api-client.ts';
import { cliJson, runCli } from './support/cli.ts';
import { pushLead } from './support/lead-client.ts';
import { PASSWORD } from './support/sso.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;
let other: Tenant;
let dir: string;
let ann: string;
let bob: string;
let cas: string;
let dora: string;
let stranger: string;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.handle.db;
  tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:update', 'parties:read']);
  other = await createTenant(server.database.handle, ['leads:write']);
  const user = async (distributionId: string, name: string) =>
    (
      await createUser(db, {
        distributionId,
        email: `${name}-${process.pid}@example.be`,
        username: `${name}-${process.pid}`,
        password: PASSWORD,
      })
    ).id;
  ann = await user(tenant.distributionId, 'ann');
  bob = await user(tenant.distributionId, 'bob');
  cas = await user(tenant.distributionId, 'cas');
  dora = await user(tenant.distributionId, 'dora');
  stranger = await user(other.distributionId, 'stranger');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'routing-'));
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = () => server.database.env;
function rulesFile(rules: unknown): string {
  const file = path.join(dir, `${randomUUID()}.json`);
  fs.writeFileSync(file, typeof rules === 'string' ? rules : JSON.stringify(rules));
  return file;
}
/** Sets the rules and lets the server's cached ones expire on its clock. */
async function setRules(rules: unknown) {
  const set = await cliJson(env(), [
    'routing',
    'set',
    '--distribution',
    tenant.distributionId,
    '--file',
    rulesFile(rules),
  ]);
  server.clock.advance(ROUTING_RULES_TTL_MS);
  return set;
}
const customer = (extra: Record<string, unknown> = {}, lead: Record<string, unknown> = {}) => ({
  origin: 'web',
  ...lead,
  prospect: {
    first_name: 'Els',
    last_name: 'Claes',
    language: 'nl',
    external_refs: [{ external_ref: randomUUID(), external_ref_company: 'acme' }],
    ...extra,
  },
});
const residence = (zipcode: string) => ({
  id: randomUUID(),
  address: { street: 'Kerkstraat', housenr: '1', zipcode, city: 'Gent' },
});
const history = (partyId: string) =>
  server.database.handle.db
    .selectFrom('lead_changes')
    .select(['caller', 'changes'])
    .where('party_id', '=', partyId)
    .orderBy('changed_at')
    .execute();

describe('lead-intake routing set and show', () => {
  it('stores the documented file and shows it back, user ids in lower case', async () => {
    const rules = {
      rules: [
        {
          when: { origin: ['web'], kind: 'CUSTOMER', postcodes: ['1000-1299'], language: ['nl'] },
          assign: { round_robin: [ann.toUpperCase(), bob] },
        },
        { when: {}, assign: { user: cas } },
      ],
    };
    const expected = {
      rules: [{ ...rules.rules[0], assign: { round_robin: [ann, bob] } }, rules.rules[1]],
    };
    expect(await setRules(rules)).toEqual(expected);
    expect(await cliJson(env(), ['routing', 'show', '--distribution', tenant.distributionId])).toEqual(expected);
  });

  it('refuses a malformed rule or an unknown user with its path, and keeps the rules it had', async () => {
    const before = await cliJson(env(), ['routing', 'show', '--distribution', tenant.distributionId]);
    const malformed = await runCli(env(), [
      'routing',
      'set',
      '--distribution',
      tenant.distributionId,
      '--file',
      rulesFile({
        rules: [
          { when: {}, assign: { user: ann } },
          { when: { postcodes: ['10x0-1299'] }, assign: { user: ann } },
        ],
      }),
    ]);
    expect(malformed.code).toBe(1);
    expect(malformed.stdout).toBe('');
    expect(malformed.stderr).toContain('/rules/1/when/postcodes/0: must be a postcode');
    const unknown = await runCli(env(), [
      'routing',
      'set',
      '--distribution',
      tenant.distributionId,
      '--file',
      rulesFile({ rules: [{ when: {}, assign: { round_robin: [ann, stranger] } }] }),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      `/rules/0/assign/round_robin/1: ${stranger} is not an active user of the distribution`,
    );
    expect(await cliJson(env(), ['routing', 'show', '--distribution', tenant.distributionId])).toEqual(before);
  });
});

describe('routing a new lead', () => {
  it('tries the rules in order: the first that matches assigns, round-robin in turn', async () => {
    await setRules({
      rules: [
        { when: { language: ['fr'] }, assign: { user: dora } },
        { when: { origin: ['web'], postcodes: ['1000-1299', '9000'] }, assign: { round_robin: [ann, bob, cas] } },
        { when: { kind: 'COMPANY' }, assign: { user: cas } },
      ],
    });
    const assignee = async (body: unknown, kind: 'customers' | 'companies' = 'customers') => {
      const pushed = await pushLead(server, tenant, kind, body);
      expect(pushed.status).toBe(201);
      return pushed.body.assignee;
    };
    const brussels = () => customer({ risk_objects: { residences: [residence('1050')] } });
    expect(await assignee(customer({ language: 'fr', risk_objects: { residences: [residence('1050')] } }))).toBe(dora);
    expect([
      await assignee(brussels()),
      await assignee(brussels()),
      await assignee(brussels()),
      await assignee(brussels()),
    ]).toEqual([ann, bob, cas, ann]);
    expect(await assignee(customer({ risk_objects: { residences: [residence('9000')] } }))).toBe(bob);
    // The first residence decides; a lead no rule matches stays unassigned.
    expect(
      await assignee(customer({ risk_objects: { residences: [residence('2000'), residence('1050')] } })),
    ).toBeNull();
    expect(
      await assignee(customer({ risk_objects: { residences: [residence('1050')] } }, { origin: 'crm' })),
    ).toBeNull();
    expect(await assignee(customer())).toBeNull();
    expect(
      await assignee(
        { origin: 'web', prospect: { name: 'Claes BV', external_refs: [{ external_ref: randomUUID() }] } },
        'companies',
      ),
    ).toBe(cas);
  });

  it('keeps the assignment in the lead’s history as made by the rule, and shows it on read', async () => {
    await setRules({
      rules: [
        { when: {}, assign: { user: ann } },
        { when: {}, assign: { user: bob } },
      ],
    });
    const pushed = await pushLead(server, tenant, 'customers', customer());
    expect(pushed.body.assignee).toBe(ann);
    expect(
      (await callApi(server, tenant, 'GET', `/distributions/${tenant.distributionId}/leads/${pushed.body.id}`)).body
        .assignee,
    ).toBe(ann);
    expect(await history(pushed.body.party_id)).toEqual([
      { caller: 'routing:1', changes: JSON.stringify([{ field: 'assignee', after: ann }]) },
    ]);
  });

  it('never routes again: a push that merges and a PATCH leave the assignee as they are', async () => {
    await setRules({ rules: [{ when: {}, assign: { round_robin: [ann, bob] } }] });
    const body = customer();
    const created = await pushLead(server, tenant, 'customers', body);
    const first = created.body.assignee;
    expect([ann, bob]).toContain(first);
    const lead = `/distributions/${tenant.distributionId}/leads/${created.body.id}`;
    const cleared = await callApi(server, tenant, 'PATCH', lead, { body: { assignee: null } });
    expect(cleared.body.assignee).toBeNull();
    const merged = await pushLead(server, tenant, 'customers', {
      ...body,
      prospect: { ...body.prospect, telephonenr: '+32470123456' },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.assignee).toBeNull();
    // The merge took no turn: the next new lead gets the other user.
    expect((await pushLead(server, tenant, 'customers', customer())).body.assignee).toBe(first === ann ? bob : ann);
    expect((await history(created.body.party_id)).map((entry) => entry.caller)).toEqual([
      'routing:1',
      expect.stringMatching(/^token:/),
    ]);
  });

  it('leaves out a disabled user and routes nothing with empty rules', async () => {
    await setRules({ rules: [{ when: {}, assign: { round_robin: [ann, bob] } }] });
    const db = server.database.handle.db;
    await db.updateTable('users').set({ disabled_at: new Date().toISOString() }).where('id', '=', bob).execute();
    server.clock.advance(ROUTING_RULES_TTL_MS);
    try {
      const assignees = [];
      for (let i = 0; i < 3; i++)
        assignees.push((await pushLead(server, tenant, 'customers', customer())).body.assignee);
      expect(assignees).toEqual([ann, ann, ann]);
    } finally {
      await db.updateTable('users').set({ disabled_at: null }).where('id', '=', bob).execute();
    }
    await setRules({ rules: [] });
    expect((await pushLead(server, tenant, 'customers', customer())).body.assignee).toBeNull();
  });

  it('routes by the new rules a push that meets rules replaced since its process read them', async () => {
    await setRules({ rules: [{ when: {}, assign: { round_robin: [ann, bob] } }] });
    expect([ann, bob]).toContain((await pushLead(server, tenant, 'customers', customer())).body.assignee);
    // Replaced without the server's clock moving: its cached rule set is gone from the database.
    await cliJson(env(), [
      'routing',
      'set',
      '--distribution',
      tenant.distributionId,
      '--file',
      rulesFile({ rules: [{ when: {}, assign: { round_robin: [cas, dora] } }] }),
    ]);
    const pushed = await pushLead(server, tenant, 'customers', customer());
    expect(pushed.status).toBe(201);
    expect(pushed.body.assignee).toBe(cas);
  });

  it('routes only within its own distribution', async () => {
    await setRules({ rules: [{ when: {}, assign: { user: ann } }] });
    const elsewhere = await pushLead(server, other, 'customers', customer());
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.assignee).toBeNull();
  });
});
