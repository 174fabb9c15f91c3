// Runs the model-based test's requests (requests.ts) against a real server and the model
// (lead-model.ts) side by side, in a distribution of their own, and checks after every step:
// no 5xx; the answer's status is the model's; a refused request wrote nothing (row counts of
// every lead table); the distribution holds one party per model party; and every lead read
// back over the API equals the model's. Throws on the first difference.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { callApi, type ApiReply } from '../support/api-client.ts';
import { countRows, pushLead } from '../support/lead-client.ts';
import { createTenant, type Tenant, type TestServer } from '../support/test-server.ts';
import {
  type Erased,
  erase,
  type Kind,
  lastTick,
  leadPatch,
  type MergeRecord,
  mergeParties,
  type ModelParty,
  type Outcome,
  patch,
  push,
  survivorOf,
} from './lead-model.ts';
import type { CarListing, Request } from './requests.ts';
import { createUser } from '../../src/sso/index.ts';
import { insertDistribution } from '../../src/distributions/distribution.repository.ts';
import { PASSWORD } from '../support/sso.ts';
import { sql } from 'kysely';
import { liveTables } from '../support/personal-data.ts';
import { customerMatchKey, NOT_PERSONAL } from '../../src/party/index.ts';

type Json = Record<string, unknown>;
const SCOPES = ['leads:write', 'leads:read', 'parties:read', 'parties:update', 'parties:erase'];

export interface Run {
  readonly server: TestServer;
  readonly tenant: Tenant;
  /** `{id3}` -> this run's UUID, `{party-unknown3}` -> an id no party has. */
  readonly symbols: Map<string, string>;
  parties: ModelParty[];
  /** The tombstones of the parties erased so far. */
  erased: Erased;
  /** The parties merged into another so far, each naming its survivor as it is now. */
  merges: readonly MergeRecord[];
  /** The model's tick of each push accepted so far -> the `updated_at` the server stamped it with. */
  readonly stamps: Map<number, string>;
  /** The requests sent so far, for a failure's message. */
  readonly log: string[];
  /** `{user0}` -> a user id, made on first use (a lead PATCH's assignees). */
  readonly users: Map<string, string>;
  /** The Idempotency-Keys sent so far (`replay`), with the push's resolved body and its latest answer. */
  readonly keys: KeptKey[];
}

interface KeptKey {
  readonly key: string;
  readonly kind: 'customers' | 'companies';
  readonly body: Json;
  /** What the key holds: the last answer a request with it ran to (a refusal holds nothing). */
  reply: ApiReply;
}

/** How often each request kind got each status, over every run of this process: what the sequences exercised. */
export const statistics: Record<string, number> = {};
/** A refusal's first problem, as `field:message` with the target's indexes left out. */
const reasonOf = (reply: ApiReply) => {
  const problem = reply.body?.detail?.errors?.[0];
  if (!problem) return '';
  const field = String(problem.target).replace(/\.\d+/g, '');
  return ` ${field}: ${String(problem.message).replace(/^Error for '[^']*'\. /, '')}`;
};
const count = (what: string) => {
  statistics[what] = (statistics[what] ?? 0) + 1;
};

export async function startRun(server: TestServer): Promise<Run> {
  return {
    server,
    tenant: await createTenant(server.database.handle, SCOPES),
    symbols: new Map(),
    parties: [],
    erased: { parties: [], refs: [] },
    merges: [],
    stamps: new Map(),
    log: [],
    users: new Map(),
    keys: [],
  };
}

/** Runs `requests` in a new distribution of `server`, checking every step against the model. */
export async function replaySequence(server: TestServer, requests: readonly Request[]): Promise<void> {
  const run = await startRun(server);
  for (const request of requests) await step(run, request);
}

export async function step(run: Run, request: Request): Promise<void> {
  if (request.op === 'push') await single(run, request);
  else if (request.op === 'patch') await partyPatch(run, request);
  else if (request.op === 'leadPatch') await leadWorkPatch(run, request);
  else if (request.op === 'batch') await batch(run, request);
  else if (request.op === 'replay') await replayed(run, request.push);
  else if (request.op === 'replayLater') await replayedLater(run, request);
  else if (request.op === 'erase') await eraseParty(run, request);
  else if (request.op === 'merge') await mergeStep(run, request);
  else await concurrentPair(run, request.first, request.second);
  await compareStored(run);
}

async function single(
  run: Run,
  request: Request & { op: 'push' },
  idempotencyKey?: string,
): Promise<{ body: Json; reply: ApiReply }> {
  const body = resolve(run, request.body) as Json;
  const expected = push(run.parties, kindOf(request.kind), body as never, run.erased, run.merges);
  const tick = lastTick();
  const before = expected.status >= 400 ? await countRows(run.server) : undefined;
  const headers: Record<string, string> = idempotencyKey ? { 'idempotency-key': idempotencyKey } : {};
  const reply = await pushLead(run.server, run.tenant, request.kind, body, headers);
  run.log.push(`push ${request.kind} ${JSON.stringify(body)} -> ${reply.status}`);
  count(`push ${reply.status}${reasonOf(reply)}`);
  await checkAnswer(run, reply, expected.status, before);
  if (expected.status >= 400) return { body, reply };
  accept(run, expected, [reply]);
  run.stamps.set(tick, reply.body.updated_at);
  // The answer is what is stored: a read of the lead gives back the push's answer.
  const read = await callApi(
    run.server,
    run.tenant,
    'GET',
    `/distributions/${run.tenant.distributionId}/leads/${reply.body.id}`,
  );
  expect(read.body, `the push's answer is the lead as read back\n${run.log.join('\n')}`).toEqual(reply.body);
  return { body, reply };
}

/**
 * A batch (docs/design.md section 14): each item answered as the model answers it pushed
 * alone after the items before it, 200 or 207 for the whole, and a batch whose every item
 * was refused wrote nothing.
 */
async function batch(run: Run, request: Request & { op: 'batch' }): Promise<void> {
  const items = request.pushes.map((item) => ({ kind: item.kind, body: resolve(run, item.body) as Json }));
  const outcomes: Outcome[] = [];
  const ticks: number[] = [];
  let parties = run.parties;
  for (const item of items) {
    const outcome = push(parties, kindOf(item.kind), item.body as never, run.erased, run.merges);
    ticks.push(lastTick());
    outcomes.push(outcome);
    if (outcome.status < 400) parties = outcome.parties;
  }
  const refused = outcomes.filter((outcome) => outcome.status >= 400).length;
  const before = refused === outcomes.length ? await countRows(run.server) : undefined;
  const reply = await callApi(
    run.server,
    run.tenant,
    'POST',
    `/distributions/${run.tenant.distributionId}/leads/batch`,
    {
      body: { leads: items.map((item) => ({ type: kindOf(item.kind), ...item.body })) },
    },
  );
  const statuses = (reply.body?.results ?? []).map((result: Json) => result.status);
  run.log.push(`batch ${JSON.stringify(items)} -> ${reply.status} ${JSON.stringify(statuses)}`);
  count(`batch ${reply.status} ${statuses.join('+')}`);
  const trail = `\n${run.log.join('\n')}\n${JSON.stringify(reply.body)}`;
  expect(reply.status, `the model's status${trail}`).toBe(refused > 0 ? 207 : 200);
  expect(statuses, `each item as the model answers it${trail}`).toEqual(outcomes.map((outcome) => outcome.status));
  if (before !== undefined)
    expect(await countRows(run.server), `a refused batch wrote nothing${trail}`).toEqual(before);
  // Each item's new party is the one its own answer names; the model adds it at the end of
  // the parties it had then, and later items' copies keep it there.
  run.parties = parties;
  outcomes.forEach((outcome, i) => {
    if (outcome.status < 400) run.stamps.set(ticks[i]!, reply.body.results[i].lead.updated_at);
    if (outcome.status !== 201) return;
    const lead = reply.body.results[i].lead;
    Object.assign(parties[outcome.parties.length - 1]!, { id: lead.party_id, leadId: lead.id });
  });
}

/**
 * A push sent twice with one Idempotency-Key (docs/design.md section 14): the first as
 * usual; the second gets the same answer with Idempotent-Replayed when the first succeeded,
 * writing nothing, and is refused again (it ran again) when the first was refused.
 */
async function replayed(run: Run, request: Request & { op: 'push' }): Promise<void> {
  const key = randomUUID();
  const first = await single(run, request, key);
  const before = await countRows(run.server);
  const again = await pushLead(run.server, run.tenant, request.kind, first.body, { 'idempotency-key': key });
  run.log.push(`the same again with its Idempotency-Key -> ${again.status}`);
  count(`replay ${again.status}`);
  const trail = `\n${run.log.join('\n')}\n${JSON.stringify(again.body)}`;
  expect([again.status, again.body], `the first answer again${trail}`).toEqual([first.reply.status, first.reply.body]);
  expect(again.headers.get('idempotent-replayed'), trail).toBe(first.reply.status < 400 ? 'true' : null);
  expect(await countRows(run.server), `a replay wrote nothing${trail}`).toEqual(before);
  run.keys.push({ key, kind: request.kind, body: first.body, reply: first.reply });
}

/**
 * An earlier key sent again, later (docs/design.md section 14): the answer it holds, replayed
 * and writing nothing, unless the person that answer showed was erased since (or the first
 * request was refused): then it runs as the same push would now, meeting the tombstone or
 * making a new party, and the key holds that answer from then on.
 */
async function replayedLater(run: Run, request: Request & { op: 'replayLater' }): Promise<void> {
  const kept = run.keys[request.which % Math.max(run.keys.length, 1)];
  if (kept === undefined) return;
  // The person the answer showed: a party merged since is its survivor (docs/design.md section 15).
  const shows = kept.reply.status < 400 ? survivorOf(run.merges, String(kept.reply.body.party_id)) : undefined;
  const live = run.parties.findIndex((party) => party.id === shows);
  if (request.eraseFirst && live >= 0) await eraseParty(run, { op: 'erase', party: live });
  if (shows !== undefined && !run.erased.parties.includes(shows)) {
    const before = await countRows(run.server);
    const again = await pushLead(run.server, run.tenant, kept.kind, kept.body, { 'idempotency-key': kept.key });
    run.log.push(`an earlier push's Idempotency-Key again -> ${again.status}`);
    count(`replay later ${again.status}`);
    const trail = `\n${run.log.join('\n')}\n${JSON.stringify(again.body)}`;
    expect([again.status, again.body], `the kept answer${trail}`).toEqual([kept.reply.status, kept.reply.body]);
    expect(again.headers.get('idempotent-replayed'), trail).toBe('true');
    expect(await countRows(run.server), `a replay wrote nothing${trail}`).toEqual(before);
    return;
  }
  run.log.push(`an earlier push's Idempotency-Key again, its answer ${shows ? 'erased' : 'refused'}:`);
  count(`replay later, ${shows ? 'erased' : 'refused'}`);
  const { reply } = await single(run, { op: 'push', kind: kept.kind, body: kept.body }, kept.key);
  expect(reply.headers.get('idempotent-replayed'), `runs as it would now\n${run.log.join('\n')}`).toBeNull();
  if (reply.status < 400) kept.reply = reply;
}

async function partyPatch(run: Run, request: Request & { op: 'patch' }): Promise<void> {
  const target = run.parties[request.party];
  if (target === undefined) return;
  const current = target.objects.filter((o) => !o.removed && o.type === 'CAR');
  const body: Json = { ...request.fields };
  if (request.cars !== undefined)
    body.risk_objects = { cars: request.cars.map((listing) => carOf(run, current, listing)) };
  const expected = patch(run.parties, target, body);
  const before = expected.status >= 400 ? await countRows(run.server) : undefined;
  const reply = await callApi(
    run.server,
    run.tenant,
    'PATCH',
    `/distributions/${run.tenant.distributionId}/parties/${target.id}`,
    {
      body,
    },
  );
  run.log.push(`patch party ${request.party} ${JSON.stringify(body)} -> ${reply.status}`);
  count(`patch ${reply.status}${reasonOf(reply)}`);
  await checkAnswer(run, reply, expected.status, before);
  if (expected.status < 400) run.parties = expected.parties;
}

let userCount = 0;

/** The user a symbol names: of the run's distribution, of another one, or nobody's id. */
async function userOf(run: Run, symbol: string): Promise<string> {
  const known = run.users.get(symbol);
  if (known !== undefined) return known;
  let id: string = randomUUID();
  if (symbol !== '{nobody}') {
    const db = run.server.database.handle.db;
    const distributionId =
      symbol === '{stranger}' ? (await insertDistribution(db, 'Another distribution')).id : run.tenant.distributionId;
    const username = `model-${process.pid}-${++userCount}`;
    id = (await createUser(db, { distributionId, email: `${username}@example.be`, username, password: PASSWORD })).id;
  }
  run.users.set(symbol, id);
  return id;
}

async function leadWorkPatch(run: Run, request: Request & { op: 'leadPatch' }): Promise<void> {
  const target = run.parties[request.party];
  if (target === undefined) return;
  const body: Json = { ...request.body };
  if (typeof body.assignee === 'string') body.assignee = await userOf(run, body.assignee);
  const own = new Set(['{user0}', '{user1}'].flatMap((symbol) => run.users.get(symbol) ?? []));
  const expected = leadPatch(run.parties, target, body, own);
  const before = expected.status >= 400 ? await countRows(run.server) : undefined;
  const reply = await callApi(
    run.server,
    run.tenant,
    'PATCH',
    `/distributions/${run.tenant.distributionId}/leads/${target.leadId}`,
    { body },
  );
  run.log.push(`patch lead ${request.party} ${JSON.stringify(body)} -> ${reply.status}`);
  count(`leadPatch ${reply.status}${reasonOf(reply)}`);
  await checkAnswer(run, reply, expected.status, before);
  if (expected.status < 400) run.parties = expected.parties;
}

/**
 * Erasing a party (docs/design.md section 15): 200 with a receipt, the party then gone from
 * the distribution (compareStored), its reads and a second erasure 410 Erased.
 */
async function eraseParty(run: Run, request: Request & { op: 'erase' }): Promise<void> {
  const target = run.parties[request.party];
  if (target === undefined) return;
  const path = `/distributions/${run.tenant.distributionId}/parties/${target.id}`;
  const reply = await callApi(run.server, run.tenant, 'DELETE', path);
  run.log.push(`erase party ${request.party} -> ${reply.status}`);
  count(`erase ${reply.status}`);
  expect(reply.status, `erasure answered ${JSON.stringify(reply.body)}\n${run.log.join('\n')}`).toBe(200);
  expect(reply.body).toMatchObject({ party_id: target.id, lead_ids: [target.leadId] });
  ({ parties: run.parties, erased: run.erased } = erase(run.parties, target, run.erased));
  for (const [method, gone] of [
    ['GET', path],
    ['DELETE', path],
    ['GET', `/distributions/${run.tenant.distributionId}/leads/${target.leadId}`],
  ] as const) {
    const again = await callApi(run.server, run.tenant, method, gone);
    expect(again.status, `${method} ${gone} after the erasure\n${run.log.join('\n')}`).toBe(410);
  }
  // The parties merged into it are erased with it (docs/design.md section 15): their ids
  // answer 410, and no row names them but the record of the merge and the audit log, which
  // hold ids only (party-rows.repository.ts, NOT_PERSONAL).
  const merged = run.merges.filter((m) => m.intoPartyId === target.id);
  for (const { partyId, leadId } of merged)
    for (const gone of [`parties/${partyId}`, `leads/${leadId}`]) {
      const again = await callApi(run.server, run.tenant, 'GET', `/distributions/${run.tenant.distributionId}/${gone}`);
      expect(again.status, `GET ${gone}, merged into a party erased since\n${run.log.join('\n')}`).toBe(410);
    }
  if (merged.length > 0)
    expect(
      await tablesNaming(
        run,
        merged.flatMap((m) => [m.partyId, m.leadId]),
      ),
      `the tables naming a party merged into one erased since\n${run.log.join('\n')}`,
    ).toEqual([]);
}

/** The tables, but those that hold ids only (NOT_PERSONAL), with a row naming one of `ids`: one pass over each. */
async function tablesNaming(run: Run, ids: readonly string[]): Promise<string[]> {
  const { handle } = run.server.database;
  const found: string[] = [];
  for (const table of await liveTables(handle)) {
    if (table in NOT_PERSONAL) continue;
    const { rows } = await sql`select * from ${sql.table(table)}`.execute(handle.db);
    if (rows.some((row) => ids.some((id) => JSON.stringify(row).includes(id)))) found.push(table);
  }
  return found;
}

/**
 * Merging two parties (docs/design.md section 15), answered as the model answers it; a merge
 * made is the survivor as GET reads it, the merged party and lead answer 410 Merged naming
 * the survivor, the survivor's push log holds both parties' pushes and its history the merge.
 */
async function mergeStep(run: Run, request: Request & { op: 'merge' }): Promise<void> {
  const into = resolve(run, request.into) as string;
  const next = /^\{next(\d+)\}$/.exec(request.from);
  const at = run.parties.findIndex((party) => party.id === into);
  const from = next
    ? (run.parties[(Math.max(at, 0) + Number(next[1]) + 1) % Math.max(run.parties.length, 1)]?.id ??
      symbolId(run, '{nobody}'))
    : (resolve(run, request.from) as string);
  const expected = mergeParties(run.parties, into, from, run.erased, run.merges, (tick) => run.stamps.get(tick) ?? '');
  const before = expected.status >= 400 ? await countRows(run.server) : undefined;
  const { merged, party: survivor } = expected;
  const pushes = merged === undefined ? 0 : (await pushLog(run, survivor!)) + (await pushLog(run, merged));
  const d = `/distributions/${run.tenant.distributionId}`;
  const reply = await callApi(run.server, run.tenant, 'POST', `${d}/parties/${into}/merge`, { body: { from } });
  run.log.push(`merge ${request.from} (${from}) into ${request.into} (${into}) -> ${reply.status}`);
  count(`merge ${reply.status}${reasonOf(reply)}`);
  await checkAnswer(run, reply, expected.status, before);
  if (expected.status >= 400) return;
  run.parties = expected.parties;
  run.merges = expected.merges;
  const trail = `\n${run.log.join('\n')}`;
  const read = await callApi(run.server, run.tenant, 'GET', `${d}/parties/${into}`);
  expect(reply.body, `the merge answers the survivor as GET reads it${trail}`).toEqual(read.body);
  if (merged === undefined) return;
  const mergedInto = { party_id: survivor!.id, lead_id: survivor!.leadId };
  for (const gone of [`parties/${merged.id}`, `leads/${merged.leadId}`]) {
    const again = await callApi(run.server, run.tenant, 'GET', `${d}/${gone}`);
    expect([again.status, again.body.detail?.type, again.body.detail?.merged_into], `GET ${gone}${trail}`).toEqual([
      410,
      'Merged',
      mergedInto,
    ]);
  }
  expect(await pushLog(run, survivor!), `the survivor's push log holds both parties' pushes${trail}`).toBe(pushes);
  const exported = await callApi(run.server, run.tenant, 'GET', `${d}/parties/${into}/export`);
  const history = (exported.body.records.changes as Json[]).map((row) =>
    typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes,
  ) as Array<Array<{ field: string; after?: unknown }>>;
  expect(
    history.flat().filter((change) => change.field === 'merged_party'),
    `the survivor's history shows the merge${trail}`,
  ).toContainEqual({ field: 'merged_party', after: { party_id: merged.id, lead_id: merged.leadId } });
}

/** How many pushes a party's lead has in its push log (docs/api.md, `…/leads/{id}/pushes`). */
async function pushLog(run: Run, party: ModelParty): Promise<number> {
  let total = 0;
  let next: string | null = `/distributions/${run.tenant.distributionId}/leads/${party.leadId}/pushes?limit=100`;
  while (next) {
    const page: ApiReply = await callApi(run.server, run.tenant, 'GET', next);
    expect(page.status).toBe(200);
    total += (page.body.items as unknown[]).length;
    next = page.body.next ? (page.body.next as string).replace(/^.*\/v1\/api/, '') : null;
  }
  return total;
}

function carOf(run: Run, current: ReadonlyArray<{ id: string | undefined; data: Json }>, listing: CarListing): Json {
  if ('add' in listing) return resolve(run, listing.add) as Json;
  const car = current[listing.keep % Math.max(current.length, 1)];
  return car ? { id: car.id, ...car.data, ...listing.set } : { ...listing.set };
}

/**
 * Two pushes at once (docs/design.md rule 10): the answers must be those of one of the two
 * orders the model can apply them in, and what is stored that order's result.
 */
async function concurrentPair(run: Run, a: Request & { op: 'push' }, b: Request & { op: 'push' }): Promise<void> {
  const bodies = [resolve(run, a.body), resolve(run, b.body)] as Json[];
  const kinds = [kindOf(a.kind), kindOf(b.kind)] as const;
  const orders = [
    [0, 1],
    [1, 0],
  ].map((order) => {
    const first = push(run.parties, kinds[order[0]!]!, bodies[order[0]!] as never, run.erased, run.merges);
    const ticks: number[] = [];
    ticks[order[0]!] = lastTick();
    const second = push(first.parties, kinds[order[1]!]!, bodies[order[1]!] as never, run.erased, run.merges);
    ticks[order[1]!] = lastTick();
    const outcomes: Outcome[] = [];
    outcomes[order[0]!] = first;
    outcomes[order[1]!] = { ...second, parties: second.parties };
    return { outcomes, ticks, final: second.parties, creations: [first, second] };
  });
  const before = await countRows(run.server);
  const replies = await Promise.all([
    pushLead(run.server, run.tenant, a.kind, bodies[0]),
    pushLead(run.server, run.tenant, b.kind, bodies[1]),
  ]);
  run.log.push(
    `concurrently: push ${a.kind} ${JSON.stringify(bodies[0])} -> ${replies[0]!.status}; push ${b.kind} ${JSON.stringify(bodies[1])} -> ${replies[1]!.status}`,
  );
  for (const reply of replies) expect(reply.status, `no 5xx\n${run.log.join('\n')}`).toBeLessThan(500);
  count(`pair ${replies.map((reply) => reply.status).join('+')}`);
  const possible = orders.filter(({ outcomes }) => outcomes.every((o, i) => o.status === replies[i]!.status));
  expect(
    possible.length,
    `statuses ${replies.map((r) => r.status)} are those of neither order: ${orders.map((o) => o.outcomes.map((x) => x.status))}\n${run.log.join('\n')}`,
  ).toBeGreaterThan(0);
  if (replies.every((reply) => reply.status >= 400)) {
    expect(await countRows(run.server)).toEqual(before);
    return;
  }
  const known = run.parties.length;
  const stored = await readAll(run, possible[0]!.final);
  const candidates = possible.map((order) => {
    const parties = structuredClone(order.final);
    learnCreated(parties, known, replies, order.outcomes);
    learnIds(parties, stored(parties));
    return parties;
  });
  // The order whose state is stored; else the first, whose difference compareStored reports.
  const chosen = Math.max(
    candidates.findIndex((parties) => parties.every((party, i) => sameShape(party, stored(parties)[i]))),
    0,
  );
  run.parties = candidates[chosen]!;
  replies.forEach((reply, i) => {
    if (reply.status < 400) run.stamps.set(possible[chosen]!.ticks[i]!, reply.body.updated_at);
  });
}

function sameShape(party: ModelParty, lead: Json | undefined): boolean {
  try {
    expect(shapeOfServer(lead)).toEqual(shapeOfModel(party));
    return true;
  } catch {
    return false;
  }
}

/** The 201 answers name the parties the model added at the end, in the order they were made. */
function learnCreated(
  parties: ModelParty[],
  known: number,
  replies: readonly ApiReply[],
  outcomes: readonly Outcome[],
) {
  const created = outcomes
    .map((outcome, i) => ({ outcome, reply: replies[i]! }))
    .filter(({ outcome }) => outcome.status === 201)
    .sort((x, y) => x.outcome.parties.length - y.outcome.parties.length);
  created.forEach(({ reply }, i) => {
    const party = parties[known + i];
    if (party) Object.assign(party, { id: reply.body.party_id, leadId: reply.body.id });
  });
}

async function checkAnswer(run: Run, reply: ApiReply, status: number, before: unknown): Promise<void> {
  const trail = `\n${run.log.join('\n')}\n${JSON.stringify(reply.body)}`;
  expect(reply.status, `no 5xx${trail}`).toBeLessThan(500);
  expect(reply.status, `the model's status${trail}`).toBe(status);
  if (status < 400) return;
  expect(reply.body.detail.errors.length, `a documented error body${trail}`).toBeGreaterThan(0);
  expect(reply.headers.get('x-request-id')).toBeTruthy();
  expect(await countRows(run.server), `a refused request wrote nothing${trail}`).toEqual(before);
}

function accept(run: Run, outcome: Outcome, replies: readonly ApiReply[]): void {
  run.parties = outcome.parties;
  if (outcome.status === 201)
    Object.assign(outcome.party!, { id: replies[0]!.body.party_id, leadId: replies[0]!.body.id });
}

/** Every lead of the distribution read back; a function giving the reads in the model's order. */
async function readAll(run: Run, parties: readonly ModelParty[]) {
  const reads = new Map<string, Json>();
  const erased = new Set<string>();
  const merged: Json[] = [];
  const { distributionId } = run.tenant;
  let next: string | null = `/distributions/${distributionId}/leads?updated_since=2000-01-01T00:00:00Z&limit=100`;
  while (next) {
    const reply: ApiReply = await callApi(run.server, run.tenant, 'GET', next);
    expect(reply.status).toBe(200);
    for (const lead of reply.body.items as Json[]) {
      if (lead.erased === true) erased.add(lead.party_id as string);
      else if (lead.merged_into !== undefined) merged.push(lead);
      else reads.set(lead.party_id as string, lead);
    }
    next = reply.body.next ? (reply.body.next as string).replace(/^.*\/v1\/api/, '') : null;
  }
  expect(reads.size, `one party per model party\n${run.log.join('\n')}`).toBe(parties.length);
  // Each erased party shows in the listing as erased (docs/design.md section 15), once.
  expect([...erased].sort(), `the erased parties\n${run.log.join('\n')}`).toEqual([...run.erased.parties].sort());
  // Each merged lead shows once, naming the party it lives on in now (docs/design.md section 15).
  const byLead = (a: Json, b: Json) => String(a.id).localeCompare(String(b.id));
  expect(
    merged.map(({ id, party_id, merged_into }) => ({ id, party_id, merged_into })).sort(byLead),
    `the merged leads in the change listing\n${run.log.join('\n')}`,
  ).toEqual(
    run.merges
      .map((m) => ({
        id: m.leadId,
        party_id: m.partyId,
        merged_into: { party_id: m.intoPartyId, lead_id: m.intoLeadId },
      }))
      .sort(byLead),
  );
  return (order: readonly ModelParty[]) =>
    order.map((party) => reads.get(party.id ?? '') ?? [...reads.values()].find((lead) => lead.id === party.leadId)!);
}

async function compareStored(run: Run): Promise<void> {
  const stored = await readAll(run, run.parties);
  const reads = stored(run.parties);
  learnIds(run.parties, reads);
  run.parties.forEach((party, i) => {
    expect(reads[i], `party ${i} is stored\n${run.log.join('\n')}`).toBeDefined();
    expect(shapeOfServer(reads[i]!), `party ${i} as the model has it\n${run.log.join('\n')}`).toEqual(
      shapeOfModel(party),
    );
  });
  // Rule 1's index holds each customer's e-mail + birth + address as its data has them: a push
  // with them finds the one party that has them (after a merge too, docs/design.md section 15).
  const keys = await run.server.database.handle.db
    .selectFrom('parties')
    .select(['id', 'data', 'match_key'])
    .where('distribution_id', '=', run.tenant.distributionId)
    .where('type', '=', 'CUSTOMER')
    .execute();
  expect(
    keys.map((row) => ({ id: row.id, match_key: row.match_key })),
    `each customer's match key is its data's\n${run.log.join('\n')}`,
  ).toEqual(keys.map((row) => ({ id: row.id, match_key: customerMatchKey(JSON.parse(row.data)) })));
}

/** The ids the server gave objects sent without one: the object at the same place in its list. */
function learnIds(parties: ModelParty[], reads: readonly (Json | undefined)[]): void {
  parties.forEach((party, i) => {
    const lead = reads[i] as any;
    if (!lead) return;
    const fill = (items: Array<{ id: string | undefined }>, ids: string[]) => {
      if (items.length !== ids.length) return;
      items.forEach((item, j) => {
        item.id ??= ids[j];
      });
    };
    const current = (type: string) => party.objects.filter((o) => !o.removed && o.type === type);
    fill(
      current('CAR'),
      lead.risk_object_revisions.cars.map((c: Json) => c.risk_object_id),
    );
    fill(
      current('RESIDENCE'),
      lead.risk_object_revisions.residences.map((c: Json) => c.risk_object_id),
    );
    fill(
      party.packages.filter((k) => !k.replacedBy),
      lead.policy_packages.map((k: Json) => k.id),
    );
    fill(
      party.policies,
      lead.insurance_policies.map((x: Json) => x.id),
    );
  });
}

function without(record: Json, keys: string[]): Json {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
}
const nonNull = (record: Json) => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null));

/** The parts of a lead the model knows, from a read. */
function shapeOfServer(lead: any): unknown {
  const revisions = (list: Json[]) =>
    list.map((revision) => ({
      id: revision.risk_object_id,
      revision: revision.revision_nr,
      data: without(revision, [
        'self',
        'risk_object_id',
        'risk_object_revision_id',
        'risk_object_type',
        'revision_nr',
        'created_at',
      ]),
    }));
  return {
    kind: lead.prospect.type,
    meta: nonNull({ origin: lead.origin, backref: lead.backref, source: lead.source }),
    fields: without(lead.prospect, ['id', 'type', 'external_refs', 'callbacks']),
    work: { status: lead.status, lost_reason: lead.lost_reason, assignee: lead.assignee },
    refs: lead.prospect.external_refs.map((r: Json) => ({ company: r.company ?? '', ref: r.ref })),
    callbacks: lead.prospect.callbacks,
    cars: revisions(lead.risk_object_revisions.cars),
    residences: revisions(lead.risk_object_revisions.residences),
    packages: lead.policy_packages.map((k: Json) => ({ id: k.id, data: without(k, ['id']) })),
    policies: lead.insurance_policies.map((x: any) => ({
      id: x.id,
      data: without(x, ['id', 'policy_package_id', 'external_refs', 'coverages']),
      package: x.policy_package_id,
      refs: x.external_refs.map((r: Json) => ({ company: r.company ?? '', ref: r.ref })),
      coverages: x.coverages.map((c: Json) => ({
        riskObject: c.risk_object_id ?? null,
        data: without(c, ['id', 'risk_object_id']),
      })),
    })),
  };
}

function shapeOfModel(party: ModelParty): unknown {
  const revisions = (type: string) =>
    party.objects
      .filter((o) => !o.removed && o.type === type)
      .map((o) => ({ id: o.id, revision: o.revision, data: o.data }));
  return {
    kind: party.kind,
    meta: party.meta,
    fields: party.fields,
    work: party.work,
    refs: party.refs.map(({ company, ref }) => ({ company, ref })),
    callbacks: party.callbacks,
    cars: revisions('CAR'),
    residences: revisions('RESIDENCE'),
    packages: party.packages.filter((k) => !k.replacedBy).map((k) => ({ id: k.id, data: k.data })),
    policies: party.policies.map((x) => ({
      id: x.id,
      data: x.data,
      package: x.package?.id ?? null,
      refs: x.refs.map(({ company, ref }) => ({ company, ref })),
      coverages: x.coverages.map((c) => ({ riskObject: c.riskObject?.id ?? null, data: c.data })),
    })),
  };
}

/** The request's symbols replaced by this run's ids; `{newK}` by an id new in every request. */
function resolve(run: Run, value: unknown, fresh = new Map<string, string>()): unknown {
  if (typeof value === 'string') {
    if (value === '{nobody}') return symbolId(run, value);
    const symbol = /^\{(id|ID|party|merged|erased|new|NEW)(\d+)\}$/.exec(value);
    if (!symbol) return value;
    const [, kind, n] = symbol;
    if (kind === 'new' || kind === 'NEW') {
      if (!fresh.has(n!)) fresh.set(n!, randomUUID());
      return kind === 'NEW' ? fresh.get(n!)!.toUpperCase() : fresh.get(n!);
    }
    // A party made earlier in the run, counted round; before the first one, nobody.
    if (kind === 'party')
      return run.parties[Number(n) % Math.max(run.parties.length, 1)]?.id ?? symbolId(run, '{nobody}');
    // A party merged into another, or erased, earlier in the run; before the first one, nobody.
    if (kind === 'merged')
      return run.merges[Number(n) % Math.max(run.merges.length, 1)]?.partyId ?? symbolId(run, '{nobody}');
    if (kind === 'erased')
      return run.erased.parties[Number(n) % Math.max(run.erased.parties.length, 1)] ?? symbolId(run, '{nobody}');
    const id = symbolId(run, `{id${n}}`);
    return kind === 'ID' ? id.toUpperCase() : id;
  }
  if (Array.isArray(value)) return value.map((item) => resolve(run, item, fresh));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(run, item, fresh)]));
  return value;
}

function symbolId(run: Run, symbol: string): string {
  if (!run.symbols.has(symbol)) run.symbols.set(symbol, randomUUID());
  return run.symbols.get(symbol)!;
}

const kindOf = (kind: 'customers' | 'companies'): Kind => (kind === 'customers' ? 'CUSTOMER' : 'COMPANY');
