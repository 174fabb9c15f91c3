// Property-based fuzzing of the push, batch and PATCH bodies: valid
// bodies mutated at every path (test/fuzz/mutations.ts), sent over real HTTP to a real
// server on this project's database. For every answer: no 5xx; a 4xx is in the documented
// body, every target names a place in the body, and nothing was written (row counts
// unchanged). `npm test` runs it bounded and repeatable (the sweep, and 100 random bodies
// per operation from a fixed seed); `npm run fuzz` runs FUZZ_RUNS random bodies (default
// 1,000) from a new seed and prints the figures. A failing body is shrunk by fast-check.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadExamples } from '../../src/party/index.ts';
import { countRows, pushLead } from '../support/lead-client.ts';
import { createTenant, dialect, startTestServer, type Tenant, type TestServer } from '../support/test-server.ts';
import {
  HOSTILE_VALUES,
  applyMutations,
  isRealTarget,
  mutationsOf,
  pathsOf,
  serialise,
  type Json,
  type Mutation,
} from './mutations.ts';

/** `npm run fuzz` sets FUZZ=1: a long run, a new seed each time, the figures printed. */
const LONG_RUN = process.env.FUZZ === '1';
const RUNS = Number(process.env.FUZZ_RUNS ?? (LONG_RUN ? 1_000 : 100));
/** `0`: skip the sweep of every path with every hostile value (one body each). */
const SWEEP = process.env.FUZZ_SWEEP !== '0';
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : LONG_RUN ? undefined : 20261123;

let server: TestServer;
let tenant: Tenant;
let partyPath: string;
let leadPath: string;

interface Figures {
  tried: number;
  statuses: Record<string, number>;
  serverErrors: Array<{ status: number; body: string; answer: string }>;
  partialWrites: number;
  badTargets: Array<{ target: string; body: string }>;
}
const figures: Record<string, Figures> = {};

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT: 'off', WEBHOOK_WORKER: 'false' });
  tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:update', 'parties:read']);
  const seeded = await pushLead(server, tenant, 'customers', leadExamples.CUSTOMER);
  expect(seeded.status).toBe(201);
  partyPath = `/v1/api/distributions/${tenant.distributionId}/parties/${seeded.body.party_id}`;
  leadPath = `/v1/api/distributions/${tenant.distributionId}/leads/${seeded.body.id}`;
});
afterAll(async () => {
  if (LONG_RUN) console.log(JSON.stringify({ dialect, runs: RUNS, seed: SEED ?? null, figures }, null, 1));
  await server?.close();
});

async function send(method: string, path: string, body: string, contentType: string) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `apikey ${tenant.token}`, 'content-type': contentType },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/** Sends one mutated body and checks the answer; records the figures. */
async function check(
  operation: string,
  base: Json,
  mutations: readonly Mutation[],
  method: string,
  path: string,
  contentType: string,
): Promise<boolean> {
  figures[operation] ??= { tried: 0, statuses: {}, serverErrors: [], partialWrites: 0, badTargets: [] };
  const stats = figures[operation];
  const body = applyMutations(base, mutations);
  const text = serialise(body);
  const before = await countRows(server);
  const answer = await send(method, path, text, contentType);
  stats.tried += 1;
  stats.statuses[answer.status] = (stats.statuses[answer.status] ?? 0) + 1;
  if (answer.status >= 500) {
    stats.serverErrors.push({ status: answer.status, body: text.slice(0, 2_000), answer: answer.text.slice(0, 300) });
    return false;
  }
  if (answer.status < 400) return checkBatchResults(stats, body, answer.text, before);
  const json = JSON.parse(answer.text);
  expect(json).toEqual({
    detail: { type: expect.any(String), errors: expect.any(Array), error_str: expect.any(String) },
  });
  if (answer.status === 422) {
    for (const { target } of json.detail.errors as Array<{ target: string }>) {
      if (!isRealTarget(body, target)) stats.badTargets.push({ target, body: text.slice(0, 2_000) });
    }
  }
  const after = await countRows(server);
  if (JSON.stringify(after) !== JSON.stringify(before)) {
    stats.partialWrites += 1;
    return false;
  }
  return true;
}

/**
 * A batch's 200 or 207 (docs/design.md section 14): each refused item's error is in the
 * documented body with targets inside its own item, and a batch whose every item was
 * refused wrote nothing. Any other 2xx passes.
 */
async function checkBatchResults(stats: Figures, body: Json, answer: string, before: Record<string, number>) {
  const results = (JSON.parse(answer) as { results?: Array<{ index: number; status: number; error?: any }> }).results;
  if (!Array.isArray(results)) return true;
  const items = (body as { leads: Json[] }).leads;
  for (const result of results) {
    if (result.status >= 500)
      stats.serverErrors.push({ status: result.status, body: '', answer: answer.slice(0, 300) });
    if (result.error === undefined) continue;
    expect(result.error).toEqual({
      detail: { type: expect.any(String), errors: expect.any(Array), error_str: expect.any(String) },
    });
    for (const { target } of result.error.detail.errors as Array<{ target: string }>) {
      if (result.status === 422 && !isRealTarget(items[result.index]!, target))
        stats.badTargets.push({ target: `leads.${result.index}: ${target}`, body: serialise(body).slice(0, 2_000) });
    }
  }
  if (results.every((result) => result.error !== undefined)) {
    const after = await countRows(server);
    if (JSON.stringify(after) !== JSON.stringify(before)) stats.partialWrites += 1;
  }
  return stats.serverErrors.length === 0;
}

/** The seeded party's ids and refs (the customer example's): another party's, seen from the company pushes. */
const anotherPartys: Json[] = pathsOf(leadExamples.CUSTOMER as unknown as Json)
  .filter((path) =>
    ['id', 'vin', 'ref', 'external_ref', 'risk_object_id', 'policy_package_id'].includes(String(path.at(-1))),
  )
  .map((path) =>
    path.reduce<Json>(
      (node, key) => (node as Record<string | number, Json>)[key]!,
      leadExamples.CUSTOMER as unknown as Json,
    ),
  );

const PATCH_BASE = {
  first_name: 'Jan',
  email: 'jan@example.be',
  address: { street: 'Veldstraat', housenr: '1', zipcode: '9000', city: 'Gent' },
  risk_objects: {
    cars: [{ id: '3f0c9a43-4f6e-4c9b-9a57-2f1d1c8b7e01', vin: 'WVWZZZ1JZXW000001', brand: 'Volkswagen' }],
  },
} as Json;

interface Operation {
  readonly name: string;
  readonly base: Json;
  readonly method: string;
  readonly path: () => string;
  readonly contentType: string;
}

const OPERATIONS: readonly Operation[] = [
  {
    name: 'push customer',
    base: leadExamples.CUSTOMER as unknown as Json,
    method: 'POST',
    path: () => `/v1/api/distributions/${tenant.distributionId}/leads/customers`,
    contentType: 'application/json',
  },
  {
    name: 'push company',
    base: leadExamples.COMPANY as unknown as Json,
    method: 'POST',
    path: () => `/v1/api/distributions/${tenant.distributionId}/leads/companies`,
    contentType: 'application/json',
  },
  {
    name: 'patch party',
    base: PATCH_BASE,
    method: 'PATCH',
    path: () => partyPath,
    contentType: 'application/merge-patch+json',
  },
  {
    // Both kinds in one envelope (docs/design.md section 14): the envelope's own fields and
    // each item's, mutated alike.
    name: 'push batch',
    base: {
      leads: [
        { type: 'CUSTOMER', ...leadExamples.CUSTOMER },
        { type: 'COMPANY', prospect: { name: 'Batch NV', enterprise_nr: 'BE0123.456.749' } },
      ],
    } as unknown as Json,
    method: 'POST',
    path: () => `/v1/api/distributions/${tenant.distributionId}/leads/batch`,
    contentType: 'application/json',
  },
  {
    // The broker's work (docs/design.md section 13).
    name: 'patch lead',
    base: { status: 'lost', lost_reason: 'Chose another insurer', assignee: null } as Json,
    method: 'PATCH',
    path: () => leadPath,
    contentType: 'application/merge-patch+json',
  },
];

function expectClean(operation: string): void {
  expect(figures[operation]!.serverErrors).toEqual([]);
  expect(figures[operation]!.partialWrites).toBe(0);
  expect(figures[operation]!.badTargets).toEqual([]);
}

describe.each(OPERATIONS)('$name', (operation) => {
  it.runIf(SWEEP)(
    'every path set to every hostile value, one at a time',
    async () => {
      const name = `${operation.name} (sweep)`;
      for (const path of pathsOf(operation.base)) {
        for (const value of HOSTILE_VALUES) {
          await check(
            name,
            operation.base,
            [{ kind: 'set', path, value }],
            operation.method,
            operation.path(),
            operation.contentType,
          );
        }
      }
      expectClean(name);
    },
    1_800_000,
  );

  it('random combinations of mutations (fast-check)', async () => {
    const name = `${operation.name} (random)`;
    await fc
      .assert(
        fc.asyncProperty(mutationsOf(operation.base, 3, anotherPartys), (mutations) =>
          check(name, operation.base, mutations, operation.method, operation.path(), operation.contentType),
        ),
        { numRuns: RUNS, ...(SEED !== undefined && { seed: SEED }), endOnFailure: false },
      )
      .catch(() => undefined);
    expectClean(name);
  }, 1_800_000);
});
