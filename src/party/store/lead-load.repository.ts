// Loads whole leads (docs/design.md section 2: the lead with its prospect, risk objects and
// their current revisions, packages, policies and coverages) in two statements however
// many leads and however many rows each has: their heads, then every row hanging off them
// in one union, grouped and ordered here. A page of 100 leads is 2 statements. A merge
// loads its one lead in one statement, the head being one more branch of the union; on
// PostgreSQL a statement before it locks the head for the write (2 round trips).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { dialectOf, prepared, run, runText, statement } from '../../db/statements.ts';
import {
  type Document,
  type InsurancePolicy,
  type LeadAggregate,
  type RiskObject,
  withoutNulls,
} from '../model/party.aggregate.ts';
import type { LeadStatus, PartyType, RiskObjectType } from '../model/party.table.ts';

type Db = Kysely<Database>;

interface HeadRow {
  lead_id: string;
  origin: string | null;
  backref: string | null;
  source: string | null;
  created_at: string;
  updated_at: string;
  party_id: string;
  distribution_id: string;
  type: PartyType;
  data: string;
  version: number | string;
  status: LeadStatus;
  lost_reason: string | null;
  assignee_id: string | null;
  status_changed_at: string | null;
  follow_up_on: string | null;
}

/** One row of any part; what each column holds depends on `part` (see the statement). */
interface PartRow {
  part: 'head' | 'ref' | 'callback' | 'risk_object' | 'package' | 'policy' | 'policy_ref' | 'coverage';
  owner: string;
  id: string | null;
  t1: string | null;
  t2: string | null;
  t3: string | null;
  t4: string | null;
  t5: string | null;
  t6: string | null;
  t7: string | null;
  n1: number | string | null;
  n2: number | string | null;
  data: string | null;
  /** The head's work columns (status, lost reason, assignee, status changed, follow-up); null in every other part. */
  w1: string | null;
  w2: string | null;
  w3: string | null;
  w4: string | null;
  w5: string | null;
}

const HEAD = `select l.id as lead_id, l.origin, l.backref, l.source, l.created_at, l.updated_at,
  l.status, l.lost_reason, l.assignee_id, l.status_changed_at, l.follow_up_on,
  p.id as party_id, p.distribution_id, p.type, p.data, p.version from parties p join leads l on l.party_id = p.id`;
const heads = statement('lead_heads', {
  sqlite: `${HEAD} where p.id in (select value from json_each(?1))`,
  postgres: `${HEAD} where p.id = any($1::text[])`,
});
/**
 * The write's lock on PostgreSQL: concurrent merges into one party queue up instead of
 * failing their version check. SQLite has one writer at a time and needs none.
 */
const LOCK_HEAD = prepared('lead_head_for_update', 'select 1 from parties where id = $1 for update');

/** The work columns of the head, which the other parts leave empty. */
const NO_WORK =
  'cast(null as text) as w1, cast(null as text) as w2, cast(null as text) as w3, cast(null as text) as w4, cast(null as text) as w5';
const WORK_NULLS = 'null, null, null, null, null';

const parts = (ids: string) => `
  select 'ref' as part, entity_id as owner, cast(null as text) as id, company as t1, ref as t2, created_at as t3,
    cast(null as text) as t4, cast(null as text) as t5, cast(null as text) as t6, cast(null as text) as t7,
    cast(null as integer) as n1, cast(null as integer) as n2, cast(null as text) as data, ${NO_WORK}
    from external_refs where entity_type = 'party' and entity_id ${ids}
  union all select 'callback', party_id, null, url, created_at, null, null, null, null, null, null, null, null, ${WORK_NULLS} from party_callbacks where party_id ${ids}
  union all select 'risk_object', o.party_id, o.id, o.type, o.vin, o.created_at, o.updated_at, r.id, r.created_at, null, o.position, r.revision_nr, r.data, ${WORK_NULLS}
    from risk_objects o join risk_object_revisions r on r.id = o.current_revision_id where o.party_id ${ids} and o.removed_at is null
  union all select 'package', party_id, id, null, null, created_at, updated_at, null, null, null, position, null, data, ${WORK_NULLS} from policy_packages where party_id ${ids} and replaced_by is null
  union all select 'policy', party_id, id, policy_package_id, null, created_at, updated_at, null, null, null, position, null, data, ${WORK_NULLS} from insurance_policies where party_id ${ids}
  union all select 'policy_ref', r.entity_id, null, r.company, r.ref, r.created_at, null, null, null, null, null, null, null, ${WORK_NULLS}
    from external_refs r join insurance_policies i on i.id = r.entity_id where r.entity_type = 'policy' and i.party_id ${ids}
  union all select 'coverage', c.insurance_policy_id, c.id, c.risk_object_id, null, null, null, null, null, null, c.position, null, c.data, ${WORK_NULLS}
    from coverages c join insurance_policies i on i.id = c.insurance_policy_id where i.party_id ${ids}`;
const children = statement('lead_parts', {
  sqlite: parts('in (select value from json_each(?1))'),
  postgres: parts('= any($1::text[])'),
});
/** The head as a row of the parts' union: owner is the party, id the lead, version in n2. */
const headAsPart = (id: string) => `
  select 'head' as part, p.id as owner, l.id as id, l.origin as t1, l.backref as t2, l.source as t3, l.created_at as t4,
    l.updated_at as t5, p.distribution_id as t6, p.type as t7, cast(null as integer) as n1, p.version as n2, p.data as data,
    l.status as w1, l.lost_reason as w2, l.assignee_id as w3, l.status_changed_at as w4, l.follow_up_on as w5
    from parties p join leads l on l.party_id = p.id where p.id ${id}
  union all`;
/** One whole lead, as a merge loads it: its head and parts with an equality SQLite looks up once per branch. */
const leadOfOne = statement('lead_of_one', {
  sqlite: `${headAsPart('= ?1')} ${parts('= ?1')}`,
  postgres: `${headAsPart('= $1')} ${parts('= $1')}`,
});

/** The lead of a lead id, locked on PostgreSQL like a party: a lead PATCH names the lead. */
const LOCK_HEAD_OF_LEAD = prepared(
  'lead_head_of_lead_for_update',
  'select p.id from parties p join leads l on l.party_id = p.id where l.id = $1 for update of p',
);
const BY_LEAD = '= (select party_id from leads where id = ?1)';
/** SQLite only: the party looked up once per branch, in the one statement. */
const LEAD_OF_LEAD = `${headAsPart(BY_LEAD)} ${parts(BY_LEAD)}`;

/** Loads the whole lead to change it; on PostgreSQL its party row stays locked to the commit. */
export async function loadLeadForUpdate(
  db: Db,
  partyId: string,
  /** The transaction holds the party's lock already (the push's lookup took it). */
  locked = false,
): Promise<LeadAggregate | undefined> {
  if (dialectOf(db) === 'postgres' && !locked) await runText(db, LOCK_HEAD, [partyId]);
  return assembleOne(await run<PartRow>(db, leadOfOne, [partyId]));
}

/** The same, found by the lead's id (two statements on PostgreSQL, one on SQLite, as by party). */
export async function loadLeadForUpdateByLead(db: Db, leadId: string): Promise<LeadAggregate | undefined> {
  if (dialectOf(db) === 'sqlite') return assembleOne(await runText<PartRow>(db, LEAD_OF_LEAD, [leadId]));
  const [locked] = await runText<{ id: string }>(db, LOCK_HEAD_OF_LEAD, [leadId]);
  return locked === undefined ? undefined : assembleOne(await run<PartRow>(db, leadOfOne, [locked.id]));
}

function assembleOne(rows: readonly PartRow[]): LeadAggregate | undefined {
  const head = rows.find((row) => row.part === 'head');
  if (head === undefined) return undefined;
  const headRow: HeadRow = {
    lead_id: head.id!,
    origin: head.t1,
    backref: head.t2,
    source: head.t3,
    created_at: head.t4!,
    updated_at: head.t5!,
    party_id: head.owner,
    distribution_id: head.t6!,
    type: head.t7 as PartyType,
    data: head.data!,
    version: head.n2!,
    status: head.w1 as LeadStatus,
    lost_reason: head.w2,
    assignee_id: head.w3,
    status_changed_at: head.w4,
    follow_up_on: head.w5,
  };
  return assemble([headRow], rows)[0];
}

/** Loads the whole lead, to read it. */
export async function loadLead(db: Db, partyId: string): Promise<LeadAggregate | undefined> {
  return (await loadLeads(db, [partyId]))[0];
}

/** Whole leads in the order of `partyIds` (unknown ones left out). */
export async function loadLeads(db: Db, partyIds: readonly string[]): Promise<LeadAggregate[]> {
  if (partyIds.length === 0) return [];
  const found = new Map((await run<HeadRow>(db, heads, [[...new Set(partyIds)]])).map((head) => [head.party_id, head]));
  const ordered = partyIds.flatMap((id) => found.get(id) ?? []);
  if (ordered.length === 0) return [];
  return assemble(ordered, await run<PartRow>(db, children, [ordered.map((head) => head.party_id)]));
}

/** Leads from their heads and every row hanging off them (`children`), in the heads' order. */
function assemble(heads: readonly HeadRow[], rows: readonly PartRow[]): LeadAggregate[] {
  const of = groupBy(rows, (row) => `${row.part}\u0000${row.owner}`);
  const part = (name: PartRow['part'], owner: string) => of.get(`${name}\u0000${owner}`) ?? [];
  const byPosition = (a: PartRow, b: PartRow) => Number(a.n1) - Number(b.n1) || compare(a.id, b.id);
  const byTime = (a: PartRow, b: PartRow) => compare(a.t3, b.t3) || compare(a.t1, b.t1) || compare(a.t2, b.t2);

  return heads.map((head): LeadAggregate => {
    const policies = part('policy', head.party_id)
      .sort(byPosition)
      .map(
        (row): InsurancePolicy => ({
          id: row.id!,
          position: Number(row.n1),
          policy_package_id: row.t1,
          data: parse(row.data),
          refs: part('policy_ref', row.id!)
            .sort(byTime)
            .map((ref) => ({ company: ref.t1!, ref: ref.t2! })),
          coverages: part('coverage', row.id!)
            .sort(byPosition)
            .map((c) => ({ id: c.id!, risk_object_id: c.t1, data: parse(c.data) })),
          created_at: row.t3!,
          updated_at: row.t4!,
        }),
      );
    return {
      leadId: head.lead_id,
      partyId: head.party_id,
      distributionId: head.distribution_id,
      type: head.type,
      meta: withoutNulls({ origin: head.origin, backref: head.backref, source: head.source }),
      fields: parse(head.data),
      version: Number(head.version),
      refs: part('ref', head.party_id)
        .sort(byTime)
        .map((row) => ({ company: row.t1!, ref: row.t2! })),
      callbacks: part('callback', head.party_id)
        .sort((a, b) => compare(a.t2, b.t2) || compare(a.t1, b.t1))
        .map((row) => row.t1!),
      riskObjects: part('risk_object', head.party_id)
        .sort(byPosition)
        .map(
          (row): RiskObject => ({
            id: row.id!,
            type: row.t1 as RiskObjectType,
            position: Number(row.n1),
            vin: row.t2,
            created_at: row.t3!,
            updated_at: row.t4!,
            current: { id: row.t5!, revision_nr: Number(row.n2), data: parse(row.data), created_at: row.t6! },
          }),
        ),
      packages: part('package', head.party_id)
        .sort(byPosition)
        .map((row) => ({
          id: row.id!,
          position: Number(row.n1),
          data: parse(row.data),
          created_at: row.t3!,
          updated_at: row.t4!,
        })),
      policies,
      work: {
        status: head.status,
        lostReason: head.lost_reason,
        assigneeId: head.assignee_id,
        statusChangedAt: head.status_changed_at ?? head.created_at,
        followUpOn: head.follow_up_on,
      },
      created_at: head.created_at,
      updated_at: head.updated_at,
    };
  });
}

function parse(text: string | null): Document {
  return JSON.parse(text ?? '{}') as Document;
}

/** Text order as both databases sort text columns here (code point order, the C collation). */
function compare(a: string | null, b: string | null): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}
