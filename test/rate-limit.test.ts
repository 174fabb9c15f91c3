// The per-credential rate limit (docs/design.md section 8), through real HTTP: counted per API
// token and per SSO user + client, in memory by default and in Redis when REDIS_URL is
// set, where two server processes share one count.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { loadConfig } from '../src/config.ts';
import { createTenant, startTestServer, type TestServer } from './support/test-server.ts';
import { callApi, type ApiReply } from './support/api-client.ts';
import { countRows, pushLead } from './support/lead-client.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { REDIRECT_URI, createSsoFixture, signInForTokens } from './support/sso.ts';
import { createClient } from '../src/sso/index.ts';
import { registerRateLimit } from '../src/http/rate-limit/rate-limit.ts';
import { systemClock } from '../src/clock.ts';
import Fastify from 'fastify';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let servers: TestServer[] = [];
let processes: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  processes = [];
});

async function server(env: Record<string, string>): Promise<TestServer> {
  const started = await startTestServer(env);
  servers.push(started);
  return started;
}

/** A key prefix of this test's own, so parallel runs on one Redis never share a count. */
const testPrefix = () => `lead-intake-test:${randomBytes(6).toString('hex')}:`;

const list = (distributionId: string) => `/distributions/${distributionId}/leads?limit=1`;

function limitHeaders(reply: Pick<ApiReply, 'headers'>) {
  return ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((name) => reply.headers.get(name));
}

describe('in memory', () => {
  it('counts each API token on its own, says what is left on every answer, then answers 429 RateLimited', async () => {
    const s = await server({ RATE_LIMIT: '3/min' });
    const tenant = await createTenant(s.database.handle);
    const other = await createTenant(s.database.handle);
    const replies = [];
    for (let i = 0; i < 4; i++) replies.push(await callApi(s, tenant, 'GET', list(tenant.distributionId)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(replies.slice(0, 3).map((r) => limitHeaders(r)[1])).toEqual(['2', '1', '0']);
    const [limit, remaining, reset] = limitHeaders(replies[3]!);
    expect([limit, remaining]).toEqual(['3', '0']);
    expect(Number(reset)).toBeGreaterThan(0);
    expect(Number(reset)).toBeLessThanOrEqual(60);
    expect(replies[3]!.headers.get('retry-after')).toBe(reset);
    expect(replies[3]!.body).toEqual({
      detail: {
        type: 'RateLimited',
        errors: [{ type: 'RateLimited', target: '', message: expect.any(String) }],
        error_str: expect.stringMatching(/^1 error for Request\n/),
      },
    });
    expect(replies[3]!.headers.get('x-request-id')).toBeTruthy();
    // Another token of the same distribution has its own count.
    expect((await callApi(s, other, 'GET', list(other.distributionId))).status).toBe(200);
  });

  it('a refused push writes nothing; its error answers carry the headers too', async () => {
    const s = await server({ RATE_LIMIT: '1/min' });
    const tenant = await createTenant(s.database.handle);
    const invalid = await pushLead(s, tenant, 'customers', { prospect: {} });
    expect(invalid.status).toBe(422);
    expect(limitHeaders(invalid)).toEqual(['1', '0', expect.any(String)]);
    const before = await countRows(s);
    const limited = await pushLead(s, tenant, 'customers', { prospect: { first_name: 'A', last_name: 'B' } });
    expect(limited.status).toBe(429);
    expect(await countRows(s)).toEqual(before);
  });

  it('does not count requests without valid credentials, nor answer them with the headers', async () => {
    const s = await server({ RATE_LIMIT: '1/min' });
    const tenant = await createTenant(s.database.handle);
    for (let i = 0; i < 3; i++) {
      const refused = await callApi(s, 'apikey li_not-a-token', 'GET', list(tenant.distributionId));
      expect(refused.status).toBe(401);
      expect(limitHeaders(refused)).toEqual([null, null, null]);
    }
    expect((await fetch(`${s.url}/healthz`)).headers.get('ratelimit-limit')).toBeNull();
    expect((await callApi(s, tenant, 'GET', list(tenant.distributionId))).status).toBe(200);
  });

  it('opens again when the window ends', async () => {
    const s = await server({ RATE_LIMIT: '2/min' });
    const tenant = await createTenant(s.database.handle);
    const first = [];
    for (let i = 0; i < 3; i++) first.push((await callApi(s, tenant, 'GET', list(tenant.distributionId))).status);
    expect(first).toEqual([200, 200, 429]);
    // The server's clock, not the test, waits out the window.
    s.clock.advance(60_000);
    expect((await callApi(s, tenant, 'GET', list(tenant.distributionId))).status).toBe(200);
  });

  it('counts an SSO user per client, apart from the API tokens', async () => {
    const s = await server({ RATE_LIMIT: '2/min' });
    const fixture = await createSsoFixture(s);
    const tokens = await signInForTokens(s, fixture);
    const bearer = `Bearer ${tokens.access_token}`;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await callApi(s, bearer, 'GET', list(fixture.distributionId))).status);
    expect(statuses).toEqual([200, 200, 429]);
    // The same user through another client has a count of its own.
    const otherClient = await createClient(s.database.handle.db, { name: 'Other CRM', redirectUris: [REDIRECT_URI] });
    const viaOther = await signInForTokens(s, { ...fixture, client: otherClient });
    expect((await callApi(s, `Bearer ${viaOther.access_token}`, 'GET', list(fixture.distributionId))).status).toBe(200);
    expect((await callApi(s, bearer, 'GET', list(fixture.distributionId))).status).toBe(429);
  });

  it('RATE_LIMIT=off: no limit, no headers', async () => {
    const s = await server({ RATE_LIMIT: 'off' });
    const tenant = await createTenant(s.database.handle);
    for (let i = 0; i < 5; i++) {
      const reply = await callApi(s, tenant, 'GET', list(tenant.distributionId));
      expect(reply.status).toBe(200);
      expect(limitHeaders(reply)).toEqual([null, null, null]);
    }
  });

  it('defaults to 1200/min and refuses a value it cannot read', () => {
    expect(loadConfig({}).rateLimit).toEqual({ max: 1200, windowMs: 60_000 });
    expect(loadConfig({ RATE_LIMIT: '50/h' }).rateLimit).toEqual({ max: 50, windowMs: 3_600_000 });
    expect(() => loadConfig({ RATE_LIMIT: '1200 per minute' })).toThrow(
      /RATE_LIMIT="1200 per minute": must be <requests>\/<s\|min\|h>/,
    );
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL: must start with redis:\/\//);
  });
});

describe('in Redis (REDIS_URL)', () => {
  it('two server processes share one count', async () => {
    const s = await server({ RATE_LIMIT: 'off' }); // only the database and its tenant are used
    const tenant = await createTenant(s.database.handle);
    const prefix = testPrefix();
    const env = {
      ...s.database.env,
      RATE_LIMIT: '4/min',
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      WEBHOOK_WORKER: 'false',
    };
    processes = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    const [a, b] = processes.map((p) => ({ url: p.url }) as TestServer);
    const statuses = [];
    for (const target of [a, b, a, b, a, b])
      statuses.push((await callApi(target!, tenant, 'GET', list(tenant.distributionId))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    // The count lives under this test's prefix, and expires with its window.
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${prefix}*`);
      expect(keys).toHaveLength(1);
      expect(await redis.get(keys[0]!)).toBe('6');
      expect(await redis.pttl(keys[0]!)).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  it('an in-process server counts in Redis too, and fails to start on an unreachable Redis', async () => {
    const prefix = testPrefix();
    const s = await server({ RATE_LIMIT: '1/min', REDIS_URL, REDIS_KEY_PREFIX: prefix });
    const tenant = await createTenant(s.database.handle);
    expect((await callApi(s, tenant, 'GET', list(tenant.distributionId))).status).toBe(200);
    expect((await callApi(s, tenant, 'GET', list(tenant.distributionId))).status).toBe(429);
    const app = Fastify();
    await expect(
      registerRateLimit(
        app,
        { rateLimit: { max: 1, windowMs: 1000 }, redisUrl: 'redis://127.0.0.1:1', redisKeyPrefix: prefix },
        systemClock,
      ),
    ).rejects.toThrow(/ECONNREFUSED/);
    await app.close();
  });
});
