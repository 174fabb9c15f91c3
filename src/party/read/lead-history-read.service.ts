// Reading what brokers and partners did to a lead besides pushing it (docs/design.md
// section 13): the change log of its PATCHes (the lead's and the party's, each with what
// changed and who) and its notes, oldest first, for the broker app's timeline.
import type { DatabaseHandle } from '../../db/database.ts';
import type { FieldChange } from '../work/lead-change.ts';
import { findLeadParty } from './lead-read.repository.ts';
import { listChanges, listNotes } from './lead-history.repository.ts';
import { missingLead } from '../privacy/erased-or-unknown.ts';
import { findErasedLead } from '../privacy/tombstone.repository.ts';

export interface LeadChange {
  readonly id: string;
  readonly changed_at: string;
  readonly caller: string;
  readonly subject: 'lead' | 'party';
  readonly changes: readonly FieldChange[];
}

export interface LeadNote {
  readonly id: string;
  readonly author_id: string;
  readonly body: string;
  readonly created_at: string;
}

export class LeadHistoryReader {
  readonly #database: DatabaseHandle;

  constructor(deps: { database: DatabaseHandle }) {
    this.#database = deps.database;
  }

  /** The lead's changes and notes, at most `limit` of each; 404 for another distribution's lead. */
  async of(
    distributionId: string,
    leadId: string,
    limit: number,
  ): Promise<{ changes: LeadChange[]; notes: LeadNote[] }> {
    const db = this.#database.db;
    if ((await findLeadParty(db, distributionId, leadId)) === undefined)
      throw missingLead(await findErasedLead(db, distributionId, leadId));
    const [changes, notes] = await Promise.all([listChanges(db, leadId, limit), listNotes(db, leadId, limit)]);
    return {
      changes: changes.map((row) => ({ ...row, changes: JSON.parse(row.changes) as FieldChange[] })),
      notes,
    };
  }
}
