// A push whose API token the server has already seen live is let through unread, and the
// push's own lookup reads the token's row (src/auth/token-check-in-write.ts); any answer
// that comes out of no write waits for a read of the token first. So a token revoked by
// another connection (an operator's `token revoke`, another server process) is refused from
// the next request on, whatever that request would have been answered otherwise: a push
// that would write, a refusal, a replay of its Idempotency-Key, a 403. Real HTTP, each database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { createTenant, startTestServer, type TestServer, type Tenant } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle);
  other = await createTenant(server.database.handle);
});
afterAll(async () => {
  await server?.close();
});

let sent = 0;
/** A minimal push with a ref of its own (a new lead each time unless `ref` is given again). */
function lead(ref = `ref-${++sent}`) {
  return {
    prospect: {
      first_name: 'Ann',
      last_name: 'Peeters',
      external_refs: [{ external_ref: ref, external_ref_company: 'crm' }],
    },
  };
}

async function push(
  token: string,
  body: unknown,
  options: { distributionId?: string; key?: string } = {},
): Promise<{ status: number; type: string | undefined; headers: Headers }> {
  const response = await fetch(
    `${server.url}/v1/api/distributions/${options.distributionId ?? tenant.distributionId}/leads/customers`,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `apikey ${token}`,
        ...(options.key !== undefined && { 'idempotency-key': options.key }),
      },
      body: JSON.stringify(body),
    },
  );
  const answer = (await response.json()) as { detail?: { type?: string } };
  return { status: response.status, type: answer.detail?.type, headers: response.headers };
}

/** A token the server has seen live: issued, then used for `uses` pushes. */
async function knownToken(uses = 3): Promise<{ id: string; token: string }> {
  const issued = await createApiToken(server.database.handle.db, {
    distributionId: tenant.distributionId,
    scopes: ['leads:write'],
  });
  for (let i = 0; i < uses; i++) expect((await push(issued.token, lead())).status).toBe(201);
  return issued;
}

/** Revoked as an operator's tool or a second server process would: on a connection of its own. */
async function revokeElsewhere(tokenId: string): Promise<void> {
  const elsewhere = openDatabase(loadConfig(server.database.env));
  try {
    await elsewhere.db
      .updateTable('api_tokens')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', tokenId)
      .execute();
  } finally {
    await elsewhere.close();
  }
}

async function leadCount(): Promise<number> {
  const row = await server.database.handle.db
    .selectFrom('leads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('distribution_id', '=', tenant.distributionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function expectUnauthenticated(answer: Awaited<ReturnType<typeof push>>): void {
  expect(answer.status).toBe(401);
  expect(answer.type).toBe('Unauthenticated');
  expect(answer.headers.get('www-authenticate')).toMatch(/apikey/i);
}

describe('a push with a token the server has seen live, revoked elsewhere since', () => {
  it('is refused and writes nothing, on the next push and every one after', async () => {
    const issued = await knownToken();
    await revokeElsewhere(issued.id);
    const before = await leadCount();
    for (let i = 0; i < 3; i++) expectUnauthenticated(await push(issued.token, lead()));
    expect(await leadCount()).toBe(before);
    // The server's own token still pushes.
    expect((await push(tenant.token, lead())).status).toBe(201);
  });

  it('is refused rather than told what is wrong with its body', async () => {
    const issued = await knownToken();
    // The same body with a live token: 422.
    expect((await push(tenant.token, { prospect: { first_name: 7 } })).status).toBe(422);
    await revokeElsewhere(issued.id);
    expectUnauthenticated(await push(issued.token, { prospect: { first_name: 7 } }));
  });

  it('is refused rather than told it may not write to another distribution', async () => {
    const issued = await knownToken();
    expect((await push(issued.token, lead(), { distributionId: other.distributionId })).status).toBe(403);
    await revokeElsewhere(issued.id);
    expectUnauthenticated(await push(issued.token, lead(), { distributionId: other.distributionId }));
  });

  it('is refused rather than given the answer its Idempotency-Key kept', async () => {
    const issued = await knownToken();
    const body = lead();
    expect((await push(issued.token, body, { key: 'k-revoked' })).status).toBe(201);
    const replay = await push(issued.token, body, { key: 'k-revoked' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await revokeElsewhere(issued.id);
    const refused = await push(issued.token, body, { key: 'k-revoked' });
    expectUnauthenticated(refused);
    expect(refused.headers.get('idempotent-replayed')).toBeNull();
    expect(refused.headers.get('location')).toBeNull();
  });

  it('is refused when it merges into a lead it pushed before', async () => {
    const issued = await knownToken(0);
    const body = lead();
    expect((await push(issued.token, body)).status).toBe(201);
    expect((await push(issued.token, body)).status).toBe(200);
    await revokeElsewhere(issued.id);
    expectUnauthenticated(await push(issued.token, { ...body, prospect: { ...body.prospect, first_name: 'Anna' } }));
    const stored = await server.database.handle.db
      .selectFrom('parties')
      .innerJoin('external_refs', 'external_refs.entity_id', 'parties.id')
      .select('parties.data')
      .where('external_refs.ref', '=', body.prospect.external_refs[0]!.external_ref)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.data).first_name).toBe('Ann');
  });
});
