// The distribution's users for partners (docs/api.md, "Users"), on both databases: the
// active users with id, username and name (the username when no name was given), the
// ids a lead's assignee accepts; a disabled user left out; another distribution's users
// never shown; `parties:read` required.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, disableUser } from '../src/sso/index.ts';
import { callApi } from './support/api-client.ts';
import { pushLead } from './support/lead-client.ts';
import { PASSWORD } from './support/sso.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;
let other: Tenant;
let writeOnly: Tenant;
const suffix = process.pid;

beforeAll(async () => {
  server = await startTestServer();
  const handle = server.database.handle;
  tenant = await createTenant(handle, ['leads:write', 'leads:read', 'parties:update', 'parties:read']);
  writeOnly = { ...(await createTenant(handle, ['leads:write'])), distributionId: tenant.distributionId };
  other = await createTenant(handle, ['parties:read']);
});
afterAll(async () => {
  await server?.close();
});

const user = (distributionId: string, username: string, name?: string) =>
  createUser(server.database.handle.db, {
    distributionId,
    email: `${username}@example.be`,
    username,
    name,
    password: PASSWORD,
  });
const users = (t: Tenant, credentials: Tenant = t) =>
  callApi(server, credentials, 'GET', `/distributions/${t.distributionId}/users`);

describe('GET /distributions/{did}/users', () => {
  it('lists the active users by username, each an id an assignee accepts', async () => {
    const zoe = await user(tenant.distributionId, `zoe-${suffix}`, '  Zoë Peeters ');
    const bram = await user(tenant.distributionId, `bram-${suffix}`);
    const gone = await user(tenant.distributionId, `gone-${suffix}`, 'Gone Away');
    await user(other.distributionId, `elsewhere-${suffix}`, 'Someone Else');
    await disableUser(server.database.handle.db, gone.id);

    const listed = await users(tenant);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      items: [
        { id: bram.id, username: `bram-${suffix}`, name: `bram-${suffix}` },
        { id: zoe.id, username: `zoe-${suffix}`, name: 'Zoë Peeters' },
      ],
    });

    const pushed = await pushLead(server, tenant, 'customers', {
      prospect: { first_name: 'Els', last_name: 'Claes', external_refs: [{ external_ref: `users-${suffix}` }] },
    });
    const lead = `/distributions/${tenant.distributionId}/leads/${pushed.body.id}`;
    const assigned = await callApi(server, tenant, 'PATCH', lead, { body: { assignee: listed.body.items[1].id } });
    expect(assigned.status).toBe(200);
    expect(assigned.body.assignee).toBe(zoe.id);
  });

  it('answers an empty list for a distribution without users', async () => {
    const empty = await createTenant(server.database.handle, ['parties:read']);
    expect((await users(empty)).body).toEqual({ items: [] });
    expect((await users(other)).body.items.map((u: { name: string }) => u.name)).toEqual(['Someone Else']);
  });

  it('needs parties:read, and the caller’s own distribution', async () => {
    const forbidden = await users(tenant, writeOnly);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.detail.errors[0]).toMatchObject({ target: 'Authorization' });
    const elsewhere = await callApi(server, other, 'GET', `/distributions/${tenant.distributionId}/users`);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.detail.errors[0]).toMatchObject({ target: 'distribution_id' });
    expect((await callApi(server, 'apikey nope', 'GET', `/distributions/${tenant.distributionId}/users`)).status).toBe(
      401,
    );
  });
});
