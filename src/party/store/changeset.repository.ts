// Applies a changeset (changeset.ts) in the write's transaction: one statement per table
// touched, however many cars, policies or coverages the push carries. On PostgreSQL,
// where every statement is a round trip, every new row of every table goes in one
// statement (data-modifying WITH queries over unnested column arrays, one prepared text).
import { StaleVersionError } from '../../db/errors.ts';
import {
  columnsOf,
  postgresInsert,
  postgresUpdate,
  sqliteInsert,
  sqliteUpdate,
  SQLITE_ROWS_PER_STATEMENT,
  type TableShape,
} from '../../db/batch-sql.ts';
import { dialectOf, prepared, run, runCount, runText, statement } from '../../db/statements.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Changeset } from './changeset.ts';
import type { LeadAggregate } from '../model/party.aggregate.ts';
import type { LeadChangeTable, LeadPushTable } from '../model/party.table.ts';
import { searchWordsOf, sortNameOf } from '../inbox/search-words.ts';
import { postgresAnswerInsert } from '../../idempotency/idempotency.repository.ts';

type Db = Kysely<Database>;
type Row = readonly unknown[];

const shape = (table: string, columns: string): TableShape => ({
  table,
  columns: columns.split(' ').map((column) => {
    const [name, type] = column.split(':');
    return [name!, type === 'int' ? 'integer' : 'text'] as const;
  }),
});

// Inserts, in an order SQLite's immediate foreign key checks accept.
const PARTIES = shape('parties', 'id distribution_id type data match_key version:int created_at updated_at');
const LEADS = shape(
  'leads',
  'id distribution_id party_id origin backref source created_at updated_at status lost_reason assignee_id status_changed_at search_words sort_name kind',
);
const RISK_OBJECTS = shape(
  'risk_objects',
  'id position:int distribution_id party_id type vin current_revision_id created_at updated_at removed_at',
);
const REVISIONS = shape('risk_object_revisions', 'id risk_object_id revision_nr:int data created_at');
const PACKAGES = shape('policy_packages', 'id position:int distribution_id party_id data created_at updated_at');
const POLICIES = shape(
  'insurance_policies',
  'id position:int distribution_id party_id policy_package_id insurance_company policy_nr data created_at updated_at',
);
const COVERAGES = shape('coverages', 'id insurance_policy_id position:int risk_object_id data');
const EXTERNAL_REFS = shape('external_refs', 'distribution_id entity_type company ref entity_id created_at');
const CALLBACKS = shape('party_callbacks', 'party_id url created_at');
const PUSHES = shape(
  'lead_pushes',
  'id lead_id distribution_id received_at status:int caller client_id origin kind payload',
);
const CHANGES = shape('lead_changes', 'id lead_id party_id distribution_id changed_at caller subject changes');
const DUPLICATE_KEYS = shape('party_duplicate_keys', 'distribution_id kind key party_id name');
const INSERT_ORDER = [
  PARTIES,
  LEADS,
  RISK_OBJECTS,
  REVISIONS,
  PACKAGES,
  POLICIES,
  COVERAGES,
  EXTERNAL_REFS,
  CALLBACKS,
  PUSHES,
  CHANGES,
  DUPLICATE_KEYS,
];

// Updates: the first column is the key.
const RISK_OBJECT_UPDATES = shape('risk_objects', 'id vin current_revision_id updated_at');
const PACKAGE_UPDATES = shape('policy_packages', 'id data updated_at');
const POLICY_UPDATES = shape('insurance_policies', 'id policy_package_id insurance_company policy_nr data updated_at');

/**
 * PostgreSQL, a write that updates a stored party: its head in the same statement as the new
 * rows, as WITH queries before theirs (a round trip fewer than a statement of its own). The
 * party only at the version the write loaded (`p`), the lead and the party's keys as a
 * possible duplicate only when it was (`l`, `k`), and the statement says whether (`head`);
 * when it was not, the rows went in all the same, and the write's rollback takes them back
 * (StaleVersionError). WITH queries run in no set order, so no key is both deleted and
 * inserted: `k` deletes the keys the party no longer has ($14, $15: the new set's kinds and
 * keys), and the new set is upserted (DUPLICATE_KEY_UPSERT), a key it kept meeting its own row.
 */
const headQueries = (keysChanged: boolean): string[] => [
  'p as (update parties set data = $1, match_key = $2, updated_at = $3, version = $4 where id = $5 and version = $6 returning id)',
  ...(keysChanged
    ? [
        'k as (delete from party_duplicate_keys d where d.party_id = $5 and exists (select 1 from p) ' +
          'and not exists (select 1 from unnest($14::text[], $15::text[]) as n(kind, key) where n.kind = d.kind and n.key = d.key))',
      ]
    : []),
  'l as (update leads set origin = $7, backref = $8, source = $9, updated_at = $10, search_words = $11, sort_name = $13 ' +
    'where id = $12 and exists (select 1 from p) returning id)',
];
const DUPLICATE_KEY_UPSERT = 'on conflict (distribution_id, kind, key, party_id) do update set name = excluded.name';

/** A stored party's head as headQueries write it: its values in their order, and whether its keys changed (`k`, $14 and $15). */
interface PostgresHead {
  readonly keysChanged: boolean;
  readonly values: readonly unknown[];
}

/**
 * The new rows of the tables that have some, in one statement: each table's insert a WITH
 * query of its own. One text (and prepared statement) per set of tables: a minimal push
 * writes four tables, a full one ten. With `head`, the stored party's update
 * goes first (headQueries), and the statement says whether it was made (`head`).
 */
const postgresInsertAll = (() => {
  const texts = new Map<string, string>();
  /** With `answer`, the Idempotency-Key's row too, and the statement returns whether it was written (`kept`). */
  return (
    rows: readonly Row[][],
    answer?: readonly unknown[],
    head?: PostgresHead,
  ): { text: string; parameters: unknown[] } => {
    const tables = INSERT_ORDER.flatMap((table, i) => (rows[i]!.length > 0 ? [{ table, rows: rows[i]! }] : []));
    const mask = INSERT_ORDER.reduce(
      (bits, _, i) => (rows[i]!.length > 0 ? bits | (1 << i) : bits),
      answer === undefined ? 0 : 1 << INSERT_ORDER.length,
    );
    const headKind = head === undefined ? 0 : head.keysChanged ? 2 : 1;
    const key = `${mask}.${headKind}`;
    let text = texts.get(key);
    if (text === undefined) {
      const heads = head === undefined ? [] : headQueries(head.keysChanged);
      // The rows' parameters follow the head's.
      let next = (head?.values.length ?? 0) + 1;
      const inserts = tables.map(({ table }) => {
        const insert = postgresInsert(table, next);
        next += table.columns.length;
        return head !== undefined && table === DUPLICATE_KEYS ? `${insert} ${DUPLICATE_KEY_UPSERT}` : insert;
      });
      // The last insert is the statement itself; with an answer or a head, each is one more
      // WITH query, and the statement counts them (`kept`, `head`).
      const counts = [
        ...(head === undefined ? [] : ['(select count(*) from l)::int as head']),
        ...(answer === undefined ? [] : ['(select count(*) from kept_answer)::int as kept']),
      ];
      const last = counts.length === 0 ? inserts.pop()! : `select ${counts.join(', ')}`;
      const queries = [...heads, ...inserts.map((insert, i) => `i${i} as (${insert})`)];
      if (answer !== undefined) queries.push(`kept_answer as (${postgresAnswerInsert(next)})`);
      const name = head === undefined ? `lead_insert_${mask}` : `lead_head_insert_${mask}_${headKind}`;
      text = prepared(name, queries.length === 0 ? last : `with ${queries.join(', ')} ${last}`);
      texts.set(key, text);
    }
    const parameters = [
      ...(head?.values ?? []),
      ...tables.flatMap(({ table, rows: tableRows }) => columnsOf(table, tableRows)),
      ...(answer ?? []),
    ];
    return { text, parameters };
  };
})();
const POSTGRES_UPDATES = new Map(
  [RISK_OBJECT_UPDATES, PACKAGE_UPDATES, POLICY_UPDATES].map((table) => [
    table,
    prepared(`${table.table}_update`, postgresUpdate(table, 1)),
  ]),
);

const SQLITE_HEAD_UPDATE =
  'update parties set data = ?1, match_key = ?2, updated_at = ?3, version = ?4 where id = ?5 and version = ?6';
/**
 * SQLite's party update when its match key stays what it was: SQLite rewrites the entry of
 * `parties_match_key` (a unique index, its key an e-mail, a birth date and an address, so a
 * page of its own) for every UPDATE that sets the column, even to its own value.
 */
const SQLITE_HEAD_UPDATE_SAME_KEY =
  'update parties set data = ?1, updated_at = ?3, version = ?4 where id = ?5 and version = ?6';
/**
 * When the words changed, the update's stamp (the right-hand side reads the row as it was): the
 * inbox projector indexes a lead's words again only then (migration 2026-11-30T10-00).
 */
const WORDS_AT = 'words_at = case when search_words = ?5 then words_at else ?4 end';
/**
 * SQLite's lead update (PostgreSQL's is part of the head's statement above), setting `origin`
 * and `sort_name` only when they change: SQLite rewrites the index entries (leads_origin) of
 * every column an UPDATE sets, even to its own value. (`sort_name` has had no index on SQLite
 * since migration 2026-11-30T08-00, which moved its order to lead_orders; left out all the
 * same, as a value unchanged.) PostgreSQL compares them itself (a HOT update leaves the
 * indexes alone). The four texts, by sqliteLeadUpdate.
 */
const SQLITE_LEAD_UPDATES = [false, true].flatMap((sortName) =>
  [false, true].map(
    (origin) =>
      `update leads set ${origin ? 'origin = ?1, ' : ''}backref = ?2, source = ?3, updated_at = ?4, search_words = ?5, ${WORDS_AT}${sortName ? ', sort_name = ?7' : ''} where id = ?6`,
  ),
);
const sqliteLeadUpdate = (indexed: NonNullable<Changeset['leadIndexed']>): string =>
  SQLITE_LEAD_UPDATES[(indexed.origin ? 1 : 0) + (indexed.sortName ? 2 : 0)]!;
const removeRiskObjects = statement('risk_objects_remove', {
  sqlite: 'update risk_objects set removed_at = ?1, updated_at = ?1 where id in (select value from json_each(?2))',
  postgres: 'update risk_objects set removed_at = $1, updated_at = $1 where id = any($2::text[])',
});
const clearVins = statement('risk_objects_clear_vins', {
  sqlite: 'update risk_objects set vin = null where id in (select value from json_each(?1))',
  postgres: 'update risk_objects set vin = null where id = any($1::text[])',
});
const clearPolicyNumbers = statement('insurance_policies_clear_numbers', {
  sqlite: 'update insurance_policies set policy_nr = null where id in (select value from json_each(?1))',
  postgres: 'update insurance_policies set policy_nr = null where id = any($1::text[])',
});
// SQLite: a party's keys as a possible duplicate go whole when any changed; the new set is
// inserted. (PostgreSQL deletes only those the party no longer has: headQueries.)
const SQLITE_DELETE_DUPLICATE_KEYS = 'delete from party_duplicate_keys where party_id = ?1';
const deleteCoverages = statement('coverages_delete', {
  sqlite: 'delete from coverages where insurance_policy_id in (select value from json_each(?1))',
  postgres: 'delete from coverages where insurance_policy_id = any($1::text[])',
});

/** The push log's row (docs/design.md section 2, rule 11), written with the changes. */
export type PushLogRow = LeadPushTable;

/** What a write records about itself: a push its push-log row, a PATCH its change-log row. */
export interface ChangesetOptions {
  readonly matchKey: string | null;
  /**
   * The stored party's match key, for a write that updates it: when it is `matchKey`, SQLite's
   * update leaves the column out. Undefined: the column is written.
   */
  readonly storedMatchKey?: string | null;
  readonly pushLog?: PushLogRow;
  readonly changeLog?: LeadChangeTable;
  /**
   * PostgreSQL: an Idempotency-Key's row with the write's answer (idempotency.repository.ts,
   * answerValues), written by the statement of the new rows.
   */
  readonly answer?: readonly unknown[];
}

/**
 * Writes `changes`, which turned the stored lead into `lead`. A merged party is updated
 * only if nobody changed it since it was loaded (its version); otherwise StaleVersionError
 * tells the caller to run the whole write again. With `options.answer`, says whether the
 * key's row was written (false: a live row holds the key).
 */
export async function applyChangeset(
  db: Db,
  lead: LeadAggregate,
  changes: Changeset,
  options: ChangesetOptions,
): Promise<boolean | undefined> {
  if (dialectOf(db) === 'postgres') {
    // The values a stored party's update takes from rows this write releases are released
    // first, as are those of the rows it adds; its head then goes with the new rows.
    await releaseUniqueValues(db, changes);
    const head = changes.head === 'update' ? postgresHead(lead, options.matchKey, changes) : undefined;
    const written = await insertPostgresRows(db, newRows(lead, changes, options), options.answer, head);
    if (head !== undefined && !written.head) throw staleParty(lead);
    await updateChildren(db, changes);
    return written.kept;
  }
  if (changes.head === 'update')
    await updateSqliteHead(db, lead, options.matchKey, changes.leadIndexed, options.storedMatchKey);
  if (changes.head === 'update' && changes.duplicateKeys !== undefined)
    await runText(db, SQLITE_DELETE_DUPLICATE_KEYS, [lead.partyId]);
  // New rows go in before the updates, which may point at them (a stored policy moved to a
  // package this push adds); values they take from updated rows were released first.
  await releaseUniqueValues(db, changes);
  await insertSqliteRows(db, newRows(lead, changes, options), options.answer);
  await updateChildren(db, changes);
  return undefined;
}

const staleParty = (lead: LeadAggregate) => new StaleVersionError(`party ${lead.partyId} changed concurrently`);

/** The stored lead's head columns: the lead's row of its update, in the order of both dialects' texts. */
function leadHead(lead: LeadAggregate): unknown[] {
  const meta = (name: string) => (lead.meta[name] as string | undefined) ?? null;
  return [
    meta('origin'),
    meta('backref'),
    meta('source'),
    lead.updated_at,
    searchWordsOf(lead),
    lead.leadId,
    sortNameOf(lead),
  ];
}

/** The party's row of its update, guarded by the version the write loaded. */
function partyHead(lead: LeadAggregate, matchKey: string | null): unknown[] {
  return [JSON.stringify(lead.fields), matchKey, lead.updated_at, lead.version, lead.partyId, lead.version - 1];
}

/** PostgreSQL's head: the party's values, the lead's and, when they changed, the kinds and keys of the party's new key set. */
function postgresHead(lead: LeadAggregate, matchKey: string | null, changes: Changeset): PostgresHead {
  const keys = changes.duplicateKeys;
  return {
    keysChanged: keys !== undefined,
    values: [
      ...partyHead(lead, matchKey),
      ...leadHead(lead),
      ...(keys === undefined ? [] : [keys.map((key) => key.kind), keys.map((key) => key.key)]),
    ],
  };
}

async function updateSqliteHead(
  db: Db,
  lead: LeadAggregate,
  matchKey: string | null,
  indexed: Changeset['leadIndexed'] = { origin: true, sortName: true },
  storedMatchKey?: string | null,
): Promise<void> {
  // Without match_key the text's ?2 is not used: the six values still bind by number.
  const text = storedMatchKey === matchKey ? SQLITE_HEAD_UPDATE_SAME_KEY : SQLITE_HEAD_UPDATE;
  const updated = await runCount(db, text, partyHead(lead, matchKey));
  if (updated !== 1) throw staleParty(lead);
  const leadRow = leadHead(lead);
  // Without sort_name the text's last parameter is ?6: the seventh value is not bound.
  await runCount(db, sqliteLeadUpdate(indexed), indexed.sortName ? leadRow : leadRow.slice(0, 6));
}

/**
 * Unique values (a car's VIN, a policy's company + number) may move between the party's rows
 * in one merge, a swap included, and a new row may take a value an updated one gives up:
 * rows leave the unique indexes first (removed, or their released value cleared), then the
 * inserts and updates give every row its new value, so no row meets another's old value.
 * Replaced coverages go now too, before the new ones of their policies are inserted.
 */
async function releaseUniqueValues(db: Db, changes: Changeset): Promise<void> {
  const { riskObjects, policies, coverages } = changes;
  if (riskObjects.remove.length > 0)
    await run(db, removeRiskObjects, [riskObjects.remove[0]!.updated_at, riskObjects.remove.map((o) => o.id)]);
  // A value released with no other row written could be taken by nobody: no statement.
  if (riskObjects.releaseVins.length > 0 && riskObjects.update.length + riskObjects.insert.length > 1)
    await run(db, clearVins, [riskObjects.releaseVins]);
  if (policies.releaseNumbers.length > 0 && policies.update.length + policies.insert.length > 1)
    await run(db, clearPolicyNumbers, [policies.releaseNumbers]);
  if (coverages.deleteFor.length > 0) await run(db, deleteCoverages, [coverages.deleteFor]);
}

async function updateChildren(db: Db, changes: Changeset): Promise<void> {
  const { riskObjects, packages, policies } = changes;
  await updateRows(
    db,
    RISK_OBJECT_UPDATES,
    riskObjects.update.map((o) => [o.id, o.vin, o.current.id, o.updated_at]),
  );
  await updateRows(
    db,
    PACKAGE_UPDATES,
    packages.update.map((p) => [p.id, JSON.stringify(p.data), p.updated_at]),
  );
  await updateRows(
    db,
    POLICY_UPDATES,
    policies.update.map((p) => [p.id, ...policyColumns(p)]),
  );
}

function policyColumns(policy: LeadAggregate['policies'][number]): Row {
  const text = (name: string) => (policy.data[name] as string | undefined) ?? null;
  return [
    policy.policy_package_id,
    text('insurance_company'),
    text('policy_nr'),
    JSON.stringify(policy.data),
    policy.updated_at,
  ];
}

/** The new rows of every table, in INSERT_ORDER. */
function newRows(lead: LeadAggregate, changes: Changeset, options: ChangesetOptions): Row[][] {
  const { distributionId: d, partyId, leadId } = lead;
  const isNew = changes.head === 'insert';
  const meta = (name: string) => (lead.meta[name] as string | undefined) ?? null;
  const push = options.pushLog;
  return [
    isNew
      ? [
          [
            partyId,
            d,
            lead.type,
            JSON.stringify(lead.fields),
            options.matchKey,
            lead.version,
            lead.created_at,
            lead.updated_at,
          ],
        ]
      : [],
    isNew
      ? [
          [
            leadId,
            d,
            partyId,
            meta('origin'),
            meta('backref'),
            meta('source'),
            lead.created_at,
            lead.updated_at,
            lead.work.status,
            lead.work.lostReason,
            lead.work.assigneeId,
            lead.work.statusChangedAt,
            searchWordsOf(lead),
            sortNameOf(lead),
            lead.type,
          ],
        ]
      : [],
    // The object names its current revision (no foreign key on that column) and the revision its object.
    changes.riskObjects.insert.map((o) => [
      o.id,
      o.position,
      d,
      partyId,
      o.type,
      o.vin,
      o.current.id,
      o.created_at,
      o.updated_at,
      null,
    ]),
    changes.revisions.map(({ riskObjectId, revision: r }) => [
      r.id,
      riskObjectId,
      r.revision_nr,
      JSON.stringify(r.data),
      r.created_at,
    ]),
    changes.packages.insert.map((p) => [
      p.id,
      p.position,
      d,
      partyId,
      JSON.stringify(p.data),
      p.created_at,
      p.updated_at,
    ]),
    changes.policies.insert.map((p) => {
      const [pkg, company, number, data] = policyColumns(p);
      return [p.id, p.position, d, partyId, pkg, company, number, data, p.created_at, p.updated_at];
    }),
    changes.coverages.insert.map(({ policyId, position, coverage: c }) => [
      c.id,
      policyId,
      position,
      c.risk_object_id,
      JSON.stringify(c.data),
    ]),
    [
      ...changes.partyRefs.map((r) => [d, 'party', r.company, r.ref, partyId, lead.updated_at]),
      ...changes.policyRefs.map(({ policyId, ref: r, at }) => [d, 'policy', r.company, r.ref, policyId, at]),
    ],
    changes.callbacks.map((url) => [partyId, url, lead.updated_at]),
    push
      ? [
          [
            push.id,
            push.lead_id,
            push.distribution_id,
            push.received_at,
            push.status,
            push.caller,
            push.client_id,
            push.origin,
            push.kind,
            push.payload,
          ],
        ]
      : [],
    options.changeLog ? [CHANGES.columns.map(([name]) => options.changeLog![name as keyof LeadChangeTable])] : [],
    (changes.duplicateKeys ?? []).map((key) => [d, key.kind, key.key, partyId, key.name]),
  ];
}

/** PostgreSQL's new rows, with a stored party's head (`head`: whether it was updated) and a key's answer (`kept`: whether it was written). */
async function insertPostgresRows(
  db: Db,
  rows: Row[][],
  answer: readonly unknown[] | undefined,
  head: PostgresHead | undefined,
): Promise<{ head: boolean; kept: boolean | undefined }> {
  if (head === undefined && answer === undefined && rows.every((table) => table.length === 0))
    return { head: false, kept: undefined };
  const { text, parameters } = postgresInsertAll(rows, answer, head);
  const result = await runText<{ kept?: number; head?: number }>(db, text, parameters);
  return { head: result[0]?.head === 1, kept: answer === undefined ? undefined : result[0]!.kept === 1 };
}

async function insertSqliteRows(db: Db, rows: Row[][], answer?: readonly unknown[]): Promise<void> {
  if (answer !== undefined) throw new Error('an answer goes with the rows on PostgreSQL only');
  // An index loop, tables without rows skipped: every push runs this, and the iterators and
  // per-table arrays of a for-of over chunks were a twentieth of what a minimal push
  // allocated (docs/benchmarks.md, "What a push allocates, and less of it").
  for (let i = 0; i < INSERT_ORDER.length; i++) {
    const table = rows[i]!;
    if (table.length > 0) await writeSqliteRows(db, INSERT_ORDER[i]!, table, sqliteInsert);
  }
}

async function updateRows(db: Db, table: TableShape, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  if (dialectOf(db) === 'postgres') {
    await runText(db, POSTGRES_UPDATES.get(table)!, columnsOf(table, rows));
    return;
  }
  await writeSqliteRows(db, table, rows, sqliteUpdate);
}

/** SQLite: `rows` in statements of up to SQLITE_ROWS_PER_STATEMENT rows each; a lone row's values bound as they are. */
async function writeSqliteRows(
  db: Db,
  shape: TableShape,
  rows: readonly Row[],
  textOf: (shape: TableShape, rows: number) => string,
): Promise<void> {
  if (rows.length === 1) {
    await runText(db, textOf(shape, 1), rows[0]!);
    return;
  }
  for (let start = 0; start < rows.length; start += SQLITE_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + SQLITE_ROWS_PER_STATEMENT);
    await runText(db, textOf(shape, chunk.length), chunk.flat());
  }
}
