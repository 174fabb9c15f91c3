// Reading leads back (docs/api.md, "Reading and updating"): what a broker platform needs to find
// its lead again and to sync changes, and what the broker app's pages show (docs/design.md
// section 7; its inbox is inbox/inbox-read.service.ts). Reads never cross distributions:
// another distribution's id is unknown.
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { etagOf } from '../model/etag.ts';
import { findLeadParty, listChangeRows, type LeadListQuery } from './lead-read.repository.ts';
import { loadLead, loadLeads } from '../store/lead-load.repository.ts';
import { representLead } from '../model/representation.ts';
import type { Position } from '../../db/keyset.ts';
import { pageOf } from '../../http/pagination.ts';
import type { LeadResponse } from '../model/lead.response.ts';
import { listingHorizon } from '../store/change-clock.repository.ts';
import { erasedLeadsQuery, findErasedLead, findErasedParty } from '../privacy/tombstone.repository.ts';
import type { RefHashes } from '../privacy/ref-hashes.service.ts';
import { missingLead, missingParty } from '../privacy/erased-or-unknown.ts';
import { mergedLeadsQuery, type MergedInto } from '../party-merge/merged-parties.repository.ts';

/** A lead merged into another (docs/api.md, "Merging two parties"): its ids and the survivor's. */
export interface MergedLeadEntry {
  readonly id: string;
  readonly party_id: string;
  readonly merged_into: MergedInto;
  readonly updated_at: string;
}

/** An erased lead in the change listing: its ids and when it was erased, nothing else. */
export interface ErasedLeadEntry {
  readonly id: string;
  readonly party_id: string;
  readonly erased: true;
  readonly updated_at: string;
}

export interface Page<T> {
  readonly items: T[];
  /** Where the next page starts; undefined on the last page. */
  readonly next: Position | undefined;
}

export class LeadReader {
  readonly #database: DatabaseHandle;
  readonly #config: Config;

  readonly #refHashes: RefHashes | undefined;

  constructor(deps: { database: DatabaseHandle; config: Config; refHashes?: RefHashes }) {
    this.#database = deps.database;
    this.#config = deps.config;
    this.#refHashes = deps.refHashes;
  }

  async get(distributionId: string, leadId: string): Promise<{ lead: LeadResponse; etag: string }> {
    const db = this.#database.db;
    const partyId = await findLeadParty(db, distributionId, leadId);
    const lead = partyId === undefined ? undefined : await loadLead(db, partyId);
    if (!lead) throw missingLead(await findErasedLead(db, distributionId, leadId));
    return { lead: representLead(lead, this.#config), etag: etagOf(lead) };
  }

  /**
   * The change listing: leads and erased leads (docs/design.md section 15) in one
   * (updated_at, id) order, both bounded by the same horizon so neither skips the other.
   */
  async list(query: LeadListQuery): Promise<Page<LeadResponse | ErasedLeadEntry | MergedLeadEntry>> {
    const db = this.#database.db;
    // Nothing a writer still running could yet stamp below (change-clock.repository.ts).
    const horizon = await listingHorizon(db);
    const ref = query.ref;
    // An erased ref is kept only as a hash of ref and company together: a lookup of a ref
    // without its company (docs/api.md, "Reading and updating") finds live leads of any
    // company, and no erased ones, which cannot be told apart without the company.
    const withErased = ref === undefined || ref.company !== undefined;
    const refHash =
      ref?.company !== undefined ? (await this.#refHashes?.hasher())?.({ ...ref, company: ref.company }) : undefined;
    // A merged lead's refs moved to its survivor: a look-up by ref finds the survivor alone.
    const rows = (
      await listChangeRows(db, query, horizon, {
        ...(withErased && { erased: erasedLeadsQuery(db, { ...query, refHash, before: horizon }) }),
        ...(ref === undefined && { merged: mergedLeadsQuery(db, { ...query, before: horizon }) }),
      })
    ).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const page = pageOf(rows.slice(0, query.limit + 1), query.limit, (row) => ({ at: row.at, id: row.id }));
    const leads = new Map(
      (
        await loadLeads(
          db,
          page.rows.filter((row) => row.kind === 'lead').map((row) => row.party_id),
        )
      ).map((lead) => [lead.leadId, lead]),
    );
    const items = page.rows.map((row): LeadResponse | ErasedLeadEntry | MergedLeadEntry => {
      const lead = leads.get(row.id);
      if (lead) return representLead(lead, this.#config);
      return row.kind === 'merged'
        ? {
            id: row.id,
            party_id: row.party_id,
            merged_into: { party_id: row.into_party_id!, lead_id: row.into_lead_id! },
            updated_at: row.at,
          }
        : { id: row.id, party_id: row.party_id, erased: true, updated_at: row.at };
    });
    return { items, next: page.next };
  }

  /** The lead of a party (the broker app's pages are addressed by party id, as `href` is). */
  async getByParty(distributionId: string, partyId: string): Promise<LeadResponse> {
    return (await this.getByPartyWithEtag(distributionId, partyId)).lead;
  }

  /** The same with its ETag, for a form that changes it (If-Match). */
  async getByPartyWithEtag(distributionId: string, partyId: string): Promise<{ lead: LeadResponse; etag: string }> {
    const db = this.#database.db;
    const lead = await loadLead(db, partyId);
    if (!lead || lead.distributionId !== distributionId)
      throw missingParty(await findErasedParty(db, distributionId, partyId));
    return { lead: representLead(lead, this.#config), etag: etagOf(lead) };
  }
}
