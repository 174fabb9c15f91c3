// The broker app's inbox (docs/design.md sections 7 and 13; docs/broker-app.md, "Broker
// app"): a page of a distribution's leads as the inbox shows them, filtered and searched in
// the database (inbox.repository.ts), and the counts per status its tabs show.
import type { DatabaseHandle } from '../../db/database.ts';
import { pageOf } from '../../http/pagination.ts';
import type { LeadStatus } from '../model/party.table.ts';
import type { InboxFilter, InboxQuery } from './inbox-filter.ts';
import { countInboxRows, inboxDetails, inboxPosition, listInboxRows, readsProjectedOrder } from './inbox.repository.ts';
import type { InboxProjection } from './inbox-projection.service.ts';
import { countByStatus } from './status-count.repository.ts';

/** Past this many leads a filter's count reads "more than": counting stops there, at any number of leads. */
export const INBOX_COUNT_CAP = 10_000;

export class InboxReader {
  readonly #database: DatabaseHandle;
  readonly #projection: InboxProjection;

  constructor(deps: { database: DatabaseHandle; projection: InboxProjection }) {
    this.#database = deps.database;
    this.#projection = deps.projection;
  }

  /** A page of the broker app's inbox, filtered and searched in the database, in the query's order. */
  async page(query: InboxQuery) {
    const db = this.#database.db;
    // What the projector keeps is brought up to date first: a lead is found by its words, and
    // in its place in the orders SQLite reads from lead_orders, as soon as its push answered.
    if (query.search?.trim() || readsProjectedOrder(query.sort)) await this.#projection.catchUp(query.distributionId);
    const page = pageOf(await listInboxRows(db, this.#database.dialect, query), query.limit, (row) =>
      inboxPosition(query.sort, row),
    );
    const { refs, pushCounts } = await inboxDetails(db, page.rows);
    const count = (leadId: string, status: number) =>
      pushCounts.find((c) => c.lead_id === leadId && c.status === status)?.pushes ?? 0;
    return {
      items: page.rows.map((row) => ({
        leadId: row.lead_id,
        partyId: row.party_id,
        type: row.type,
        fields: JSON.parse(row.data) as Record<string, unknown>,
        origin: row.origin,
        status: row.status,
        lostReason: row.lost_reason,
        assigneeId: row.assignee_id,
        followUpOn: row.follow_up_on,
        refs: refs
          .filter((ref) => ref.entity_id === row.party_id)
          .map(({ company, ref }) => ({ company: company === '' ? null : company, ref })),
        created: count(row.lead_id, 201),
        merged: count(row.lead_id, 200),
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      })),
      next: page.next,
    };
  }

  /**
   * How many leads the filter finds: exact from the counts per status when it filters by
   * status alone (or not at all), else counted up to `cap` (`more` when there are more).
   */
  async count(filter: InboxFilter, cap = INBOX_COUNT_CAP): Promise<{ leads: number; more: boolean }> {
    const { distributionId, status, search, ...others } = filter;
    if (!search?.trim() && Object.values(others).every((value) => value === undefined || value === false)) {
      const counts = await this.countsByStatus(distributionId);
      const leads =
        status === undefined ? [...counts.values()].reduce((sum, n) => sum + n, 0) : (counts.get(status) ?? 0);
      return { leads, more: false };
    }
    if (search?.trim()) await this.#projection.catchUp(distributionId);
    const leads = await countInboxRows(this.#database.db, this.#database.dialect, filter, cap);
    return leads > cap ? { leads: cap, more: true } : { leads, more: false };
  }

  /** The distribution's leads per status (docs/design.md section 13), however many there are. */
  async countsByStatus(distributionId: string): Promise<Map<LeadStatus, number>> {
    return countByStatus(this.#database.db, distributionId);
  }
}
