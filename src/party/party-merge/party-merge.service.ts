// Merging two parties (docs/api.md, "Merging two parties"): in one transaction, everything of
// the merged party moves to the survivor (refs, callbacks, risk objects with their revisions,
// packages, policies, coverages, push log, notes, history, webhook events), each table in one
// set-based statement (party-merge.repository.ts); the survivor's fields win and the merged
// party's fill the empty ones; the merged ids are recorded so reads answer 410 `Merged` and a
// push naming them reaches the survivor; the survivor's history and a signed `party.merged`
// event to both parties' callbacks say so.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { newRowId } from '../../db/ids.ts';
import type { TransactionRunner } from '../../db/transaction-runner.ts';
import { commitWrite } from '../../db/write.ts';
import { ConflictError, ErasedError, MergedError, ValidationError } from '../../errors.ts';
import { WebhookOutbox } from '../../webhooks/webhook.outbox.ts';
import { duplicateKeysOf } from '../duplicates/duplicate-keys.ts';
import { etagOf, requireIfMatch } from '../model/etag.ts';
import type { LeadResponse } from '../model/lead.response.ts';
import { type LeadAggregate, nextPosition } from '../model/party.aggregate.ts';
import type { PartyResponse } from '../model/party.schema.ts';
import { representLead, representParty } from '../model/representation.ts';
import { missingParty } from '../privacy/erased-or-unknown.ts';
import { findErasedParty } from '../privacy/tombstone.repository.ts';
import { findMatchKeyOwner } from '../push/key-owners.repository.ts';
import { customerMatchKey } from '../push/match-key.ts';
import { writeClock } from '../store/change-clock.repository.ts';
import { applyChangeset } from '../store/changeset.repository.ts';
import { loadLeadForUpdate } from '../store/lead-load.repository.ts';
import { stampAfter } from '../store/lead-stamp.ts';
import { partyChanges } from '../work/lead-change.ts';
import { joinedPackages, joinedPolicies, mergedFields, sameRiskObjects, survivorChangeset } from './party-merge.ts';
import { findMergedParty, recordMerge } from './merged-parties.repository.ts';
import { moveMergedRows } from './party-merge.repository.ts';

export interface MergeCommand {
  readonly distributionId: string;
  /** The survivor. */
  readonly partyId: string;
  /** The party merged into it. */
  readonly from: string;
  readonly ifMatch: string | undefined;
  /** `token:<id>` or `user:<id>` (describeCaller). */
  readonly caller: string;
}

export interface MergeResult {
  readonly party: PartyResponse;
  readonly etag: string;
  readonly lead: LeadResponse;
}

const SUBJECT = 'PartyMerge';

export class PartyMergeService {
  readonly #config: Config;
  readonly #transactions: TransactionRunner;
  readonly #outbox: WebhookOutbox | undefined;

  constructor(deps: { config: Config; transactions: TransactionRunner; outbox?: WebhookOutbox }) {
    this.#config = deps.config;
    this.#transactions = deps.transactions;
    this.#outbox = deps.outbox;
  }

  async merge(command: MergeCommand): Promise<MergeResult> {
    if (command.from === command.partyId)
      throw new ValidationError([{ target: 'from', code: 'merge_itself' }], SUBJECT);
    return commitWrite(
      this.#transactions,
      (trx) => this.#mergeOnce(trx, command),
      (result) => {
        if (WebhookOutbox.hasRecipients(result.lead)) this.#outbox?.committed();
      },
    );
  }

  #represent(lead: LeadAggregate): MergeResult {
    const representation = representLead(lead, this.#config);
    return { party: representParty(lead, representation, this.#config), etag: etagOf(lead), lead: representation };
  }

  async #mergeOnce(db: Kysely<Database>, command: MergeCommand): Promise<MergeResult> {
    const { distributionId: d, partyId, from } = command;
    // Both locked, always in the same order, so two merges of the same pair never deadlock.
    const loaded = new Map<string, LeadAggregate | undefined>();
    for (const id of [partyId, from].sort()) loaded.set(id, await loadLeadForUpdate(db, id));
    const own = (lead: LeadAggregate | undefined) => (lead?.distributionId === d ? lead : undefined);
    const survivor = own(loaded.get(partyId));
    if (survivor === undefined) throw missingParty(await findErasedParty(db, d, partyId));
    const merged = own(loaded.get(from));
    if (merged === undefined) {
      const into = await findMergedParty(db, d, from);
      // The same merge again (a retry whose answer was lost): the survivor as it is now.
      if (into?.party_id === partyId) {
        requireIfMatch(command.ifMatch, survivor);
        return this.#represent(survivor);
      }
      if (into !== undefined) throw new MergedError('from', into);
      if ((await findErasedParty(db, d, from)) !== undefined)
        throw new ErasedError(410, [{ target: 'from', code: 'erased' }], SUBJECT);
      throw new ValidationError([{ target: 'from', code: 'unknown_reference' }], SUBJECT);
    }
    requireIfMatch(command.ifMatch, survivor);
    if (merged.type !== survivor.type) throw new ValidationError([{ target: 'from', code: 'merge_kind' }], SUBJECT);

    const now = stampAfter(
      await writeClock(db),
      survivor.updated_at > merged.updated_at ? survivor.updated_at : merged.updated_at,
    );
    const matchKey = await this.#matchKey(db, survivor, merged);
    // Nothing kept twice: the survivor's car with a VIN, home at an address, package and policy
    // with a number stand for the merged party's one (docs/api.md, "Merging two parties").
    const sameObjects = sameRiskObjects(survivor, merged);
    const packages = joinedPackages(survivor, merged, now);
    const joined = joinedPolicies(survivor, merged, sameObjects, packages, now);
    await moveMergedRows(db, {
      distributionId: d,
      from: { partyId: merged.partyId, leadId: merged.leadId },
      into: { partyId: survivor.partyId, leadId: survivor.leadId },
      now,
      offsets: {
        riskObjects: nextPosition(survivor.riskObjects),
        packages: nextPosition(survivor.packages),
        policies: nextPosition(survivor.policies),
      },
      sameObjects,
      joinedPolicies: joined,
      joinedPackages: packages,
    });
    await recordMerge(db, {
      party_id: merged.partyId,
      lead_id: merged.leadId,
      distribution_id: d,
      merged_into_party_id: survivor.partyId,
      merged_into_lead_id: survivor.leadId,
      merged_at: now,
      merged_by: command.caller,
    });

    // The survivor with everything it holds now, and its fields filled from the merged party's.
    const moved = (await loadLeadForUpdate(db, partyId))!;
    const joinedById = new Map(joined.map((row) => [row.into, row.policy]));
    const packagesById = new Map(packages.map((row) => [row.into, row.package]));
    const lead: LeadAggregate = {
      ...moved,
      // The joined packages' data is written now; the merged party's were kept as replaced.
      packages: moved.packages.map((pkg) => packagesById.get(pkg.id) ?? pkg),
      // The joined policies' refs moved by statement; their data, package and coverages are written now.
      policies: moved.policies.map((policy) => {
        const into = joinedById.get(policy.id);
        return into === undefined ? policy : { ...into, refs: policy.refs };
      }),
      fields: mergedFields(survivor.fields, merged.fields),
      meta: mergedFields(survivor.meta, merged.meta),
      version: survivor.version + 1,
      updated_at: now,
    };
    await applyChangeset(db, lead, survivorChangeset(duplicateKeysOf(lead), { packages, policies: joined }), {
      matchKey,
      // The survivor's history: who merged which party into it, and what its fields gained.
      changeLog: {
        id: newRowId(),
        lead_id: lead.leadId,
        party_id: lead.partyId,
        distribution_id: d,
        changed_at: now,
        caller: command.caller,
        subject: 'party',
        changes: JSON.stringify([
          { field: 'merged_party', after: { party_id: merged.partyId, lead_id: merged.leadId } },
          // Each package and policy of the merged party that became one of the survivor's.
          ...packages.map((row) => ({ field: 'policy_package', before: { id: row.from }, after: { id: row.into } })),
          ...joined.map((row) => ({ field: 'insurance_policy', before: { id: row.from }, after: { id: row.into } })),
          ...partyChanges(survivor, lead),
        ]),
      },
    });
    const result = this.#represent(lead);
    await this.#outbox?.recordMerge(db, {
      distributionId: d,
      at: now,
      callbacks: lead.callbacks,
      partyId: survivor.partyId,
      leadId: survivor.leadId,
      mergedPartyId: merged.partyId,
      mergedLeadId: merged.leadId,
    });
    return result;
  }

  /**
   * The survivor's e-mail + birth + address key (rule 1) once the merged party's fields fill
   * its empty ones. A key that a third party holds is refused (409 on `from`, nothing written):
   * the survivor would have that party's e-mail, birth date and address, so a push with them
   * would match two parties (rule 4), as a PATCH or push giving it that key is refused. The
   * broker merges that party too (into the survivor first, or the two into it). The merged
   * party's own key is no third party's: the survivor may take it (moveMergedRows frees it).
   */
  async #matchKey(db: Kysely<Database>, survivor: LeadAggregate, merged: LeadAggregate): Promise<string | null> {
    if (survivor.type !== 'CUSTOMER') return null;
    const key = customerMatchKey(mergedFields(survivor.fields, merged.fields));
    if (key === null || key === customerMatchKey(survivor.fields)) return key;
    const owner = await findMatchKeyOwner(db, survivor.distributionId, key);
    if (owner !== undefined && owner !== survivor.partyId && owner !== merged.partyId)
      throw new ConflictError([{ target: 'from', code: 'merge_match_key', params: { party_id: owner } }], SUBJECT);
    return key;
  }
}
