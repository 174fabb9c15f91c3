// Reading leads back (issue 5): what a broker platform needs to find its lead again and to
// sync changes. Reads never cross distributions: another distribution's id is unknown.
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { NotFoundError } from '../errors.ts';
import type { LeadAggregate } from './party.aggregate.ts';
import { findLeadParty, listLeadRows, listPushRows, type LeadListQuery } from './repository.ts';
import { loadLead } from './repository.ts';
import { representLead } from './representation.ts';
import { pageOf, type Position } from '../http/pagination.ts';
import type { LeadResponse } from './lead.response.ts';

export interface Page<T> {
  readonly items: T[];
  /** Where the next page starts; undefined on the last page. */
  readonly next: Position | undefined;
}

/** A strong ETag that changes with every stored change to the lead (its party's version). */
export function etagOf(lead: Pick<LeadAggregate, 'partyId' | 'version'>): string {
  return `"${lead.partyId.slice(0, 8)}-${lead.version}"`;
}

export class LeadReader {
  readonly #database: DatabaseHandle;
  readonly #config: Config;

  constructor(deps: { database: DatabaseHandle; config: Config }) {
    this.#database = deps.database;
    this.#config = deps.config;
  }

  async get(distributionId: string, leadId: string): Promise<{ lead: LeadResponse; etag: string }> {
    const db = this.#database.db;
    const partyId = await findLeadParty(db, distributionId, leadId);
    const lead = partyId === undefined ? undefined : await loadLead(db, partyId);
    if (!lead) throw new NotFoundError('lead_id');
    return { lead: representLead(lead, this.#config), etag: etagOf(lead) };
  }

  async list(query: LeadListQuery): Promise<Page<LeadResponse>> {
    const db = this.#database.db;
    const page = pageOf(await listLeadRows(db, query), query.limit, (row) => ({ at: row.updated_at, id: row.id }));
    const items: LeadResponse[] = [];
    for (const row of page.rows) {
      const lead = await loadLead(db, row.party_id);
      if (lead) items.push(representLead(lead, this.#config));
    }
    return { items, next: page.next };
  }

  async pushes(distributionId: string, leadId: string, after: Position | undefined, limit: number) {
    const db = this.#database.db;
    if ((await findLeadParty(db, distributionId, leadId)) === undefined) throw new NotFoundError('lead_id');
    const page = pageOf(await listPushRows(db, leadId, after, limit), limit, (row) => ({ at: row.received_at, id: row.id }));
    return {
      items: page.rows.map((row) => ({
        id: row.id,
        received_at: row.received_at,
        status: Number(row.status),
        caller: row.caller,
        origin: row.origin,
        kind: row.kind,
        // The body exactly as received; JSON, since it was accepted.
        payload: JSON.parse(row.payload) as Record<string, unknown>,
      })),
      next: page.next,
    };
  }
}
