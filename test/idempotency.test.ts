// Idempotency-Key on every write under /v1/api/ (docs/design.md section 14; docs/api.md,
// "Retrying safely"), through real HTTP on both databases: a retry gets the first answer
// byte for byte and writes nothing, another request under the key is 422, a key whose first
// request still runs is 409 (also from another process on PostgreSQL), refusals keep no
// record, keys are per credential, method and path, and expire.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, dialect, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { startServerProcess } from './support/server-process.ts';
import { eventually } from './support/eventually.ts';
import { REDIRECT_URI, createSsoFixture, signInForTokens } from './support/sso.ts';
import { createClient } from '../src/sso/index.ts';
import { countRows } from './support/lead-client.ts';
import { deleteIdempotentAnswersOfParty, purgeExpiredKeys } from '../src/idempotency/idempotency.repository.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:update', 'parties:read']);
});
afterAll(() => server.close());

interface RawReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: any;
}

async function send(
  target: { url: string },
  method: string,
  path: string,
  options: { body?: unknown; key?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<RawReply> {
  const response = await fetch(`${target.url}/v1/api${path}`, {
    method,
    headers: {
      authorization: `apikey ${options.token ?? tenant.token}`,
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...(options.key !== undefined && { 'idempotency-key': options.key }),
      ...options.headers,
    },
    ...(options.body !== undefined && {
      body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

const customers = () => `/distributions/${tenant.distributionId}/leads/customers`;
const customer = () => ({
  prospect: {
    first_name: 'Retry',
    last_name: 'Safely',
    external_refs: [{ external_ref: randomUUID(), external_ref_company: 'crm' }],
    callbacks: ['https://crm.example.com/hooks/retry'],
  },
});

async function count(table: 'lead_pushes' | 'webhook_events' | 'idempotency_answers'): Promise<number> {
  const row = await server.database.handle.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('a retried push', () => {
  it('gets the first answer byte for byte, with Idempotent-Replayed, and writes nothing', async () => {
    const key = randomUUID();
    const body = customer();
    const first = await send(server, 'POST', customers(), { body, key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The key changes nothing of the first answer: the same headers as a push without one.
    const without = await send(server, 'POST', customers(), { body: customer() });
    expect(first.headers.get('content-type')).toBe(without.headers.get('content-type'));
    expect(Object.keys(first.body)).toEqual(Object.keys(without.body));
    // What was kept (with the push, in its transaction) is the answer's very bytes.
    const kept = await server.database.handle.db
      .selectFrom('idempotency_answers')
      .select(['state', 'status', 'body'])
      .where('body', 'like', `%${first.body.id}%`)
      .execute();
    expect(kept).toEqual([{ state: 'done', status: 201, body: first.text }]);
    const before = { pushes: await count('lead_pushes'), events: await count('webhook_events') };
    const rows = await countRows(server);

    for (let attempt = 0; attempt < 2; attempt++) {
      const retry = await send(server, 'POST', customers(), { body, key });
      expect(retry.status).toBe(201);
      expect(retry.text).toBe(first.text);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.headers.get('location')).toBe(first.headers.get('location'));
      expect(retry.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(retry.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    }
    // No push log entry, no webhook event, no row at all.
    expect({ pushes: await count('lead_pushes'), events: await count('webhook_events') }).toEqual(before);
    expect(await countRows(server)).toEqual(rows);
    // Without the key, the same body is an ordinary merge.
    const plain = await send(server, 'POST', customers(), { body });
    expect(plain.status).toBe(200);
  });

  it('keeps the same key apart per credential, method and path', async () => {
    const key = randomUUID();
    const body = customer();
    const first = await send(server, 'POST', customers(), { body, key });
    const other = await createApiToken(server.database.handle.db, {
      distributionId: tenant.distributionId,
      scopes: ['leads:write'],
    });
    const byOther = await send(server, 'POST', customers(), { body, key, token: other.token });
    expect([byOther.status, byOther.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect(byOther.body.id).toBe(first.body.id);
    const company = await send(server, 'POST', `/distributions/${tenant.distributionId}/leads/companies`, {
      body: { prospect: { name: 'Same key, other path' } },
      key,
    });
    expect([company.status, company.headers.get('idempotent-replayed')]).toEqual([201, null]);
  });

  it("keeps an SSO user's keys per client, as the rate limit counts them", async () => {
    const fixture = await createSsoFixture(server);
    const viaFirst = `Bearer ${(await signInForTokens(server, fixture)).access_token}`;
    const otherClient = await createClient(server.database.handle.db, {
      name: 'Other CRM',
      redirectUris: [REDIRECT_URI],
    });
    const viaOther = `Bearer ${(await signInForTokens(server, { ...fixture, client: otherClient })).access_token}`;
    const path = `/distributions/${fixture.distributionId}/leads/customers`;
    const key = randomUUID();
    const body = customer();
    const first = await send(server, 'POST', path, { body, key, headers: { authorization: viaFirst } });
    expect(first.status).toBe(201);
    const retry = await send(server, 'POST', path, { body, key, headers: { authorization: viaFirst } });
    expect([retry.text, retry.headers.get('idempotent-replayed')]).toEqual([first.text, 'true']);
    const other = await send(server, 'POST', path, { body, key, headers: { authorization: viaOther } });
    expect([other.status, other.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  it('refuses the key with another body: 422 IdempotencyKeyReused, nothing written', async () => {
    const key = randomUUID();
    await send(server, 'POST', customers(), { body: customer(), key });
    const rows = await countRows(server);
    const reused = await send(server, 'POST', customers(), { body: customer(), key });
    expect(reused.status).toBe(422);
    expect(reused.body.detail).toMatchObject({
      type: 'IdempotencyKeyReused',
      errors: [{ type: 'IdempotencyKeyReused', target: 'Idempotency-Key' }],
    });
    expect(await countRows(server)).toEqual(rows);
    // The same JSON with other whitespace is other bytes: another request.
    const body = customer();
    const spaced = randomUUID();
    expect((await send(server, 'POST', customers(), { body, key: spaced })).status).toBe(201);
    const respaced = await send(server, 'POST', customers(), { body: JSON.stringify(body, null, 2), key: spaced });
    expect(respaced.body.detail.type).toBe('IdempotencyKeyReused');
  });

  it('refuses a malformed key with 422 on Idempotency-Key, before anything runs', async () => {
    const rows = await countRows(server);
    for (const key of ['x'.repeat(256), 'caf\u00e9', 'tab\tinside']) {
      const reply = await send(server, 'POST', customers(), { body: customer(), key });
      expect(reply.status, JSON.stringify(key)).toBe(422);
      expect(reply.body.detail.errors).toEqual([expect.objectContaining({ target: 'Idempotency-Key' })]);
    }
    expect(await countRows(server)).toEqual(rows);
    expect((await send(server, 'POST', customers(), { body: customer(), key: 'x'.repeat(255) })).status).toBe(201);
  });

  it('keeps no record of a refused request: the corrected retry with the same key runs', async () => {
    const key = randomUUID();
    const keys = await count('idempotency_answers');
    const invalid = await send(server, 'POST', customers(), { body: { prospect: { first_name: 'A' } }, key });
    expect(invalid.status).toBe(422);
    const unknownParty = await send(server, 'POST', customers(), {
      body: { prospect: { id: randomUUID(), first_name: 'A', last_name: 'B' } },
      key,
    });
    expect(unknownParty.status).toBe(422);
    expect(await count('idempotency_answers')).toBe(keys);
    const fixed = await send(server, 'POST', customers(), { body: customer(), key });
    expect(fixed.status).toBe(201);
  });
});

describe('every write takes a key', () => {
  it('a batch is replayed whole', async () => {
    const key = randomUUID();
    const body = {
      leads: [
        { type: 'CUSTOMER', ...customer() },
        { type: 'COMPANY', prospect: {} },
      ],
    };
    const path = `/distributions/${tenant.distributionId}/leads/batch`;
    const first = await send(server, 'POST', path, { body, key });
    expect(first.status).toBe(207);
    const pushes = await count('lead_pushes');
    const retry = await send(server, 'POST', path, { body, key });
    expect([retry.status, retry.text, retry.headers.get('idempotent-replayed')]).toEqual([207, first.text, 'true']);
    expect(await count('lead_pushes')).toBe(pushes);
  });

  it('a party PATCH is replayed with its ETag, and does not run twice', async () => {
    const pushed = await send(server, 'POST', customers(), { body: customer() });
    const path = `/distributions/${tenant.distributionId}/parties/${pushed.body.party_id}`;
    const read = await send(server, 'GET', path);
    const key = randomUUID();
    const patch = {
      body: { telephonenr: '+32 2 111 11 11' },
      key,
      headers: { 'content-type': 'application/merge-patch+json', 'if-match': read.headers.get('etag')! },
    };
    const first = await send(server, 'PATCH', path, patch);
    expect(first.status).toBe(200);
    const retry = await send(server, 'PATCH', path, patch);
    expect([retry.status, retry.text, retry.headers.get('etag')]).toEqual([200, first.text, first.headers.get('etag')]);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    // Had it run again, the old If-Match would have been refused with 412.
    expect((await send(server, 'PATCH', path, { ...patch, key: randomUUID() })).status).toBe(412);
  });
  it('a lead PATCH keeps its answer in its own transaction, naming its person, and is replayed with its ETag', async () => {
    const pushed = await send(server, 'POST', customers(), { body: customer() });
    const path = `/distributions/${tenant.distributionId}/leads/${pushed.body.id}`;
    const patch = {
      body: { status: 'contacted' },
      key: randomUUID(),
      headers: { 'content-type': 'application/merge-patch+json' },
    };
    const first = await send(server, 'PATCH', path, patch);
    expect(first.status).toBe(200);
    // One row: the answer's very bytes, with the person it shows (which an erasure deletes it by).
    const kept = await server.database.handle.db
      .selectFrom('idempotency_answers')
      .select(['state', 'status', 'party_id'])
      .where('body', '=', first.text)
      .execute();
    expect(kept).toEqual([{ state: 'done', status: 200, party_id: pushed.body.party_id }]);
    const retry = await send(server, 'PATCH', path, patch);
    expect([retry.status, retry.text, retry.headers.get('etag'), retry.headers.get('idempotent-replayed')]).toEqual([
      200,
      first.text,
      first.headers.get('etag'),
      'true',
    ]);
  });
});

describe('a key whose first request still runs', () => {
  it('answers the others 409 IdempotencyConflict with Retry-After: 1, and exactly one runs', async () => {
    const key = randomUUID();
    const body = customer();
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => send(server, 'POST', customers(), { body, key })),
    );
    const ran = replies.filter((reply) => reply.status === 201 && reply.headers.get('idempotent-replayed') === null);
    expect(ran).toHaveLength(1);
    for (const reply of replies.filter((r) => r !== ran[0])) {
      if (reply.status === 409) {
        expect(reply.body.detail.type).toBe('IdempotencyConflict');
        expect(reply.body.detail.errors[0].target).toBe('Idempotency-Key');
        expect(reply.headers.get('retry-after')).toBe('1');
      } else {
        expect([reply.status, reply.text]).toEqual([201, ran[0]!.text]);
      }
    }
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const conflicts = replies.filter((reply) => reply.status === 409).length;
    expect(metrics).toContain(`lead_intake_idempotency_conflicts_total ${conflicts}`);
    expect(metrics).toMatch(/lead_intake_idempotent_replays_total [1-9]/);
  });

  it.runIf(dialect === 'postgres')(
    'is 409 from another process too, and replayed by it once the first is done',
    async () => {
      const env = server.database.env;
      const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
      const locker = new pg.Client({ connectionString: env.DATABASE_URL });
      await locker.connect();
      try {
        // New parties wait for this lock, so the first request runs until it is released.
        await locker.query('begin');
        await locker.query('lock table parties in share mode');
        const key = randomUUID();
        const body = customer();
        const first = send(a, 'POST', customers(), { body, key });
        // The first request holds its key (taken first in its transaction) and now waits for the lock.
        await eventually(
          async () => {
            const { rows } = await locker.query(
              "select 1 from pg_locks where locktype = 'advisory' and classid = 1801812339 and granted",
            );
            return rows.length === 1;
          },
          10_000,
          'the first request to claim its key',
        );
        const meanwhile = await send(b, 'POST', customers(), { body, key });
        expect(meanwhile.status).toBe(409);
        expect(meanwhile.headers.get('retry-after')).toBe('1');
        await locker.query('commit');
        const done = await first;
        expect(done.status).toBe(201);
        const replay = await send(b, 'POST', customers(), { body, key });
        expect([replay.status, replay.text, replay.headers.get('idempotent-replayed')]).toEqual([
          201,
          done.text,
          'true',
        ]);
      } finally {
        await locker.end();
        await Promise.all([a.stop(), b.stop()]);
      }
    },
    90_000,
  );
});

describe('erasure', () => {
  it('removes the kept answers that show the person, and is itself replayed, not run twice', async () => {
    const eraser = await createApiToken(server.database.handle.db, {
      distributionId: tenant.distributionId,
      scopes: ['leads:write', 'parties:erase'],
    });
    const body = customer();
    const key = randomUUID();
    const pushed = await send(server, 'POST', customers(), { body, key, token: eraser.token });
    expect(pushed.status).toBe(201);
    const path = `/distributions/${tenant.distributionId}/parties/${pushed.body.party_id}`;
    const eraseKey = randomUUID();
    const erased = await send(server, 'DELETE', path, { key: eraseKey, token: eraser.token });
    expect(erased.status).toBe(200);
    // Sent again: the receipt, not a second erasure (which would be 410).
    const again = await send(server, 'DELETE', path, { key: eraseKey, token: eraser.token });
    expect([again.status, again.text, again.headers.get('idempotent-replayed')]).toEqual([200, erased.text, 'true']);
    // The push's kept answer (the person's lead) went with the person: its retry runs again
    // and meets the erasure (409 Erased for a push carrying an erased ref).
    const retried = await send(server, 'POST', customers(), { body, key, token: eraser.token });
    expect([retried.status, retried.body.detail?.type, retried.headers.get('idempotent-replayed')]).toEqual([
      409,
      'Erased',
      null,
    ]);
  });
});

describe('kept answers', () => {
  it('expire after IDEMPOTENCY_TTL: the key then runs anew, and the purge removes them', async () => {
    const own = await startTestServer({ IDEMPOTENCY_TTL: '1h' });
    try {
      const t = await createTenant(own.database.handle);
      const key = randomUUID();
      const path = `/distributions/${t.distributionId}/leads/customers`;
      const first = await send(own, 'POST', path, { body: customer(), key, token: t.token });
      expect(first.status).toBe(201);
      own.clock.advance(3_600_000);
      const laterBody = customer();
      const later = await send(own, 'POST', path, { body: laterBody, key, token: t.token });
      expect([later.status, later.headers.get('idempotent-replayed')]).toEqual([201, null]);
      // The expired row was taken over by the new answer, which the key now replays.
      const again = await send(own, 'POST', path, { body: laterBody, key, token: t.token });
      expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
      expect(again.text).toBe(later.text);
      own.clock.advance(3_600_000);
      const db = own.database.handle.db;
      expect(await purgeExpiredKeys(db, own.clock.iso(), 1_000)).toBe(1);
      expect(await db.selectFrom('idempotency_answer_parties').selectAll().execute()).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it('of a party are removed by its erasure (deleteIdempotentAnswersOfParty), and only those', async () => {
    const body = customer();
    const key = randomUUID();
    const first = await send(server, 'POST', customers(), { body, key });
    const batchKey = randomUUID();
    const batchPath = `/distributions/${tenant.distributionId}/leads/batch`;
    const otherBody = customer();
    const batch = {
      leads: [
        { type: 'CUSTOMER', ...body },
        { type: 'CUSTOMER', ...otherBody },
      ],
    };
    expect((await send(server, 'POST', batchPath, { body: batch, key: batchKey })).status).toBe(200);
    const otherKey = randomUUID();
    const other = await send(server, 'POST', customers(), { body: otherBody, key: otherKey });

    const db = server.database.handle.db;
    const removed = await db
      .transaction()
      .execute((trx) => deleteIdempotentAnswersOfParty(trx, tenant.distributionId, first.body.party_id));
    expect(removed).toBe(2);
    // Another distribution's id finds nothing.
    expect(await deleteIdempotentAnswersOfParty(db, randomUUID(), other.body.party_id)).toBe(0);
    // Both of its keys run anew; the other party's answer is still replayed.
    const again = await send(server, 'POST', customers(), { body, key });
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, null]);
    const kept = await send(server, 'POST', customers(), { body: otherBody, key: otherKey });
    expect([kept.text, kept.headers.get('idempotent-replayed')]).toEqual([other.text, 'true']);
  });
});
