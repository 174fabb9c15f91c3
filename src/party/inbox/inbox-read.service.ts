// The broker app's inbox (docs/design.md sections 7 and 13; docs/broker-app.md, "Broker
// app"): a page of a distribution's leads as the inbox shows them, filtered and searched in
// the database (inbox.repository.ts), and the counts per status its tabs show.
import type { DatabaseHandle } from '../../db/database.ts';
import { pageOf } from '../../http/pagination.ts';
import type { LeadStatus } from '../model/party.table.ts';
import type { InboxQuery } from './inbox-filter.ts';
import { inboxDetails, listInboxRows } from './inbox.repository.ts';
import type { InboxProjection } from './inbox-projection.service.ts';
import { countByStatus } from './status-count.repository.ts';

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
    // The word index is brought up to date first: a lead is found as soon as its push answered.
    if (query.search?.trim()) await this.#projection.catchUpWords(query.distributionId);
    const page = pageOf(await listInboxRows(db, this.#database.dialect, query), query.limit, (row) => ({
      at: query.sort === 'received' ? row.created_at : row.updated_at,
      id: row.lead_id,
    }));
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

  /** The distribution's leads per status (docs/design.md section 13), however many there are. */
  async countsByStatus(distributionId: string): Promise<Map<LeadStatus, number>> {
    return countByStatus(this.#database.db, distributionId);
  }
}
