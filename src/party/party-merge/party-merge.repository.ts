// The rows a merge moves from the merged party to the survivor (docs/api.md, "Merging two
// parties"), each table in one set-based statement whatever the number of rows it moves: so
// a merge runs the same statements for one car as for a hundred.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { dialectOf } from '../../db/statements.ts';
import type { SameRow } from './party-merge.ts';
import { keepCreatedSourceOf } from '../stats/source-counts.repository.ts';

type Db = Kysely<Database>;

export interface MergeMove {
  readonly distributionId: string;
  readonly from: { readonly partyId: string; readonly leadId: string };
  readonly into: { readonly partyId: string; readonly leadId: string };
  readonly now: string;
  /** Where the merged party's risk objects, packages and policies go in the survivor's order: after its own. */
  readonly offsets: { readonly riskObjects: number; readonly packages: number; readonly policies: number };
  /**
   * The merged party's cars whose VIN, and residences whose address, the survivor's already
   * has, each with the survivor's: the survivor keeps one of each; the other is kept as
   * removed, with its revisions, and the coverages that pointed at it point at the survivor's.
   */
  readonly sameObjects: readonly SameRow[];
  /**
   * The merged party's policies with the insurance company and number of one of the
   * survivor's, each with that policy: their refs move to it and they go, with their coverages
   * (the survivor's policy is rewritten with theirs joined, by the changeset).
   */
  readonly joinedPolicies: readonly SameRow[];
  /**
   * The merged party's packages with the insurance company and package number of one of the
   * survivor's, each with that package: they are kept as replaced by it (`replaced_by`, their
   * ids keep working) and the merged party's policies in them move to it (the survivor's
   * package is rewritten with their values joined, by the changeset).
   */
  readonly joinedPackages: readonly SameRow[];
}

export async function moveMergedRows(db: Db, move: MergeMove): Promise<void> {
  const { distributionId: d, from, into, now, offsets } = move;
  // The survivor may take the merged party's e-mail + birth + address key (rule 4's index).
  await db.updateTable('parties').set({ match_key: null }).where('id', '=', from.partyId).execute();
  await db
    .updateTable('external_refs')
    .set({ entity_id: into.partyId })
    .where('distribution_id', '=', d)
    .where('entity_type', '=', 'party')
    .where('entity_id', '=', from.partyId)
    .execute();
  await db
    .insertInto('party_callbacks')
    .columns(['party_id', 'url', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('party_callbacks as f')
        .select([sql.lit(into.partyId).as('party_id'), 'f.url', 'f.created_at'])
        .where('f.party_id', '=', from.partyId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('party_callbacks as s')
                .select('s.url')
                .where('s.party_id', '=', into.partyId)
                .whereRef('s.url', '=', 'f.url'),
            ),
          ),
        ),
    )
    .execute();
  await db.deleteFrom('party_callbacks').where('party_id', '=', from.partyId).execute();
  if (move.sameObjects.length > 0) {
    await repoint(db, 'coverages', move.sameObjects, from.partyId);
    // Objects given up before for one given up now stand for the survivor's too (chains of
    // merges): given up by a party merged into this one, they were moved to it then.
    await repoint(db, 'replaced_by', move.sameObjects, from.partyId);
    await giveUp(db, move.sameObjects, now);
  }
  if (move.joinedPolicies.length > 0) {
    const gone = move.joinedPolicies.map((policy) => policy.from);
    await repoint(db, 'policy_refs', move.joinedPolicies, from.partyId);
    await db.deleteFrom('coverages').where('insurance_policy_id', 'in', gone).execute();
    await db.deleteFrom('insurance_policies').where('id', 'in', gone).execute();
  }
  if (move.joinedPackages.length > 0) {
    await repoint(db, 'policy_package_id', move.joinedPackages, from.partyId);
    // Packages joined before into one joined now stand for the survivor's too (chains of merges).
    await repoint(db, 'package_replaced_by', move.joinedPackages, from.partyId);
    await replacePackages(db, move.joinedPackages, now);
  }
  for (const table of ['risk_objects', 'policy_packages', 'insurance_policies'] as const) {
    const offset =
      offsets[table === 'risk_objects' ? 'riskObjects' : table === 'policy_packages' ? 'packages' : 'policies'];
    await db
      .updateTable(table)
      .set({ party_id: into.partyId, position: sql<number>`position + ${offset}` })
      .where('party_id', '=', from.partyId)
      .execute();
  }
  // The survivor's source is pinned before pushes that answered 201 join its push log.
  await keepCreatedSourceOf(db, into.leadId);
  await db.updateTable('lead_pushes').set({ lead_id: into.leadId }).where('lead_id', '=', from.leadId).execute();
  for (const table of ['lead_notes', 'lead_changes', 'webhook_events'] as const)
    await db
      .updateTable(table)
      .set({ lead_id: into.leadId, party_id: into.partyId })
      .where('lead_id', '=', from.leadId)
      .execute();
  // Stored Idempotency-Key answers that show the merged party now show the survivor's person:
  // erasing the survivor removes them too. An answer names its one person in its own row, a
  // batch's its several in link rows.
  await db
    .updateTable('idempotency_answers')
    .set({ party_id: into.partyId })
    .where('party_id', '=', from.partyId)
    .execute();
  await db
    .updateTable('idempotency_answer_parties')
    .set({ party_id: into.partyId })
    .where('party_id', '=', from.partyId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('idempotency_answer_parties as s')
            .select('s.lookup')
            .where('s.party_id', '=', into.partyId)
            .whereRef('s.lookup', '=', 'idempotency_answer_parties.lookup'),
        ),
      ),
    )
    .execute();
  await db.deleteFrom('idempotency_answer_parties').where('party_id', '=', from.partyId).execute();
  await db.deleteFrom('party_duplicate_keys').where('party_id', '=', from.partyId).execute();
  await db.deleteFrom('leads').where('id', '=', from.leadId).execute();
  await db.deleteFrom('parties').where('id', '=', from.partyId).execute();
}

type Repointed = 'coverages' | 'replaced_by' | 'policy_refs' | 'policy_package_id' | 'package_replaced_by';
/**
 * Each re-pointing's table and column, and the rows it reads: `policies` the refs of policies;
 * `merged` the merged party's own (party_id), since the rows an earlier merge into it moved
 * are its own, read by the party's index rather than the whole table; `any` either party's.
 */
const REPOINTED: Record<Repointed, readonly [table: string, column: string, rows: 'any' | 'policies' | 'merged']> = {
  coverages: ['coverages', 'risk_object_id', 'any'],
  replaced_by: ['risk_objects', 'replaced_by', 'merged'],
  policy_refs: ['external_refs', 'entity_id', 'policies'],
  policy_package_id: ['insurance_policies', 'policy_package_id', 'merged'],
  package_replaced_by: ['policy_packages', 'replaced_by', 'merged'],
};

/**
 * One statement, however many rows: coverages of either party that pointed at a risk object
 * the survivor gives up point at its own one ('coverages'); risk objects given up before for
 * one given up now name the survivor's ('replaced_by'); the refs of a policy that joins one of
 * the survivor's are that policy's ('policy_refs'); the merged party's policies in a package
 * that joins one of the survivor's are in that package ('policy_package_id'), and its packages
 * joined before into one joined now name the survivor's ('package_replaced_by').
 */
async function repoint(db: Db, what: Repointed, rows: readonly SameRow[], mergedPartyId: string): Promise<void> {
  const pairs = JSON.stringify(rows.map((row) => [row.from, row.into]));
  const [name, column, read] = REPOINTED[what];
  const table = sql.table(name);
  const only =
    read === 'policies'
      ? sql`entity_type = 'policy' and`
      : read === 'merged'
        ? sql`party_id = ${mergedPartyId} and`
        : sql``;
  const ref = sql.ref(column);
  if (dialectOf(db) === 'postgres') {
    await sql`update ${table} set ${ref} = m.into_id
      from (select value->>0 as from_id, value->>1 as into_id from json_array_elements(${pairs}::json)) as m
      where ${only} ${table}.${ref} = m.from_id`.execute(db);
    return;
  }
  await sql`update ${table} set ${ref} = (
      select json_extract(value, '$[1]') from json_each(${pairs}) where json_extract(value, '$[0]') = ${table}.${ref})
    where ${only} ${ref} in (select json_extract(value, '$[0]') from json_each(${pairs}))`.execute(db);
}

/**
 * The merged party's risk objects that the survivor's stand for: kept with their revisions as
 * removed, each naming the survivor's object (`replaced_by`), in one statement.
 */
async function giveUp(db: Db, rows: readonly SameRow[], now: string): Promise<void> {
  const pairs = JSON.stringify(rows.map((row) => [row.from, row.into]));
  if (dialectOf(db) === 'postgres') {
    await sql`update risk_objects set removed_at = ${now}, updated_at = ${now}, replaced_by = m.into_id
      from (select value->>0 as from_id, value->>1 as into_id from json_array_elements(${pairs}::json)) as m
      where risk_objects.id = m.from_id`.execute(db);
    return;
  }
  await sql`update risk_objects set removed_at = ${now}, updated_at = ${now}, replaced_by = (
      select json_extract(value, '$[1]') from json_each(${pairs}) where json_extract(value, '$[0]') = risk_objects.id)
    where id in (select json_extract(value, '$[0]') from json_each(${pairs}))`.execute(db);
}

/**
 * The merged party's packages joined into the survivor's: kept, each naming the survivor's
 * package that stands for it (`replaced_by`), in one statement. The lead no longer shows them.
 */
async function replacePackages(db: Db, rows: readonly SameRow[], now: string): Promise<void> {
  const pairs = JSON.stringify(rows.map((row) => [row.from, row.into]));
  if (dialectOf(db) === 'postgres') {
    await sql`update policy_packages set updated_at = ${now}, replaced_by = m.into_id
      from (select value->>0 as from_id, value->>1 as into_id from json_array_elements(${pairs}::json)) as m
      where policy_packages.id = m.from_id`.execute(db);
    return;
  }
  await sql`update policy_packages set updated_at = ${now}, replaced_by = (
      select json_extract(value, '$[1]') from json_each(${pairs}) where json_extract(value, '$[0]') = policy_packages.id)
    where id in (select json_extract(value, '$[0]') from json_each(${pairs}))`.execute(db);
}
