// All SQL of the lead aggregate. Every function takes the transaction as its first
// argument (kysely example app); the service owns the transaction.
import { listingHorizon } from './change-clock.ts';
import { PostgresAdapter, type InsertObject, type Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { ExternalRef, Fields, InsurancePolicy, LeadAggregate } from './party.aggregate.ts';
import type { ExternalRefEntity, PartyType } from './party.table.ts';
import { withoutNulls } from './merge.ts';
import { StaleVersionError } from '../db/errors.ts';
import type { Position } from '../http/pagination.ts';

type Db = Kysely<Database>;

export async function findPartyIdsByRefs(
  db: Db,
  distributionId: string,
  entityType: ExternalRefEntity,
  refs: readonly ExternalRef[],
): Promise<Array<{ entity_id: string; company: string; ref: string }>> {
  if (refs.length === 0) return [];
  return db
    .selectFrom('external_refs')
    .select(['entity_id', 'company', 'ref'])
    .where('distribution_id', '=', distributionId)
    .where('entity_type', '=', entityType)
    .where((eb) => eb.or(refs.map((r) => eb.and([eb('company', '=', r.company), eb('ref', '=', r.ref)]))))
    .execute();
}

export async function findPartyByMatchKey(db: Db, distributionId: string, matchKey: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('parties')
    .select('id')
    .where('distribution_id', '=', distributionId)
    .where('match_key', '=', matchKey)
    .executeTakeFirst();
  return row?.id;
}

export async function findPartyKind(db: Db, distributionId: string, partyId: string): Promise<PartyType | undefined> {
  const row = await db
    .selectFrom('parties')
    .select('type')
    .where('distribution_id', '=', distributionId)
    .where('id', '=', partyId)
    .executeTakeFirst();
  return row?.type;
}

/** Which of these client-chosen ids already exist, and under which party. */
export async function findOwners(
  db: Db,
  table: 'risk_objects' | 'policy_packages',
  ids: readonly string[],
): Promise<Array<{ id: string; party_id: string }>> {
  if (ids.length === 0) return [];
  return db.selectFrom(table).select(['id', 'party_id']).where('id', 'in', ids).execute();
}

/**
 * Loads the whole lead to change it. On PostgreSQL the party row is locked first
 * (SELECT ... FOR UPDATE), so concurrent merges into one party queue up instead of
 * failing their version check; SQLite has a single writer and needs no lock.
 */
export async function loadLeadForUpdate(db: Db, partyId: string): Promise<LeadAggregate | undefined> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.selectFrom('parties').select('id').where('id', '=', partyId).forUpdate().execute();
  }
  return loadLead(db, partyId);
}

/** Loads the whole lead, to read it. */
export async function loadLead(db: Db, partyId: string): Promise<LeadAggregate | undefined> {
  return (await loadLeads(db, [partyId]))[0];
}

/**
 * Loads whole leads, in the order of `partyIds` (unknown ones left out), in the same eight
 * queries however many: a page of 100 leads is not 100 x 8 round trips.
 */
export async function loadLeads(db: Db, partyIds: readonly string[]): Promise<LeadAggregate[]> {
  if (partyIds.length === 0) return [];
  const ids = [...new Set(partyIds)];
  const [heads, refs, callbacks, riskObjects, packages, policies] = await Promise.all([
    db.selectFrom('parties')
      .innerJoin('leads', 'leads.party_id', 'parties.id')
      .select([
        'leads.id as lead_id', 'leads.origin', 'leads.backref', 'leads.source', 'leads.created_at', 'leads.updated_at',
        'parties.id as party_id', 'parties.distribution_id', 'parties.type', 'parties.data', 'parties.version',
      ])
      .where('parties.id', 'in', ids)
      .execute(),
    db.selectFrom('external_refs').select(['entity_id', 'company', 'ref']).where('entity_id', 'in', ids).where('entity_type', '=', 'party')
      .orderBy('created_at').orderBy('company').orderBy('ref').execute(),
    db.selectFrom('party_callbacks').select(['party_id', 'url']).where('party_id', 'in', ids).orderBy('created_at').orderBy('url').execute(),
    db.selectFrom('risk_objects')
      .innerJoin('risk_object_revisions as r', 'r.id', 'risk_objects.current_revision_id')
      .select(['risk_objects.id', 'risk_objects.party_id', 'risk_objects.type', 'risk_objects.position', 'risk_objects.vin', 'risk_objects.created_at',
        'risk_objects.updated_at', 'r.id as revision_id', 'r.revision_nr', 'r.data', 'r.created_at as revision_created_at'])
      .where('risk_objects.party_id', 'in', ids)
      .where('risk_objects.removed_at', 'is', null)
      .orderBy('risk_objects.position').orderBy('risk_objects.id').execute(),
    db.selectFrom('policy_packages').selectAll().where('party_id', 'in', ids).orderBy('position').orderBy('id').execute(),
    db.selectFrom('insurance_policies').selectAll().where('party_id', 'in', ids).orderBy('position').orderBy('id').execute(),
  ]);
  const policyIds = policies.map((p) => p.id);
  const [policyRefs, coverages] = policyIds.length === 0 ? [[], []] : await Promise.all([
    db.selectFrom('external_refs').select(['entity_id', 'company', 'ref']).where('entity_type', '=', 'policy')
      .where('entity_id', 'in', policyIds).orderBy('created_at').orderBy('company').orderBy('ref').execute(),
    db.selectFrom('coverages').selectAll().where('insurance_policy_id', 'in', policyIds).orderBy('position').execute(),
  ]);
  const refsOf = groupBy(refs, (r) => r.entity_id);
  const callbacksOf = groupBy(callbacks, (c) => c.party_id);
  const objectsOf = groupBy(riskObjects, (o) => o.party_id);
  const packagesOf = groupBy(packages, (p) => p.party_id);
  const policiesOf = groupBy(policies, (p) => p.party_id);
  const policyRefsOf = groupBy(policyRefs, (r) => r.entity_id);
  const coveragesOf = groupBy(coverages, (c) => c.insurance_policy_id);
  const headOf = new Map(heads.map((head) => [head.party_id, head]));

  return partyIds.flatMap((partyId): LeadAggregate[] => {
    const head = headOf.get(partyId);
    if (!head) return [];
    return [{
      leadId: head.lead_id,
      partyId: head.party_id,
      distributionId: head.distribution_id,
      type: head.type,
      meta: withoutNulls({ origin: head.origin, backref: head.backref, source: head.source }),
      fields: JSON.parse(head.data) as Fields,
      version: Number(head.version),
      refs: (refsOf.get(partyId) ?? []).map(({ company, ref }) => ({ company, ref })),
      callbacks: (callbacksOf.get(partyId) ?? []).map((c) => c.url),
      riskObjects: (objectsOf.get(partyId) ?? []).map((o) => ({
        id: o.id,
        type: o.type,
        position: Number(o.position),
        vin: o.vin,
        created_at: o.created_at,
        updated_at: o.updated_at,
        current: { id: o.revision_id, revision_nr: Number(o.revision_nr), data: JSON.parse(o.data) as Fields, created_at: o.revision_created_at },
      })),
      packages: (packagesOf.get(partyId) ?? []).map((p) => ({
        id: p.id, position: Number(p.position), data: JSON.parse(p.data) as Fields, created_at: p.created_at, updated_at: p.updated_at,
      })),
      policies: (policiesOf.get(partyId) ?? []).map((p) => ({
        id: p.id,
        position: Number(p.position),
        policy_package_id: p.policy_package_id,
        data: JSON.parse(p.data) as Fields,
        refs: (policyRefsOf.get(p.id) ?? []).map(({ company, ref }) => ({ company, ref })),
        coverages: (coveragesOf.get(p.id) ?? []).map((c) => ({ id: c.id, risk_object_id: c.risk_object_id, data: JSON.parse(c.data) as Fields })),
        created_at: p.created_at,
        updated_at: p.updated_at,
      })),
      created_at: head.created_at,
      updated_at: head.updated_at,
    }];
  });
}

/** Rows grouped by a key, each group in the rows' order. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/**
 * Writes what the merge marked. A merged party is updated only if nobody else changed it
 * since it was loaded (optimistic concurrency on `version`); otherwise StaleVersionError
 * tells the service to run the push again.
 */
export async function saveLead(db: Db, lead: LeadAggregate, options: { isNew: boolean; matchKey: string | null }): Promise<void> {
  const partyRow = { data: JSON.stringify(lead.fields), match_key: options.matchKey, updated_at: lead.updated_at };
  const leadRow = {
    origin: (lead.meta.origin as string | undefined) ?? null,
    backref: (lead.meta.backref as string | undefined) ?? null,
    source: (lead.meta.source as string | undefined) ?? null,
    updated_at: lead.updated_at,
  };
  if (options.isNew) {
    await db.insertInto('parties').values({
      id: lead.partyId, distribution_id: lead.distributionId, type: lead.type, version: lead.version, created_at: lead.created_at, ...partyRow,
    }).execute();
    await db.insertInto('leads').values({
      id: lead.leadId, distribution_id: lead.distributionId, party_id: lead.partyId, created_at: lead.created_at, ...leadRow,
    }).execute();
  } else {
    const result = await db.updateTable('parties')
      .set({ ...partyRow, version: lead.version + 1 })
      .where('id', '=', lead.partyId)
      .where('version', '=', lead.version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new StaleVersionError(`party ${lead.partyId} changed concurrently`);
    lead.version += 1;
    await db.updateTable('leads').set(leadRow).where('id', '=', lead.leadId).execute();
  }
}

export async function insertRefs(
  db: Db,
  distributionId: string,
  entityType: ExternalRefEntity,
  entityId: string,
  refs: readonly ExternalRef[],
  now: string,
): Promise<void> {
  if (refs.length === 0) return;
  await db.insertInto('external_refs')
    .values(refs.map((r) => ({ distribution_id: distributionId, entity_type: entityType, company: r.company, ref: r.ref, entity_id: entityId, created_at: now })))
    .execute();
}

export async function insertCallbacks(db: Db, partyId: string, urls: readonly string[], now: string): Promise<void> {
  if (urls.length === 0) return;
  await db.insertInto('party_callbacks').values(urls.map((url) => ({ party_id: partyId, url, created_at: now }))).execute();
}

/**
 * Risk objects, packages and policies the merge marked as new or changed. New rows go in
 * one multi-row INSERT per table, however many cars, policies or coverages the push
 * carries; only rows whose values differ from row to row (changed ones) are updated one
 * by one.
 */
export async function saveChildren(db: Db, lead: LeadAggregate): Promise<void> {
  const { distributionId, partyId } = lead;
  const objects = lead.riskObjects;
  // Unique values (a car's VIN, a policy's company + number) may move between the party's
  // rows in one merge, a swap included: rows leave the unique indexes first (removed, or
  // their value cleared), then take their new values, so no row meets another's old value.
  const removed = objects.filter((object) => object.removed && !object.isNew);
  for (const [at, ids] of groupIds(removed, (object) => object.updated_at)) {
    await db.updateTable('risk_objects').set({ removed_at: at, updated_at: at }).where('id', 'in', ids).execute();
  }
  const revised = objects.filter((object) => object.newRevision && !object.isNew && !object.removed);
  if (revised.length > 1) await db.updateTable('risk_objects').set({ vin: null }).where('id', 'in', revised.map((object) => object.id)).execute();
  const changedPolicies = lead.policies.filter((policy) => policy.changed && !policy.isNew);
  if (changedPolicies.length > 1) {
    await db.updateTable('insurance_policies').set({ policy_nr: null }).where('id', 'in', changedPolicies.map((policy) => policy.id)).execute();
  }

  for (const object of revised) {
    await db.updateTable('risk_objects')
      .set({ vin: object.vin, current_revision_id: object.current.id, updated_at: object.updated_at })
      .where('id', '=', object.id).execute();
  }
  // The revision references the object and the object names its current revision:
  // the object goes first, pointing at the revision id (no FK on that column).
  await insertRows(db, 'risk_objects', objects.filter((object) => object.isNew).map((object) => ({
    id: object.id, distribution_id: distributionId, party_id: partyId, type: object.type, position: object.position, vin: object.vin,
    current_revision_id: object.current.id, created_at: object.created_at, updated_at: object.updated_at, removed_at: null,
  })));
  await insertRows(db, 'risk_object_revisions', objects.filter((object) => object.newRevision).map((object) => ({
    id: object.current.id, risk_object_id: object.id, revision_nr: object.current.revision_nr,
    data: JSON.stringify(object.current.data), created_at: object.current.created_at,
  })));

  for (const pkg of lead.packages) {
    if (pkg.changed && !pkg.isNew) {
      await db.updateTable('policy_packages').set({ data: JSON.stringify(pkg.data), updated_at: pkg.updated_at }).where('id', '=', pkg.id).execute();
    }
  }
  await insertRows(db, 'policy_packages', lead.packages.filter((pkg) => pkg.isNew).map((pkg) => ({
    id: pkg.id, position: pkg.position, distribution_id: distributionId, party_id: partyId, data: JSON.stringify(pkg.data),
    created_at: pkg.created_at, updated_at: pkg.updated_at,
  })));

  const policyRow = (policy: InsurancePolicy) => ({
    policy_package_id: policy.policy_package_id,
    insurance_company: (policy.data.insurance_company as string | undefined) ?? null,
    policy_nr: (policy.data.policy_nr as string | undefined) ?? null,
    data: JSON.stringify(policy.data),
    updated_at: policy.updated_at,
  });
  for (const policy of changedPolicies) await db.updateTable('insurance_policies').set(policyRow(policy)).where('id', '=', policy.id).execute();
  const newPolicies = lead.policies.filter((policy) => policy.isNew);
  await insertRows(db, 'insurance_policies', newPolicies.map((policy) => ({
    id: policy.id, position: policy.position, distribution_id: distributionId, party_id: partyId, created_at: policy.created_at, ...policyRow(policy),
  })));
  await insertRows(db, 'external_refs', [
    ...newPolicies.flatMap((policy) => policy.refs.map((ref) => refRow(distributionId, policy.id, ref, policy.created_at))),
    ...changedPolicies.flatMap((policy) => (policy.newRefs ?? []).map((ref) => refRow(distributionId, policy.id, ref, policy.updated_at))),
  ]);

  const coveragesReplaced = lead.policies.filter((policy) => policy.coveragesChanged && !policy.isNew).map((policy) => policy.id);
  if (coveragesReplaced.length > 0) await db.deleteFrom('coverages').where('insurance_policy_id', 'in', coveragesReplaced).execute();
  await insertRows(db, 'coverages', lead.policies.filter((policy) => policy.isNew || policy.coveragesChanged).flatMap((policy) =>
    policy.coverages.map((c, position) => ({
      id: c.id, insurance_policy_id: policy.id, position, risk_object_id: c.risk_object_id, data: JSON.stringify(c.data),
    }))));
}

function refRow(distributionId: string, policyId: string, ref: ExternalRef, at: string) {
  return { distribution_id: distributionId, entity_type: 'policy' as const, company: ref.company, ref: ref.ref, entity_id: policyId, created_at: at };
}

function groupIds<T extends { id: string }>(items: readonly T[], key: (item: T) => string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item.id]);
  return groups;
}

/** Rows per INSERT: far below SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const ROWS_PER_INSERT = 1000;

/** One multi-row INSERT (a 100 x 100-coverage push takes a few, within the parameter limits). */
async function insertRows<T extends keyof Database & string>(db: Db, table: T, rows: ReadonlyArray<InsertObject<Database, T>>): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await db.insertInto(table).values(rows.slice(start, start + ROWS_PER_INSERT) as InsertObject<Database, T>[]).execute();
  }
}

export async function insertPush(
  db: Db,
  push: { id: string; lead_id: string; distribution_id: string; received_at: string; status: number; caller: string; origin: string | null; kind: PartyType; payload: string },
): Promise<void> {
  await db.insertInto('lead_pushes').values(push).execute();
}

// Reads for the read endpoints (issue 5): by id, by external ref, changes since a time,
// and the push log. Every query is bounded by the caller's distribution.

export async function findLeadParty(db: Db, distributionId: string, leadId: string): Promise<string | undefined> {
  const row = await db.selectFrom('leads').select('party_id')
    .where('distribution_id', '=', distributionId).where('id', '=', leadId).executeTakeFirst();
  return row?.party_id;
}

export interface LeadListQuery {
  readonly distributionId: string;
  readonly ref?: ExternalRef;
  readonly updatedSince?: string;
  readonly after?: Position;
  readonly limit: number;
}

/** Lead rows in (updated_at, id) order, one more than `limit` to tell if a page follows. */
export async function listLeadRows(db: Db, query: LeadListQuery): Promise<Array<{ id: string; party_id: string; updated_at: string }>> {
  // Nothing a writer still running could yet stamp below (change-clock.ts).
  const horizon = await listingHorizon(db);
  let select = db.selectFrom('leads').select(['leads.id', 'leads.party_id', 'leads.updated_at'])
    .where('leads.distribution_id', '=', query.distributionId);
  if (horizon !== undefined) select = select.where('leads.updated_at', '<', horizon);
  if (query.ref) {
    const { company, ref } = query.ref;
    select = select.where('leads.party_id', 'in', db.selectFrom('external_refs').select('entity_id')
      .where('distribution_id', '=', query.distributionId).where('entity_type', '=', 'party')
      .where('company', '=', company).where('ref', '=', ref));
  }
  if (query.updatedSince) select = select.where('leads.updated_at', '>=', query.updatedSince);
  if (query.after) {
    const { at, id } = query.after;
    // Keyset condition: (updated_at, id) > (at, id), spelled out for both engines.
    select = select.where((eb) => eb.or([eb('leads.updated_at', '>', at), eb.and([eb('leads.updated_at', '=', at), eb('leads.id', '>', id)])]));
  }
  return select.orderBy('leads.updated_at').orderBy('leads.id').limit(query.limit + 1).execute();
}

export async function listPushRows(db: Db, leadId: string, after: Position | undefined, limit: number) {
  let select = db.selectFrom('lead_pushes').select(['id', 'received_at', 'status', 'caller', 'origin', 'kind', 'payload'])
    .where('lead_id', '=', leadId);
  if (after) {
    select = select.where((eb) => eb.or([eb('received_at', '>', after.at), eb.and([eb('received_at', '=', after.at), eb('id', '>', after.id)])]));
  }
  return select.orderBy('received_at').orderBy('id').limit(limit + 1).execute();
}

/** One push of a lead, its body exactly as received (the broker app shows it on demand). */
export async function findPushRow(db: Db, leadId: string, pushId: string) {
  return db.selectFrom('lead_pushes').select(['id', 'received_at', 'status', 'caller', 'origin', 'kind', 'payload'])
    .where('lead_id', '=', leadId).where('id', '=', pushId).executeTakeFirst();
}

export async function listRevisionRows(db: Db, partyId: string, riskObjectId: string) {
  const object = await db.selectFrom('risk_objects').select(['id', 'type', 'current_revision_id'])
    .where('id', '=', riskObjectId).where('party_id', '=', partyId).executeTakeFirst();
  if (!object) return undefined;
  const revisions = await db.selectFrom('risk_object_revisions').select(['id', 'revision_nr', 'data', 'created_at'])
    .where('risk_object_id', '=', riskObjectId).orderBy('revision_nr').execute();
  return { object, revisions };
}
