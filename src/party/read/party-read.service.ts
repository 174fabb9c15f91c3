// Reading a party (docs/api.md, "Reading and updating"): the prospect with its current risk
// objects, policy packages, policies and coverages, and its ETag; and every revision of a
// risk object. Another distribution's party is as unknown as one that does not exist.
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { NotFoundError } from '../../errors.ts';
import { etagOf } from '../model/etag.ts';
import { loadLead } from '../store/lead-load.repository.ts';
import { findPartyKind, listRevisionRows } from './lead-read.repository.ts';
import type { PartyResponse } from '../model/party.schema.ts';
import { partyUrl, representLead, representParty } from '../model/representation.ts';
import { missingParty } from '../privacy/erased-or-unknown.ts';
import { findErasedParty } from '../privacy/tombstone.repository.ts';

export class PartyReader {
  readonly #database: DatabaseHandle;
  readonly #config: Config;

  constructor(deps: { database: DatabaseHandle; config: Config }) {
    this.#database = deps.database;
    this.#config = deps.config;
  }

  async get(distributionId: string, partyId: string): Promise<{ party: PartyResponse; etag: string }> {
    const db = this.#database.db;
    const lead = await loadLead(db, partyId);
    if (!lead || lead.distributionId !== distributionId)
      throw missingParty(await findErasedParty(db, distributionId, partyId));
    return { party: representParty(lead, representLead(lead, this.#config), this.#config), etag: etagOf(lead) };
  }

  /** Every revision of one of the party's risk objects, oldest first; `current` marks the one it holds. */
  async revisions(distributionId: string, partyId: string, riskObjectId: string) {
    const db = this.#database.db;
    if ((await findPartyKind(db, distributionId, partyId)) === undefined)
      throw missingParty(await findErasedParty(db, distributionId, partyId));
    const found = await listRevisionRows(db, partyId, riskObjectId);
    if (!found) throw new NotFoundError('risk_object_id');
    const base = `${partyUrl(this.#config, distributionId, partyId)}/risk_objects/${riskObjectId}/revisions`;
    return found.revisions.map((revision) => ({
      self: `${base}/${revision.id}`,
      risk_object_id: riskObjectId,
      risk_object_revision_id: revision.id,
      risk_object_type: found.object.type,
      revision_nr: Number(revision.revision_nr),
      current: revision.id === found.object.current_revision_id,
      created_at: revision.created_at,
      data: JSON.parse(revision.data) as Record<string, unknown>,
    }));
  }
}
