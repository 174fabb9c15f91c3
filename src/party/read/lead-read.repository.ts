// Reads for the read endpoints (docs/api.md, "Reading and updating"): a lead by id, the change
// listing and a risk object's revisions. Every query is bounded by the caller's
// distribution. Whole leads are loaded by lead-load.repository.ts, the push log read by
// push-log.repository.ts.
import { type AliasedSelectQueryBuilder, type Compilable, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { erasedLeadsQuery } from '../privacy/tombstone.repository.ts';
import type { mergedLeadsQuery } from '../party-merge/merged-parties.repository.ts';
import { dialectOf, prepared, runText } from '../../db/statements.ts';
import { pastPosition, type Position } from '../../db/keyset.ts';
import type { PartyType } from '../model/party.table.ts';

type Db = Kysely<Database>;

export async function findPartyKind(db: Db, distributionId: string, partyId: string): Promise<PartyType | undefined> {
  const row = await db
    .selectFrom('parties')
    .select('type')
    .where('distribution_id', '=', distributionId)
    .where('id', '=', partyId)
    .executeTakeFirst();
  return row?.type;
}

export async function findLeadParty(db: Db, distributionId: string, leadId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('leads')
    .select('party_id')
    .where('distribution_id', '=', distributionId)
    .where('id', '=', leadId)
    .executeTakeFirst();
  return row?.party_id;
}

export interface LeadListQuery {
  readonly distributionId: string;
  /** `company` undefined: the ref of any company. */
  readonly ref?: { readonly ref: string; readonly company: string | undefined };
  readonly updatedSince?: string;
  readonly after?: Position;
  readonly limit: number;
}

/**
 * Lead rows in (updated_at, id) order, one more than `limit` to tell if a page follows.
 * `horizon` (listingHorizon): only rows stamped before it.
 */
export async function listLeadRows(
  db: Db,
  query: LeadListQuery,
  horizon: string | undefined,
): Promise<Array<{ id: string; party_id: string; updated_at: string }>> {
  return leadRowsQuery(db, query, horizon).execute();
}

/** A row of the change listing: a lead, an erased lead or a merged one (then the lead it went into). */
export interface ChangeRow {
  readonly kind: 'lead' | 'erased' | 'merged';
  readonly id: string;
  readonly party_id: string;
  /** When it changed: updated, erased or merged. */
  readonly at: string;
  readonly into_party_id: string | null;
  readonly into_lead_id: string | null;
}

/** Where each part of the listing keeps a row's lead id and time, and a merged lead's survivor. */
const PART_COLUMNS: Readonly<Record<ChangeRow['kind'], readonly [string, string, string?, string?]>> = {
  lead: ['id', 'updated_at'],
  erased: ['lead_id', 'erased_at'],
  merged: ['lead_id', 'merged_at', 'merged_into_party_id', 'merged_into_lead_id'],
};

/**
 * The change listing's rows: leads, and, when asked for, erased (`erased`) and merged leads,
 * each branch its own ordered and limited read, as it was alone; the caller merges their
 * orders. On PostgreSQL one statement, the branches' union (a round trip, where three reads
 * in parallel took three); on SQLite, where a statement costs no round trip, one each: the
 * union's co-routines passed every row through twice, 15 µs more per page of 100 than these.
 */
export async function listChangeRows(
  db: Db,
  query: LeadListQuery,
  horizon: string | undefined,
  also: {
    readonly erased?: ReturnType<typeof erasedLeadsQuery>;
    readonly merged?: ReturnType<typeof mergedLeadsQuery>;
  },
): Promise<ChangeRow[]> {
  if (dialectOf(db) === 'sqlite') return sqliteChangeRows(db, leadRowsQuery(db, query, horizon), also);
  const none = sql<string | null>`cast(null as text)`;
  /** A part as the union's columns: its kind, its lead's id, party and time, and a merged one's survivor. */
  const branch = (kind: ChangeRow['kind'], part: AliasedSelectQueryBuilder<object, string>) => {
    const [id, at, intoParty, intoLead] = PART_COLUMNS[kind];
    return db
      .selectFrom(part)
      .select([
        sql.raw<ChangeRow['kind']>(`'${kind}'`).as('kind'),
        sql.ref<string>(id).as('id'),
        sql.ref<string>('party_id').as('party_id'),
        sql.ref<string>(at).as('at'),
        (intoParty === undefined ? none : sql.ref<string>(intoParty)).as('into_party_id'),
        (intoLead === undefined ? none : sql.ref<string>(intoLead)).as('into_lead_id'),
      ]);
  };
  const branches = [
    branch('lead', leadRowsQuery(db, query, horizon).as('l')),
    ...(also.erased ? [branch('erased', also.erased.as('e'))] : []),
    ...(also.merged ? [branch('merged', also.merged.as('m'))] : []),
  ];
  // The branches select the same columns from different tables: one row type for the union.
  const [first, ...rest] = branches as unknown as SelectQueryBuilder<Database, never, ChangeRow>[];
  let union = first!;
  for (const branch of rest) union = union.unionAll(branch);
  const { sql: text, parameters } = union.compile();
  return runText<ChangeRow>(db, preparedOnce(text), parameters);
}

/** SQLite: the three reads one after the other, straight on the connection. */
async function sqliteChangeRows(
  db: Db,
  leads: ReturnType<typeof leadRowsQuery>,
  also: Parameters<typeof listChangeRows>[3],
): Promise<ChangeRow[]> {
  const read = async (kind: ChangeRow['kind'], query: Compilable<object>): Promise<ChangeRow[]> => {
    const { sql: text, parameters } = query.compile();
    const [id, at, intoParty, intoLead] = PART_COLUMNS[kind];
    return (await runText<Record<string, string | null>>(db, text, parameters)).map((row) => ({
      kind,
      id: row[id]!,
      party_id: row.party_id!,
      at: row[at]!,
      into_party_id: intoParty === undefined ? null : row[intoParty]!,
      into_lead_id: intoLead === undefined ? null : row[intoLead]!,
    }));
  };
  const rows = await read('lead', leads);
  if (also.erased) rows.push(...(await read('erased', also.erased)));
  if (also.merged) rows.push(...(await read('merged', also.merged)));
  return rows;
}

/**
 * PostgreSQL: each shape of the listing's statement (with or without a ref, a since, a
 * position, erased and merged leads: a few dozen at most) prepared by name the first time,
 * so a connection plans it once rather than on every page (a third of its cost).
 */
const preparedTexts = new Set<string>();
function preparedOnce(text: string): string {
  if (!preparedTexts.has(text)) {
    prepared(`change_rows_${preparedTexts.size}`, text);
    preparedTexts.add(text);
  }
  return text;
}

/** listLeadRows' query, unrun (its plan is tested). */
export function leadRowsQuery(db: Db, query: LeadListQuery, horizon: string | undefined) {
  let select = db
    .selectFrom('leads')
    .select(['leads.id', 'leads.party_id', 'leads.updated_at'])
    .where('leads.distribution_id', '=', query.distributionId);
  if (horizon !== undefined) select = select.where('leads.updated_at', '<', horizon);
  if (query.ref) {
    const { company, ref } = query.ref;
    let refs = db
      .selectFrom('external_refs')
      .select('entity_id')
      .where('distribution_id', '=', query.distributionId)
      .where('entity_type', '=', 'party')
      .where('ref', '=', ref);
    if (company !== undefined) refs = refs.where('company', '=', company);
    select = select.where('leads.party_id', 'in', refs);
  }
  if (query.updatedSince) select = select.where('leads.updated_at', '>=', query.updatedSince);
  if (query.after)
    select = select.where(pastPosition(sql.ref('leads.updated_at'), sql.ref('leads.id'), 'asc', query.after));
  return select
    .orderBy('leads.updated_at')
    .orderBy('leads.id')
    .limit(query.limit + 1);
}

export async function listRevisionRows(db: Db, partyId: string, riskObjectId: string) {
  const object = await db
    .selectFrom('risk_objects')
    .select(['id', 'type', 'current_revision_id'])
    .where('id', '=', riskObjectId)
    .where('party_id', '=', partyId)
    .executeTakeFirst();
  if (!object) return undefined;
  const revisions = await db
    .selectFrom('risk_object_revisions')
    .select(['id', 'revision_nr', 'data', 'created_at'])
    .where('risk_object_id', '=', riskObjectId)
    .orderBy('revision_nr')
    .execute();
  return { object, revisions };
}
