// The broker app's lead inbox (docs/design.md section 7; README, "Broker app"): a
// distribution's leads, newest change first, optionally narrowed by a search, with what the
// inbox shows of each (name, kind, origin, external refs, created/merged counts). Each kind
// of match is an IN subquery bounded by the distribution, so the database does the search
// and the page is cut by a keyset cursor: a page holds still while new leads arrive above it.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database, Dialect } from '../db/database.ts';
import type { Position } from '../http/pagination.ts';
import { enterpriseNumberDigits } from '../reference/enterprises/enterprise-number.ts';
import type { PartyType } from './party.table.ts';

type Db = Kysely<Database>;

export interface InboxQuery {
  readonly distributionId: string;
  /** Free text: words of a name or e-mail, an external ref, a VIN or an enterprise number. */
  readonly search?: string;
  /** Start after this position in (updated_at, id) descending order. */
  readonly before?: Position;
  readonly limit: number;
}

export interface InboxRow {
  readonly lead_id: string;
  readonly party_id: string;
  readonly type: PartyType;
  readonly data: string;
  readonly origin: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

/** A JSON text field of parties.data as text, on either engine (data is stored as text). */
function jsonField(dialect: Dialect, key: string) {
  return dialect === 'postgres'
    ? sql<string>`(parties.data::jsonb ->> ${key})`
    : sql<string>`json_extract(parties.data, ${`$.${key}`})`;
}

/** LIKE pattern for "contains", with the pattern characters of the input taken literally. */
const containsPattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Lead rows of one inbox page, one more than `limit` to tell if another page follows. */
export async function listInboxRows(db: Db, dialect: Dialect, query: InboxQuery): Promise<InboxRow[]> {
  const { distributionId } = query;
  let select = db
    .selectFrom('leads')
    .innerJoin('parties', 'parties.id', 'leads.party_id')
    .select([
      'leads.id as lead_id',
      'leads.party_id',
      'parties.type',
      'parties.data',
      'leads.origin',
      'leads.created_at',
      'leads.updated_at',
    ])
    .where('leads.distribution_id', '=', distributionId);
  const search = query.search?.trim();
  if (search) {
    const words = search.toLowerCase().split(/\s+/).slice(0, 8);
    const nameAndEmail = sql<string>`lower(${sql.join(
      ['first_name', 'last_name', 'name', 'email'].map((key) => sql`coalesce(${jsonField(dialect, key)}, '')`),
      sql` || ' ' || `,
    )})`;
    const byName = db
      .selectFrom('parties')
      .select('parties.id')
      .where('parties.distribution_id', '=', distributionId)
      .where((eb) =>
        eb.and(words.map((word) => eb(nameAndEmail, 'like', sql<string>`${containsPattern(word)} escape '\\'`))),
      );
    const byPartyRef = db
      .selectFrom('external_refs')
      .select('entity_id')
      .where('distribution_id', '=', distributionId)
      .where('entity_type', '=', 'party')
      .where('ref', '=', search);
    const byPolicyRef = db
      .selectFrom('insurance_policies')
      .select('party_id')
      .where('distribution_id', '=', distributionId)
      .where(
        'id',
        'in',
        db
          .selectFrom('external_refs')
          .select('entity_id')
          .where('distribution_id', '=', distributionId)
          .where('entity_type', '=', 'policy')
          .where('ref', '=', search),
      );
    const byVin = db
      .selectFrom('risk_objects')
      .select('party_id')
      .where('distribution_id', '=', distributionId)
      .where('vin', '=', search.toUpperCase().replace(/\s/g, ''));
    // The search read as the enterprise lookup reads a number; a stored enterprise_nr holds no
    // `/` and no lower case (its pattern in lead.schema.ts), so these replacements suffice.
    const digits = enterpriseNumberDigits(search);
    const storedDigits = sql<string>`replace(replace(replace(replace(upper(${jsonField(dialect, 'enterprise_nr')}), 'BE', ''), '.', ''), ' ', ''), '-', '')`;
    const byEnterprise =
      digits === undefined
        ? undefined
        : db
            .selectFrom('parties')
            .select('parties.id')
            .where('parties.distribution_id', '=', distributionId)
            .where('parties.type', '=', 'COMPANY')
            .where(storedDigits, 'in', [digits, digits.replace(/^0/, '')]);
    select = select.where((eb) => {
      const matches: Expression<SqlBool>[] = [
        eb('leads.party_id', 'in', byName),
        eb('leads.party_id', 'in', byPartyRef),
        eb('leads.party_id', 'in', byPolicyRef),
        eb('leads.party_id', 'in', byVin),
      ];
      if (byEnterprise) matches.push(eb('leads.party_id', 'in', byEnterprise));
      return eb.or(matches);
    });
  }
  if (query.before) {
    const { at, id } = query.before;
    select = select.where((eb) =>
      eb.or([eb('leads.updated_at', '<', at), eb.and([eb('leads.updated_at', '=', at), eb('leads.id', '<', id)])]),
    );
  }
  return select
    .orderBy('leads.updated_at', 'desc')
    .orderBy('leads.id', 'desc')
    .limit(query.limit + 1)
    .execute();
}

/** The parties' external refs and the leads' push counts by outcome (201 created, 200 merged), for one page. */
export async function inboxDetails(db: Db, rows: readonly InboxRow[]) {
  if (rows.length === 0) return { refs: [], pushCounts: [] };
  const [refs, pushCounts] = await Promise.all([
    db
      .selectFrom('external_refs')
      .select(['entity_id', 'company', 'ref'])
      .where('entity_type', '=', 'party')
      .where(
        'entity_id',
        'in',
        rows.map((row) => row.party_id),
      )
      .orderBy('created_at')
      .orderBy('company')
      .orderBy('ref')
      .execute(),
    db
      .selectFrom('lead_pushes')
      .select(['lead_id', 'status', (eb) => eb.fn.countAll<number>().as('pushes')])
      .where(
        'lead_id',
        'in',
        rows.map((row) => row.lead_id),
      )
      .groupBy(['lead_id', 'status'])
      .execute(),
  ]);
  return {
    refs,
    pushCounts: pushCounts.map((count) => ({ ...count, status: Number(count.status), pushes: Number(count.pushes) })),
  };
}
