// Erasing a person (docs/design.md section 15): one transaction empties every table of the
// person, leaves a tombstone (410 on reads), touches no one else, and a failure half-way
// leaves the person whole.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countByStatus } from '../src/party/index.ts';
import { callApi } from './support/api-client.ts';
import { countRows } from './support/lead-client.ts';
import { pushRichPerson, tablesContaining, uniqueMarker } from './support/personal-data.ts';
import { createSsoFixture, signInForTokens } from './support/sso.ts';
import { createTenant, dialect, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;
let other: Tenant;
const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:update', 'parties:erase'];

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, SCOPES);
  other = await createTenant(server.database.handle, SCOPES);
});
afterAll(() => server.close());

const d = (t: Tenant = tenant) => `/distributions/${t.distributionId}`;

/** The counts per status as the inbox reads them. */
async function statusCounts(distributionId: string): Promise<Record<string, number>> {
  return Object.fromEntries(await countByStatus(server.database.handle.db, distributionId));
}

describe('DELETE a party', () => {
  it('removes the person from every table, answers a receipt without personal data, and leaves others whole', async () => {
    const kept = await pushRichPerson(server, tenant);
    const person = await pushRichPerson(server, tenant);
    const keptBefore = await callApi(server, tenant, 'GET', `${d()}/parties/${kept.partyId}`);
    const lostBefore = (await statusCounts(tenant.distributionId)).lost ?? 0;
    expect(await tablesContaining(server.database.handle, person.marker)).not.toEqual([]);

    const reply = await callApi(server, tenant, 'DELETE', `${d()}/parties/${person.partyId}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ party_id: person.partyId, lead_ids: [person.leadId] });
    expect(Date.parse(reply.body.erased_at)).not.toBeNaN();
    expect(reply.body.counts, JSON.stringify(reply.body.counts)).toMatchObject({
      parties: 1,
      leads: 1,
      external_refs: 2,
      callbacks: 1,
      risk_objects: 1,
      risk_object_revisions: 2,
      policy_packages: 1,
      insurance_policies: 1,
      coverages: 1,
      push_log: 2,
      changes: 2,
      notes: 1,
    });
    expect(reply.body.counts.webhook_events).toBeGreaterThanOrEqual(3);
    expect(reply.body.counts.webhook_deliveries).toBe(reply.body.counts.webhook_events);
    expect(JSON.stringify(reply.body)).not.toContain(person.marker);

    // No table holds anything of the person any more, whatever the registry says.
    expect(await tablesContaining(server.database.handle, person.marker)).toEqual([]);
    // The other person is exactly as before.
    const keptAfter = await callApi(server, tenant, 'GET', `${d()}/parties/${kept.partyId}`);
    expect(keptAfter.status).toBe(200);
    expect(keptAfter.body).toEqual(keptBefore.body);
    expect((await callApi(server, tenant, 'GET', `${d()}/leads/${kept.leadId}/pushes`)).body.items).toHaveLength(2);
    expect(await tablesContaining(server.database.handle, kept.marker)).not.toEqual([]);
    // The inbox's counts per status follow the deleted lead.
    expect((await statusCounts(tenant.distributionId)).lost).toBe(lostBefore - 1);
  });

  it("removes the stored Idempotency-Key answers that show the person, a batch's whole, and keeps the others' answers", async () => {
    const person = await pushRichPerson(server, tenant);
    const keptMarker = uniqueMarker();
    const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });
    const patch = { body: { last_name: `Renamed${person.marker}` }, ...keyed(`patch-${person.marker}`) };
    expect((await callApi(server, tenant, 'PATCH', `${d()}/parties/${person.partyId}`, patch)).status).toBe(200);
    const prospect = (marker: string, ref: string) => ({
      first_name: marker,
      last_name: `Family${marker}`,
      email: `${marker.toLowerCase()}@example.be`,
      external_refs: [{ external_ref: ref, external_ref_company: 'crm' }],
    });
    const batch = {
      body: {
        leads: [
          { type: 'CUSTOMER', origin: 'batch', prospect: prospect(person.marker, person.ref) },
          { type: 'CUSTOMER', origin: 'batch', prospect: prospect(keptMarker, `crm-${keptMarker}`) },
        ],
      },
      ...keyed(`batch-${person.marker}`),
    };
    const pushed = await callApi(server, tenant, 'POST', `${d()}/leads/batch`, batch);
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    const keptPush = { body: { origin: 'single', prospect: prospect(keptMarker, `crm-${keptMarker}`) } };
    const single = { ...keptPush, ...keyed(`single-${keptMarker}`) };
    expect((await callApi(server, tenant, 'POST', `${d()}/leads/customers`, single)).status).toBe(200);
    const storedWith = async (marker: string) =>
      (
        await sql<{
          n: number | string;
        }>`select count(*) as n from idempotency_answers where body like ${`%${marker}%`}`.execute(
          server.database.handle.db,
        )
      ).rows[0]?.n;

    expect(Number(await storedWith(person.marker))).toBe(2);
    const reply = await callApi(server, tenant, 'DELETE', `${d()}/parties/${person.partyId}`);
    expect(reply.status).toBe(200);
    expect(reply.body.counts.idempotent_answers).toBe(2);

    expect(await tablesContaining(server.database.handle, person.marker)).toEqual([]);
    expect(Number(await storedWith(person.marker))).toBe(0);
    // The kept person's own answer is still there and still replays.
    const replay = await callApi(server, tenant, 'POST', `${d()}/leads/customers`, single);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    // The batch's links went with its answer: no link names a key that is gone.
    const dangling = await sql<{ n: number | string }>`select count(*) as n from idempotency_answer_parties
      where lookup not in (select lookup from idempotency_answers)`.execute(server.database.handle.db);
    expect(Number(dangling.rows[0]?.n)).toBe(0);
  });

  it('answers 410 Erased for the party, its lead and their sub-resources afterwards, and 404 for unknown ids', async () => {
    const person = await pushRichPerson(server, tenant);
    expect((await callApi(server, tenant, 'DELETE', `${d()}/parties/${person.partyId}`)).status).toBe(200);
    for (const [method, path] of [
      ['DELETE', `${d()}/parties/${person.partyId}`],
      ['GET', `${d()}/parties/${person.partyId}`],
      ['GET', `${d()}/leads/${person.leadId}`],
      ['GET', `${d()}/leads/${person.leadId}/pushes`],
    ] as const) {
      const reply = await callApi(server, tenant, method, path);
      expect(reply.status, `${method} ${path}`).toBe(410);
      expect(reply.body.detail.type).toBe('Erased');
    }
    const patched = await callApi(server, tenant, 'PATCH', `${d()}/parties/${person.partyId}`, {
      body: { telephonenr: '+32 2 000 00 00' },
    });
    expect(patched.status).toBe(410);
    const unknown = await callApi(server, tenant, 'DELETE', `${d()}/parties/0b6c1f9e-4d1a-4c56-9a51-1c2f0d3e4b5a`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail.type).toBe('NotFound');
    // Ids that name nothing, however odd, are 404 in the documented body, for erasure and export alike.
    for (const id of ['not-a-uuid', '%00', '%F0%9F%98%80', 'x'.repeat(2000), person.partyId.toUpperCase()]) {
      for (const path of [`${d()}/parties/${id}`, `${d()}/parties/${id}/export`]) {
        const reply = await callApi(server, tenant, path.endsWith('export') ? 'GET' : 'DELETE', path);
        expect([404, 410], `${path.slice(0, 80)} -> ${reply.status}`).toContain(reply.status);
        // An id longer than the router takes names no route at all: 404 on the whole request.
        expect(['party_id', ''], path.slice(0, 80)).toContain(reply.body.detail.errors[0].target);
      }
    }
  });

  it("cannot reach another distribution's person, nor erase without the scope", async () => {
    const person = await pushRichPerson(server, tenant);
    const before = await countRows(server);
    const foreign = await callApi(server, other, 'DELETE', `${d(other)}/parties/${person.partyId}`);
    expect(foreign.status).toBe(404);
    const crossed = await callApi(server, other, 'DELETE', `${d()}/parties/${person.partyId}`);
    expect(crossed.status).toBe(403);
    const reader = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:read']);
    const unscoped = await callApi(server, reader, 'DELETE', `${d(reader)}/parties/${person.partyId}`);
    expect(unscoped.status).toBe(403);
    expect(await countRows(server)).toEqual(before);
    expect((await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}`)).status).toBe(200);
    // Erased by its own distribution, it is still unknown to the other.
    expect((await callApi(server, tenant, 'DELETE', `${d()}/parties/${person.partyId}`)).status).toBe(200);
    expect((await callApi(server, other, 'GET', `${d(other)}/parties/${person.partyId}`)).status).toBe(404);
    expect((await callApi(server, other, 'DELETE', `${d(other)}/parties/${person.partyId}`)).status).toBe(404);
  });

  it('leaves the person whole when a statement fails late in the erasure', async () => {
    const person = await pushRichPerson(server, tenant);
    const before = await countRows(server);
    const party = await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}`);
    const db = server.database.handle.db;
    // The last statement of the erasure deletes the party row: make exactly that fail.
    if (dialect === 'sqlite') {
      await sql
        .raw(`create trigger refuse_party_delete before delete on parties
          begin select raise(abort, 'refused by the test'); end`)
        .execute(db);
    } else {
      await sql
        .raw(`create function refuse_party_delete() returns trigger language plpgsql as $$
          begin raise exception 'refused by the test'; end $$`)
        .execute(db);
      await sql
        .raw(`create trigger refuse_party_delete before delete on parties
          for each row execute function refuse_party_delete()`)
        .execute(db);
    }
    try {
      const reply = await callApi(server, tenant, 'DELETE', `${d()}/parties/${person.partyId}`);
      expect(reply.status).toBe(500);
      expect(reply.body.detail.type).toBe('InternalError');
    } finally {
      await sql.raw(`drop trigger refuse_party_delete${dialect === 'postgres' ? ' on parties' : ''}`).execute(db);
      if (dialect === 'postgres') await sql.raw('drop function refuse_party_delete()').execute(db);
    }
    expect(await countRows(server)).toEqual(before);
    const after = await callApi(server, tenant, 'GET', `${d()}/parties/${person.partyId}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(party.body);
    expect(await tablesContaining(server.database.handle, person.marker)).toContain('lead_pushes');
    expect(await db.selectFrom('erased_parties').selectAll().where('party_id', '=', person.partyId).execute()).toEqual(
      [],
    );
    // And once nothing fails, it is erased.
    expect((await callApi(server, tenant, 'DELETE', `${d()}/parties/${person.partyId}`)).status).toBe(200);
  });
});

describe('erasure with an SSO access token', () => {
  it('is granted by `api` and by `parties:erase`, refused with another scope, and names the user in the audit log', async () => {
    const fixture = await createSsoFixture(server);
    const bearer = (token: string) => `Bearer ${token}`;
    const leads = `/distributions/${fixture.distributionId}/leads/customers`;
    const party = (id: string) => `/distributions/${fixture.distributionId}/parties/${id}`;
    const { access_token: writer } = await signInForTokens(server, fixture, 'openid leads:write');
    const push = async () =>
      (
        await callApi(server, bearer(writer), 'POST', leads, {
          body: { prospect: { first_name: 'S', last_name: 'O' } },
        })
      ).body.party_id as string;

    const refused = await callApi(server, bearer(writer), 'DELETE', party(await push()));
    expect(refused.status).toBe(403);
    for (const scope of ['openid api', 'openid parties:erase']) {
      const { access_token: token } = await signInForTokens(server, fixture, scope);
      const partyId = await push();
      expect((await callApi(server, bearer(token), 'DELETE', party(partyId))).status, scope).toBe(200);
      const audit = await server.database.handle.db
        .selectFrom('audit_log')
        .selectAll()
        .where('party_id', '=', partyId)
        .execute();
      expect(audit).toEqual([expect.objectContaining({ action: 'erase', actor: `user:${fixture.user.id}` })]);
    }
  });
});
