// What the database knows about a push's keys, in one statement (docs/design.md section 2,
// rules 1 and 10): the party its `prospect.id` names, the owners of its refs, of its match
// key, of its client-chosen ids and of its policies' refs, and the write's clock. Matching
// (matching.ts) and the reference checks (push-references.ts) decide on it. Every function
// takes the transaction (or the database) as its first argument (kysely example app).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { dialectOf, prepared, runText } from '../../db/statements.ts';
import { WRITER_CLOCK_SQL } from '../store/change-clock.repository.ts';
import { tryLockKeySql } from '../../idempotency/idempotency.repository.ts';
import type { IdempotencyAnswerTable } from '../../idempotency/idempotency.table.ts';
import type { TokenState } from '../../auth/token-check-in-write.ts';
import type { ExternalRef } from '../model/party.aggregate.ts';
import type { PartyType } from '../model/party.table.ts';
import type { LeadPush } from './push.ts';

type Db = Kysely<Database>;

/** What the stored data says about the keys of a push, before any party is chosen. */
export interface PushCandidates {
  /** The write's `updated_at`, read (PostgreSQL) with the lookups once the writer's mark is held (change-clock.repository.ts). */
  readonly now: string;
  /** The party `prospect.id` names in this distribution (its stored id and kind); undefined: none. */
  readonly party: { readonly id: string; readonly kind: PartyType } | undefined;
  /** The parties (with their kind) owning the prospect's external refs. */
  readonly refOwners: readonly { readonly ref: ExternalRef; readonly partyId: string; readonly kind: PartyType }[];
  /** The party holding the pushed customer's email + birth + address. */
  readonly matchKeyOwner: { readonly partyId: string; readonly kind: PartyType } | undefined;
  /**
   * Client-chosen risk object ids already stored: id -> owning party (and whether a party
   * update or a merge removed it; for a merge, the survivor's object that stands for it).
   */
  readonly riskObjectOwners: ReadonlyMap<
    string,
    { readonly partyId: string; readonly removed: boolean; readonly replacedBy?: string }
  >;
  /** Client-chosen package ids already stored: id -> owning party. */
  readonly packageOwners: ReadonlyMap<string, string>;
  /**
   * Of those, the ids of packages a merge joined into the survivor's package with the same
   * insurance company and number: id -> the survivor's package, which stands for it.
   */
  readonly packageReplacements: ReadonlyMap<string, string>;
  /** The stored policies owning the pushed policies' external refs. */
  readonly policyRefOwners: readonly { readonly ref: ExternalRef; readonly policyId: string }[];
  /** PostgreSQL: the one party the party lookups found, locked `FOR UPDATE` by the lookup itself. */
  readonly lockedPartyId: string | undefined;
  /** Whether `prospect.id` names a party erased from this distribution (its tombstone). */
  readonly erasedParty: boolean;
  /** Which of the hashes asked about are of refs erased from this distribution (docs/design.md section 15). */
  readonly erasedRefHashes: ReadonlySet<string>;
  /** Asked with a key: whether its lock was free (always on SQLite), and its row (none, or not read when not free). */
  readonly key?: { readonly free: boolean; readonly row: IdempotencyAnswerTable | undefined };
  /** Asked with an API token's id: its revocation and expiry, undefined when it is gone (auth/token-check-in-write.ts). */
  readonly token?: TokenState;
}

const NONE: readonly never[] = [];

interface CandidateRow {
  part:
    | 'clock'
    | 'party'
    | 'ref'
    | 'match'
    | 'locked'
    | 'risk_object'
    | 'package'
    | 'policy_ref'
    | 'erased_party'
    | 'erased_ref'
    | 'key'
    | 'token';
  id: string;
  detail: string | null;
  company: string | null;
  ref: string | null;
}

// On SQLite the lookup is written for the lists the push has (sqliteCandidates below).
// On PostgreSQL it is one prepared text for every push, and one for a push with an
// Idempotency-Key: that one takes the key's lock first (without waiting) and reads its row
// ($12 is its lookup), so a keyed push costs no round trip of its own for it
// (idempotent-write.ts, keyInLookup); the party is not locked when another request holds the
// key, as that push is refused (409) and should not wait for the party first.
const pushCandidatesSql = (keyed: boolean): string =>
  // The write's clock comes first (change-clock.repository.ts). Then parameterised index lookups
  // whatever the plan: lists drive the lookups (a subquery kept apart by OFFSET 0 is run
  // once per element), so a generic plan, chosen when the tables were small, never turns
  // into a scan of a distribution's refs.
  // When the party lookups (prospect.id, refs, match key) find one party, it is locked here,
  // as the merge would lock it next (lead-load.repository.ts): one round trip fewer per merge.
  // The lock is taken after the writer's mark (it joins the clock), as before; a party found
  // twice or more is a conflict, or a choice the push makes, and is locked by its own statement.
  `
    with ${keyed ? `key_lock as materialized (select ${tryLockKeySql('$12')} as free),` : ''}
    ${WRITER_CLOCK_SQL},
    parties_found as (
      select 'party' as part, p.id, p.type as detail, null as company, null as ref from parties p where p.id = $2 and p.distribution_id = $1
      union all
      select 'ref', r.entity_id, r.type, r.company, r.ref from unnest($3::text[], $4::text[]) as k(company, ref),
        lateral (select r.entity_id, p.type, r.company, r.ref from external_refs r join parties p on p.id = r.entity_id
          where r.distribution_id = $1 and r.entity_type = 'party' and r.company = k.company and r.ref = k.ref offset 0) as r
      union all
      select 'match', p.id, p.type, null, null from parties p where p.distribution_id = $1 and p.match_key = $5),
    locked as (
      select p.id from parties p cross join clock
      where p.id = (select min(f.id) from parties_found f having count(distinct f.id) = 1)${keyed ? ' and (select free from key_lock)' : ''}
      for update of p)
    ${keyed ? KEY_BRANCH : ''}select 'clock' as part, now as id, null as detail, null as company, null as ref from clock
    union all
    select part, id, detail, company, ref from parties_found
    union all
    select 'locked', id, null, null, null from locked
    union all
    select 'risk_object', o.id, o.party_id, o.removed_at, o.replaced_by from risk_objects o where o.id = any($6::text[])
    union all
    select 'package', k.id, k.party_id, null, k.replaced_by from policy_packages k where k.id = any($7::text[])
    union all
    select 'policy_ref', r.entity_id, null, r.company, r.ref from unnest($8::text[], $9::text[]) as k(company, ref),
      lateral (select r.entity_id, r.company, r.ref from external_refs r
        where r.distribution_id = $1 and r.entity_type = 'policy' and r.company = k.company and r.ref = k.ref offset 0) as r
    union all
    select 'erased_party', e.party_id, null, null, null from erased_parties e where e.party_id = $2 and e.distribution_id = $1
    union all
    select 'erased_ref', e.ref_hash, null, null, null from erased_refs e where e.distribution_id = $1 and e.ref_hash = any($10::text[])
    union all
    select 'token', t.id, t.revoked_at, t.expires_at, null from api_tokens t where t.id = $11`;

/** The key's part: whether its lock was free, and its row as JSON (none: no row, or not free). */
const KEY_BRANCH = `select 'key' as part, k.free::text as id, row_to_json(a)::text as detail, null as company, null as ref
      from key_lock k left join idempotency_answers a on k.free and a.lookup = $12
    union all
    `;

export const PUSH_CANDIDATES = prepared('push_candidates', pushCandidatesSql(false));
export const PUSH_CANDIDATES_KEYED = prepared('push_candidates_keyed', pushCandidatesSql(true));

type Lookup = { readonly keys: number; readonly one: string; readonly many: string };

/**
 * The SQLite lookups, each run only when the push has keys for it: an empty list would
 * still cost a JSON parse and a temporary table, and a single key is a plain equality.
 * `?1` is the distribution; each lookup numbers its own parameters after it.
 */
const SQLITE_LOOKUPS = {
  party: {
    keys: 1,
    one: `select 'party' as part, p.id, p.type as detail, null as company, null as ref from parties p where p.distribution_id = ?1 and p.id = ?{0}`,
    many: '',
  },
  ref: {
    keys: 2,
    one: `select 'ref' as part, r.entity_id as id, p.type as detail, r.company, r.ref from external_refs r join parties p on p.id = r.entity_id
      where r.distribution_id = ?1 and r.entity_type = 'party' and r.company = ?{0} and r.ref = ?{1}`,
    many: `select 'ref' as part, r.entity_id as id, p.type as detail, r.company, r.ref from external_refs r join parties p on p.id = r.entity_id
      where r.distribution_id = ?1 and r.entity_type = 'party'
        and (r.company, r.ref) in (select c.value, f.value from json_each(?{0}) c join json_each(?{1}) f on f.key = c.key)`,
  },
  match: {
    keys: 1,
    one: `select 'match' as part, p.id, p.type as detail, null as company, null as ref from parties p where p.distribution_id = ?1 and p.match_key = ?{0}`,
    many: '',
  },
  riskObject: {
    keys: 1,
    one: `select 'risk_object' as part, o.id, o.party_id as detail, o.removed_at as company, o.replaced_by as ref from risk_objects o where o.id = ?{0}`,
    many: `select 'risk_object' as part, o.id, o.party_id as detail, o.removed_at as company, o.replaced_by as ref from risk_objects o where o.id in (select value from json_each(?{0}))`,
  },
  package: {
    keys: 1,
    one: `select 'package' as part, k.id, k.party_id as detail, null as company, k.replaced_by as ref from policy_packages k where k.id = ?{0}`,
    many: `select 'package' as part, k.id, k.party_id as detail, null as company, k.replaced_by as ref from policy_packages k where k.id in (select value from json_each(?{0}))`,
  },
  policyRef: {
    keys: 2,
    one: `select 'policy_ref' as part, r.entity_id as id, null as detail, r.company, r.ref from external_refs r
      where r.distribution_id = ?1 and r.entity_type = 'policy' and r.company = ?{0} and r.ref = ?{1}`,
    many: `select 'policy_ref' as part, r.entity_id as id, null as detail, r.company, r.ref from external_refs r
      where r.distribution_id = ?1 and r.entity_type = 'policy'
        and (r.company, r.ref) in (select c.value, f.value from json_each(?{0}) c join json_each(?{1}) f on f.key = c.key)`,
  },
  // The tombstones (docs/design.md section 15), asked in the same statement.
  erasedParty: {
    keys: 1,
    one: `select 'erased_party' as part, e.party_id as id, null as detail, null as company, null as ref from erased_parties e where e.party_id = ?{0} and e.distribution_id = ?1`,
    many: '',
  },
  // An Idempotency-Key's row, read by the write that keeps its answer (idempotent-write.ts,
  // keyInLookup) in this statement rather than one of its own; SQLite's one writer needs no lock.
  key: {
    keys: 1,
    one: `select 'key' as part, a.lookup as id, json_object('lookup', a.lookup, 'distribution_id', a.distribution_id,
        'party_id', a.party_id, 'fingerprint', a.fingerprint, 'state', a.state, 'status', a.status, 'headers', a.headers,
        'body', a.body, 'created_at', a.created_at, 'expires_at', a.expires_at) as detail, null as company, null as ref
      from idempotency_answers a where a.lookup = ?{0}`,
    many: '',
  },
  // The API token let through unread, as the write's own check (auth/token-check-in-write.ts).
  token: {
    keys: 1,
    one: `select 'token' as part, t.id, t.revoked_at as detail, t.expires_at as company, null as ref from api_tokens t where t.id = ?{0}`,
    many: '',
  },
  erasedRef: {
    keys: 1,
    one: `select 'erased_ref' as part, e.ref_hash as id, null as detail, null as company, null as ref from erased_refs e where e.distribution_id = ?1 and e.ref_hash = ?{0}`,
    many: `select 'erased_ref' as part, e.ref_hash as id, null as detail, null as company, null as ref from erased_refs e where e.distribution_id = ?1 and e.ref_hash in (select value from json_each(?{0}))`,
  },
} satisfies Record<string, Lookup>;

/** A lookup's values: one value per key for a single item, or per key the JSON list of all. */
type LookupValues = { readonly count: number; readonly values: readonly (readonly string[])[] };

const sqliteTexts = new Map<string, string>();

/** The SQLite lookup statements built so far, one per shape of push (their plans are tested). */
export const sqliteLookupTexts = (): string[] => [...sqliteTexts.values()];

/** The statement for the lookups a push needs, and its parameters; undefined: nothing to look up. */
function sqliteCandidates(
  distributionId: string,
  lookups: ReadonlyArray<readonly [Lookup, LookupValues]>,
): { text: string; parameters: unknown[] } | undefined {
  const used = lookups.filter(([, { count }]) => count > 0);
  if (used.length === 0) return undefined;
  const parameters: unknown[] = [distributionId];
  for (const [lookup, { count, values }] of used) {
    for (let key = 0; key < lookup.keys; key++) {
      const column = values.map((value) => value[key]!);
      parameters.push(count === 1 ? column[0] : JSON.stringify(column));
    }
  }
  // The text depends only on which lookups run and whether each has one key or several.
  const shape = lookups.map(([, { count }]) => Math.min(count, 2)).join('');
  let text = sqliteTexts.get(shape);
  if (text === undefined) {
    let next = 2;
    text = used
      .map(([lookup, { count }]) => {
        const first = next;
        next += lookup.keys;
        const branch = count === 1 || lookup.many === '' ? lookup.one : lookup.many;
        return branch.replace(/\?\{(\d)\}/g, (_, i: string) => `?${first + Number(i)}`);
      })
      .join('\nunion all\n');
    sqliteTexts.set(shape, text);
  }
  return { text, parameters };
}

/**
 * Everything matching and the reference checks need to know, in one statement: one
 * snapshot of the database. Rule 10 rests on that: a concurrent push that has not
 * committed yet is not seen at all, so this one goes on as if alone, and if both then
 * write the same new key, the unique index stops the later one, which runs again
 * (db/write.ts) and finds the first one's party. (Lookups in several statements could
 * see the other push half: no party yet, but its car already, a 409 no serial run gives.)
 */
export async function findPushCandidates(
  db: Db,
  distributionId: string,
  push: LeadPush,
  /** The prospect's refs hashed as erasure keeps them (erased-push.ts), asked of the tombstones. */
  refHashes: readonly string[],
  /** An Idempotency-Key's lookup, whose row the statement reads (on PostgreSQL first, with its lock). */
  keyLookup?: string,
  /** An API token to read the row of, for the write's check of it (auth/token-check-in-write.ts). */
  tokenId?: string,
): Promise<PushCandidates> {
  const partyRefs = push.refs.map((ref) => ref.value);
  const policyRefs = push.policies.flatMap((policy) => policy.refs.map((ref) => ref.value));
  const ids = (list: ReadonlyArray<{ clientId: string | undefined }>) =>
    list.flatMap((item) => (item.clientId === undefined ? [] : [item.clientId]));
  // A policy may name a stored package the push does not carry: looked up too, so a package
  // id a merge joined into another is followed (replaced-ids.ts).
  const packageIds = new Set(ids(push.packages));
  for (const policy of push.policies) if (typeof policy.packageId === 'string') packageIds.add(policy.packageId);
  // So may a coverage name a stored car or home the push does not carry: a merge may have
  // given it up for the survivor's (replaced-ids.ts).
  const riskObjectIds = new Set(ids(push.riskObjects));
  for (const policy of push.policies)
    for (const coverage of policy.coverages ?? [])
      if (coverage.riskObjectId !== null) riskObjectIds.add(coverage.riskObjectId);
  const rows = await lookUp(db, distributionId, push, {
    partyRefs,
    policyRefs,
    riskObjectIds: [...riskObjectIds],
    packageIds: [...packageIds],
    hashes: refHashes,
    keyLookup,
    tokenId,
  });
  // One pass over the rows, not a filter per part: this runs on every push.
  const byPart = new Map<CandidateRow['part'], CandidateRow[]>();
  for (const row of rows) {
    const same = byPart.get(row.part);
    if (same === undefined) byPart.set(row.part, [row]);
    else same.push(row);
  }
  const of = (part: CandidateRow['part']): readonly CandidateRow[] => byPart.get(part) ?? NONE;
  const [party] = of('party');
  const [match] = of('match');
  return {
    now: of('clock')[0]?.id ?? new Date().toISOString(),
    party: party ? { id: party.id, kind: party.detail as PartyType } : undefined,
    refOwners: of('ref').map((row) => ({
      ref: { company: row.company!, ref: row.ref! },
      partyId: row.id,
      kind: row.detail as PartyType,
    })),
    matchKeyOwner: match ? { partyId: match.id, kind: match.detail as PartyType } : undefined,
    riskObjectOwners: new Map(
      of('risk_object').map((row) => [
        row.id,
        { partyId: row.detail!, removed: row.company !== null, ...(row.ref !== null && { replacedBy: row.ref }) },
      ]),
    ),
    packageOwners: new Map(of('package').map((row) => [row.id, row.detail!])),
    packageReplacements: new Map(of('package').flatMap((row) => (row.ref === null ? [] : [[row.id, row.ref]]))),
    policyRefOwners: of('policy_ref').map((row) => ({
      ref: { company: row.company!, ref: row.ref! },
      policyId: row.id,
    })),
    lockedPartyId: of('locked')[0]?.id,
    erasedParty: of('erased_party').length > 0,
    erasedRefHashes: new Set(of('erased_ref').map((row) => row.id)),
    ...(keyLookup !== undefined && { key: keyOf(of('key')[0], dialectOf(db)) }),
    ...(tokenId !== undefined && { token: tokenOf(of('token')[0]) }),
  };
}

interface LookupKeys {
  readonly partyRefs: readonly ExternalRef[];
  readonly policyRefs: readonly ExternalRef[];
  readonly riskObjectIds: readonly string[];
  readonly packageIds: readonly string[];
  /** The prospect's refs, hashed as erasure keeps them. */
  readonly hashes: readonly string[];
  readonly keyLookup: string | undefined;
  readonly tokenId: string | undefined;
}

/** The token's row of the lookup: none when the token is gone. */
function tokenOf(row: CandidateRow | undefined): TokenState | undefined {
  return row === undefined ? undefined : { revoked_at: row.detail, expires_at: row.company };
}

/**
 * The key's row of the keyed lookup: its lock, and its row as PostgreSQL's row_to_json (or
 * SQLite's json_object) wrote it. On SQLite no row is a free key: its one writer holds it.
 */
function keyOf(row: CandidateRow | undefined, dialect: 'sqlite' | 'postgres'): NonNullable<PushCandidates['key']> {
  if (row === undefined && dialect === 'sqlite') return { free: true, row: undefined };
  if (row === undefined) throw new Error('the keyed push lookup returned no key row');
  if (dialect === 'sqlite') return { free: true, row: JSON.parse(row.detail!) as IdempotencyAnswerTable };
  return {
    free: row.id === 'true',
    row: row.detail === null ? undefined : (JSON.parse(row.detail) as IdempotencyAnswerTable),
  };
}

async function lookUp(db: Db, distributionId: string, push: LeadPush, keys: LookupKeys): Promise<CandidateRow[]> {
  const { partyRefs, policyRefs, riskObjectIds, packageIds, hashes, keyLookup, tokenId } = keys;
  if (dialectOf(db) === 'postgres') {
    return runText<CandidateRow>(db, keyLookup === undefined ? PUSH_CANDIDATES : PUSH_CANDIDATES_KEYED, [
      distributionId,
      push.partyId ?? null,
      partyRefs.map((ref) => ref.company),
      partyRefs.map((ref) => ref.ref),
      push.matchKey,
      riskObjectIds,
      packageIds,
      policyRefs.map((ref) => ref.company),
      policyRefs.map((ref) => ref.ref),
      hashes,
      tokenId ?? null,
      ...(keyLookup === undefined ? [] : [keyLookup]),
    ]);
  }
  const single = (value: string | null | undefined): LookupValues =>
    value == null ? { count: 0, values: [] } : { count: 1, values: [[value]] };
  const list = (values: readonly string[]): LookupValues => ({ count: values.length, values: values.map((v) => [v]) });
  const refs = (values: readonly ExternalRef[]): LookupValues => ({
    count: values.length,
    values: values.map((ref) => [ref.company, ref.ref]),
  });
  const statement = sqliteCandidates(distributionId, [
    [SQLITE_LOOKUPS.party, single(push.partyId)],
    [SQLITE_LOOKUPS.ref, refs(partyRefs)],
    [SQLITE_LOOKUPS.match, single(push.matchKey)],
    [SQLITE_LOOKUPS.riskObject, list(riskObjectIds)],
    [SQLITE_LOOKUPS.package, list(packageIds)],
    [SQLITE_LOOKUPS.policyRef, refs(policyRefs)],
    [SQLITE_LOOKUPS.erasedParty, single(push.partyId)],
    [SQLITE_LOOKUPS.erasedRef, list(hashes)],
    [SQLITE_LOOKUPS.token, single(tokenId)],
    [SQLITE_LOOKUPS.key, single(keyLookup)],
  ]);
  return statement === undefined ? [] : runText<CandidateRow>(db, statement.text, statement.parameters);
}
