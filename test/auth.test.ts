// API-token authentication and scope checks (docs/design.md section 4), through real HTTP on
// each database: 401 with WWW-Authenticate when the credentials are missing or not valid,
// 403 when they are valid but not enough.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  UnknownScopeError,
  createApiToken,
  hashToken,
  listApiTokens,
  revokeApiToken,
} from '../src/auth/api-token.service.ts';
import { UnknownDistributionError } from '../src/distributions/distribution.service.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { createTenant, startTestServer, type TestServer, type Tenant } from './support/test-server.ts';

const LEAD = { prospect: { first_name: 'A', last_name: 'B' } };

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

async function pushLead(authorization: string | undefined, distributionId = tenant.distributionId) {
  const response = await fetch(`${server.url}/v1/api/distributions/${distributionId}/leads/customers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
    body: JSON.stringify(LEAD),
  });
  const body = (await response.json()) as { detail?: { type?: string } };
  return { status: response.status, body, challenge: response.headers.get('www-authenticate') };
}

function messageOf(result: Awaited<ReturnType<typeof pushLead>>): string | undefined {
  return (result.body as { detail?: { errors?: Array<{ message: string }> } }).detail?.errors?.[0]?.message;
}

function expectUnauthenticated(result: Awaited<ReturnType<typeof pushLead>>): void {
  expect(result.status).toBe(401);
  expect(result.body.detail?.type).toBe('Unauthenticated');
  expect(result.challenge).toMatch(/apikey/i);
}

async function token(scopes: string[], options: { expiresAt?: Date } = {}) {
  return createApiToken(server.database.handle.db, { distributionId: tenant.distributionId, scopes, ...options });
}

describe('401 Unauthenticated', () => {
  it.each([
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['a scheme without credentials', 'apikey'],
    ['credentials with a space in them', 'apikey li_abc def'],
    ['an unknown scheme', 'Basic dXNlcjpwYXNz'],
    ['a scheme that is an Object.prototype member', 'constructor li_abc'],
    ['an unknown token', `apikey li_${'A'.repeat(43)}`],
  ])('for %s', async (_case, authorization) => {
    expectUnauthenticated(await pushLead(authorization));
  });

  it('for a valid API token sent under another scheme, saying that API tokens use apikey', async () => {
    expectUnauthenticated(await pushLead(`Token ${tenant.token}`));
    // Bearer is for SSO access tokens, which an API token is not.
    const bearer = await pushLead(`Bearer ${tenant.token}`);
    expectUnauthenticated(bearer);
    const hint =
      "The credentials are not valid: API tokens (li_…) are sent with the apikey scheme, as 'Authorization: apikey li_…'.";
    expect(messageOf(bearer)).toBe(hint);
    // Whether or not the token exists: the scheme alone decides, so nothing is learnt of the token.
    expect(messageOf(await pushLead(`bearer li_${'A'.repeat(43)}`))).toBe(hint);
    // Sent without a scheme at all.
    expect(messageOf(await pushLead(tenant.token))).toBe(hint);
    // The reference routes say the same.
    const reference = await fetch(`${server.url}/v1/api/vehicles/brands`, {
      headers: { authorization: `Bearer ${tenant.token}`, 'accept-language': 'nl' },
    });
    expect(reference.status).toBe(401);
    expect(
      ((await reference.json()) as { detail: { errors: Array<{ message: string }> } }).detail.errors[0]!.message,
    ).toBe(
      "De inloggegevens zijn niet geldig: API-tokens (li_…) worden verstuurd met het schema apikey, als 'Authorization: apikey li_…'.",
    );
    // An SSO access token (a JWT) under apikey, or alone, is told that access tokens use bearer.
    const accessHint =
      "The credentials are not valid: access tokens from single sign-on are sent with the bearer scheme, as 'Authorization: bearer eyJ…'.";
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    expect(messageOf(await pushLead(`apikey ${jwt}`))).toBe(accessHint);
    expect(messageOf(await pushLead(jwt))).toBe(accessHint);
    // Any other bad credentials keep the general message.
    expect(messageOf(await pushLead('Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln'))).toBe(
      'The credentials are missing or not valid.',
    );
    expect(messageOf(await pushLead(`apikey li_${'A'.repeat(43)}`))).toBe('The credentials are missing or not valid.');
  });

  it('for a revoked token, from the next request on', async () => {
    const issued = await token(['leads:write']);
    expect((await pushLead(`apikey ${issued.token}`)).status).not.toBe(401);
    const revoked = await revokeApiToken(server.database.handle.db, issued.id);
    expectUnauthenticated(await pushLead(`apikey ${issued.token}`));
    // Revoking again changes nothing: the first revocation time stays.
    expect((await revokeApiToken(server.database.handle.db, issued.id)).revoked_at).toBe(revoked.revoked_at);
  });

  it('for a token revoked by another connection to the database, from the next request on', async () => {
    const issued = await token(['leads:write']);
    expect((await pushLead(`apikey ${issued.token}`)).status).not.toBe(401);
    // As an operator's tool or a second server process would: a connection of its own.
    const other = openDatabase(loadConfig(server.database.env));
    try {
      await other.db
        .updateTable('api_tokens')
        .set({ revoked_at: new Date().toISOString() })
        .where('id', '=', issued.id)
        .execute();
    } finally {
      await other.close();
    }
    expectUnauthenticated(await pushLead(`apikey ${issued.token}`));
  });

  it('for a token that expired after it was used', async () => {
    const issued = await token(['leads:write'], { expiresAt: new Date(server.clock.now() + 60_000) });
    expect((await pushLead(`apikey ${issued.token}`)).status).not.toBe(401);
    // The server's clock reaches the expiry; the test does not wait for it.
    server.clock.advance(60_000);
    expectUnauthenticated(await pushLead(`apikey ${issued.token}`));
  });

  it('for an expired token', async () => {
    const issued = await token(['leads:write'], { expiresAt: new Date(server.clock.now() - 1000) });
    expectUnauthenticated(await pushLead(`apikey ${issued.token}`));
  });
});

describe('403 Forbidden', () => {
  it('for a valid token without the scope', async () => {
    const issued = await token(['leads:read', 'parties:read']);
    const result = await pushLead(`apikey ${issued.token}`);
    expect(result.status).toBe(403);
    expect(result.body.detail?.type).toBe('Forbidden');
  });

  it("for a valid token on another distribution's path", async () => {
    const result = await pushLead(`apikey ${tenant.token}`, other.distributionId);
    expect(result.status).toBe(403);
    expect(result.body.detail?.type).toBe('Forbidden');
  });
});

describe('a valid token with the scope', () => {
  it.each(['apikey', 'ApiKey', 'APIKEY'])('is accepted under the scheme %s (case-insensitive)', async (scheme) => {
    const result = await pushLead(`${scheme} ${tenant.token}`);
    expect([200, 201]).toContain(result.status);
  });

  it('does not expire before its expiry time', async () => {
    const issued = await token(['leads:write'], { expiresAt: new Date(server.clock.now() + 60_000) });
    expect([200, 201]).toContain((await pushLead(`apikey ${issued.token}`)).status);
  });
});

describe('tokens at rest', () => {
  it('are stored only as a SHA-256 hash: the secret appears nowhere in api_tokens', async () => {
    const issued = await token(['leads:write'], { expiresAt: new Date(server.clock.now() + 60_000) });
    // 256 random bits, base64url: 43 characters after the prefix.
    expect(issued.token).toMatch(/^li_[\w-]{43}$/);
    const rows = await server.database.handle.db.selectFrom('api_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(issued.token);
    expect(JSON.stringify(rows)).not.toContain(issued.token.slice(3));
    // Only its first characters are kept in the clear, for `token list`.
    expect(rows.find((row) => row.id === issued.id)?.prefix).toBe(issued.token.slice(0, 11));
    expect(JSON.stringify(rows)).not.toContain(issued.token.slice(0, 12));
    expect(rows.find((row) => row.id === issued.id)?.token_hash).toBe(hashToken(issued.token));
  });

  it('are listed without secret or hash', async () => {
    const listed = await listApiTokens(server.database.handle.db, { distributionId: tenant.distributionId });
    expect(listed.length).toBeGreaterThan(0);
    for (const entry of listed) {
      expect(Object.keys(entry).sort()).toEqual([
        'created_at',
        'distribution_id',
        'expires_at',
        'id',
        'name',
        'prefix',
        'revoked_at',
        'scopes',
      ]);
      expect(entry.distribution_id).toBe(tenant.distributionId);
      // `li_` and 8 of the secret's 43 characters: what tells a leaked token apart, not the secret.
      expect(entry.prefix).toMatch(/^li_[\w-]{8}$/);
    }
  });
});

describe('issuing', () => {
  it('refuses a scope outside the API-token scopes', async () => {
    await expect(token(['leads:write', 'api'])).rejects.toBeInstanceOf(UnknownScopeError);
    await expect(token(['leads:writ'])).rejects.toBeInstanceOf(UnknownScopeError);
  });

  it('refuses an unknown distribution', async () => {
    const issuing = createApiToken(server.database.handle.db, {
      distributionId: '6a1f0b1e-0000-4000-8000-000000000000',
      scopes: ['leads:write'],
    });
    await expect(issuing).rejects.toBeInstanceOf(UnknownDistributionError);
  });
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

function expectRefused(answer: Awaited<ReturnType<typeof push>>): void {
  expect(answer.status).toBe(401);
  expect(answer.type).toBe('Unauthenticated');
  expect(answer.headers.get('www-authenticate')).toMatch(/apikey/i);
}

// A push whose API token the server has already seen live is let through unread, and the
// push's own lookup reads the token's row (src/auth/token-check-in-write.ts); any answer
// that comes out of no write waits for a read of the token first. So a token revoked by
// another connection (an operator's `token revoke`, another server process) is refused from
// the next request on, whatever that request would have been answered otherwise: a push
// that would write, a refusal, a replay of its Idempotency-Key, a 403.
describe('a push with a token the server has seen live, revoked elsewhere since', () => {
  it('is refused and writes nothing, on the next push and every one after', async () => {
    const issued = await knownToken();
    await revokeElsewhere(issued.id);
    const before = await leadCount();
    for (let i = 0; i < 3; i++) expectRefused(await push(issued.token, lead()));
    expect(await leadCount()).toBe(before);
    // The server's own token still pushes.
    expect((await push(tenant.token, lead())).status).toBe(201);
  });

  it('is refused rather than told what is wrong with its body', async () => {
    const issued = await knownToken();
    // The same body with a live token: 422.
    expect((await push(tenant.token, { prospect: { first_name: 7 } })).status).toBe(422);
    await revokeElsewhere(issued.id);
    expectRefused(await push(issued.token, { prospect: { first_name: 7 } }));
  });

  it('is refused rather than told it may not write to another distribution', async () => {
    const issued = await knownToken();
    expect((await push(issued.token, lead(), { distributionId: other.distributionId })).status).toBe(403);
    await revokeElsewhere(issued.id);
    expectRefused(await push(issued.token, lead(), { distributionId: other.distributionId }));
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
    expectRefused(refused);
    expect(refused.headers.get('idempotent-replayed')).toBeNull();
    expect(refused.headers.get('location')).toBeNull();
  });

  it('is refused when it merges into a lead it pushed before', async () => {
    const issued = await knownToken(0);
    const body = lead();
    expect((await push(issued.token, body)).status).toBe(201);
    expect((await push(issued.token, body)).status).toBe(200);
    await revokeElsewhere(issued.id);
    expectRefused(await push(issued.token, { ...body, prospect: { ...body.prospect, first_name: 'Anna' } }));
    const stored = await server.database.handle.db
      .selectFrom('parties')
      .innerJoin('external_refs', 'external_refs.entity_id', 'parties.id')
      .select('parties.data')
      .where('external_refs.ref', '=', body.prospect.external_refs[0]!.external_ref)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.data).first_name).toBe('Ann');
  });
});
