// Every table that holds rows about a person, in one list (docs/design.md section 15):
// erasure deletes through it, in its order, and export reads through it. A table added
// later that holds a party's or a lead's rows is one entry here, and
// test/personal-data-tables.test.ts fails until it is here or named as not personal.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { deleteIdempotentAnswersOfParty } from '../../idempotency/idempotency.repository.ts';
import { eraseOwnOrigins } from '../stats/source-counts.repository.ts';

type Db = Kysely<Database>;

/** Whose rows: the party and its lead (a party has one: leads.party_id is unique). */
export interface RowOwner {
  readonly distributionId: string;
  readonly partyId: string;
  readonly leadId: string;
}

export interface PartyRows {
  readonly table: keyof Database & string;
  /** The key of this table's count in the erasure receipt and of its rows in the export. */
  readonly kind: string;
  /** The person's rows, as a condition on the table's own columns (what export reads). */
  readonly where: (owner: RowOwner) => RawBuilder<unknown>;
  /**
   * False for rows that are erased but not exported: they are copies of what the export
   * already shows from elsewhere, and may show other people too.
   */
  readonly exported?: false;
  /**
   * A feature's own deletion, when `delete ... where` is not enough (rows found through a
   * link table that goes with them): returns the rows of `table` it deleted.
   */
  readonly erase?: (db: Db, owner: RowOwner) => Promise<number>;
  /** Other tables the entry's `erase` empties of the person (a link table), for the schema test. */
  readonly covers?: readonly string[];
}

const ofPolicies = (p: string) => sql`select id from insurance_policies where party_id = ${p}`;
// By lead: webhook_events, lead_changes and lead_notes are indexed by lead_id.
const ofEvents = (leadId: string) => sql`select id from webhook_events where lead_id = ${leadId}`;
const ofLinkedAnswers = ({ distributionId, partyId }: RowOwner) =>
  sql`select lookup from idempotency_answer_parties where party_id = ${partyId} and distribution_id = ${distributionId}`;

/**
 * In deletion order: a row goes before the rows it references (foreign keys hold at every
 * statement on PostgreSQL).
 */
export const PARTY_ROWS: readonly PartyRows[] = [
  // Stored Idempotency-Key answers that show the person (docs/design.md section 14): by their
  // own party column, or (a batch's, which shows its other items' people too) by a link, and
  // then whole, with every link of it, by the store's own deletion; not exported (the push
  // log holds each body).
  {
    table: 'idempotency_answers',
    kind: 'idempotent_answers',
    where: (owner) =>
      sql`(party_id = ${owner.partyId} and distribution_id = ${owner.distributionId}) or lookup in (${ofLinkedAnswers(owner)})`,
    erase: (db, owner) => deleteIdempotentAnswersOfParty(db, owner.distributionId, owner.partyId),
    covers: ['idempotency_answer_parties'],
    exported: false,
  },
  {
    table: 'webhook_attempts',
    kind: 'webhook_attempts',
    where: ({ leadId }) =>
      sql`delivery_id in (select id from webhook_deliveries where event_id in (${ofEvents(leadId)}))`,
  },
  {
    table: 'webhook_deliveries',
    kind: 'webhook_deliveries',
    where: ({ leadId }) => sql`event_id in (${ofEvents(leadId)})`,
  },
  { table: 'webhook_events', kind: 'webhook_events', where: ({ leadId }) => sql`lead_id = ${leadId}` },
  { table: 'lead_notes', kind: 'notes', where: ({ leadId }) => sql`lead_id = ${leadId}` },
  { table: 'lead_changes', kind: 'changes', where: ({ leadId }) => sql`lead_id = ${leadId}` },
  // The sums of where leads come from keep what the person's pushes added (they name no one),
  // but an origin only their pushes carried, the partner's free text, goes with them (before
  // the pushes it is read from); not exported (the push log shows each origin).
  {
    table: 'source_counts',
    kind: 'source_origins',
    where: ({ distributionId, leadId }) =>
      sql`distribution_id = ${distributionId} and kind = 'origin'
        and name in (select coalesce(origin, '') from lead_pushes where lead_id = ${leadId})`,
    erase: (db, owner) => eraseOwnOrigins(db, owner.distributionId, owner.leadId),
    exported: false,
  },
  { table: 'lead_pushes', kind: 'push_log', where: ({ leadId }) => sql`lead_id = ${leadId}` },
  {
    table: 'external_refs',
    kind: 'external_refs',
    where: ({ distributionId, partyId }) =>
      sql`distribution_id = ${distributionId} and ((entity_type = 'party' and entity_id = ${partyId})
        or (entity_type = 'policy' and entity_id in (${ofPolicies(partyId)})))`,
  },
  {
    table: 'coverages',
    kind: 'coverages',
    where: ({ partyId }) => sql`insurance_policy_id in (${ofPolicies(partyId)})`,
  },
  { table: 'insurance_policies', kind: 'insurance_policies', where: ({ partyId }) => sql`party_id = ${partyId}` },
  { table: 'policy_packages', kind: 'policy_packages', where: ({ partyId }) => sql`party_id = ${partyId}` },
  {
    table: 'risk_object_revisions',
    kind: 'risk_object_revisions',
    where: ({ partyId }) => sql`risk_object_id in (select id from risk_objects where party_id = ${partyId})`,
  },
  { table: 'risk_objects', kind: 'risk_objects', where: ({ partyId }) => sql`party_id = ${partyId}` },
  { table: 'party_callbacks', kind: 'callbacks', where: ({ partyId }) => sql`party_id = ${partyId}` },
  { table: 'leads', kind: 'leads', where: ({ partyId }) => sql`party_id = ${partyId}` },
  // The normalised e-mail, telephone, VINs and name the party is found by as a possible
  // duplicate: copies of what the export shows from the party and its risk objects.
  {
    table: 'party_duplicate_keys',
    kind: 'duplicate_keys',
    where: ({ partyId }) => sql`party_id = ${partyId}`,
    exported: false,
  },
  { table: 'parties', kind: 'parties', where: ({ partyId }) => sql`id = ${partyId}` },
];

/**
 * Tables that name a party or a lead but hold nothing about the person, each with why.
 * Keyed by table name; the schema test reads it.
 */
export const NOT_PERSONAL: Readonly<Record<string, string>> = {
  erased_parties: 'the tombstone: ids, time and who erased (docs/design.md section 15)',
  erased_leads: 'the tombstone: the erased lead ids, which the change listing shows',
  erased_refs: 'keyed hashes of the erased refs, which do not read as the person',
  audit_log: 'who erased or exported which party id, and when',
  merged_parties: "the ids of a party merged into another, the survivor's ids, when and by which credential",
  webhook_stopped_urls:
    "a partner's callback URL that answered 410, per distribution; one only the erased person listed goes with them (the outbox's recordErasure)",
};

/** Deletes the person's rows of every table; the count per kind. */
export async function deletePartyRows(db: Db, owner: RowOwner): Promise<Record<string, number>> {
  // The claims workers hold on the deliveries were taken back before (the outbox's
  // revokeClaims, which on PostgreSQL waits for a worker recording an attempt right now): a
  // worker that comes later finds its delivery gone and records nothing (delivery.repository.ts).
  const counts: Record<string, number> = {};
  for (const rows of PARTY_ROWS) {
    const deleted = rows.erase
      ? await rows.erase(db, owner)
      : Number(
          (await sql`delete from ${sql.table(rows.table)} where ${rows.where(owner)}`.execute(db)).numAffectedRows ??
            0n,
        );
    counts[rows.kind] = (counts[rows.kind] ?? 0) + deleted;
  }
  return counts;
}

/** The person's rows of every table, by kind, as stored. */
export async function readPartyRows(db: Db, owner: RowOwner): Promise<Record<string, Record<string, unknown>[]>> {
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const rows of [...PARTY_ROWS].reverse()) {
    if (rows.exported === false) continue;
    const result = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(rows.table)} where ${rows.where(owner)}`.execute(db);
    tables[rows.kind] = result.rows;
  }
  return tables;
}
