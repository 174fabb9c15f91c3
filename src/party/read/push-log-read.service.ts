// Reading a lead's push log (docs/design.md section 2, rule 11): every accepted push with its
// time, caller, origin, outcome and body exactly as received, oldest first. Another
// distribution's lead is as unknown as one that does not exist.
import type { DatabaseHandle } from '../../db/database.ts';
import { NotFoundError } from '../../errors.ts';
import type { Position } from '../../db/keyset.ts';
import { pageOf } from '../../http/pagination.ts';
import { findLeadParty } from './lead-read.repository.ts';
import { findLatestPushRow, findPushRow, listPushRows } from './push-log.repository.ts';
import { missingLead } from '../privacy/erased-or-unknown.ts';
import { findErasedLead } from '../privacy/tombstone.repository.ts';

export class PushLogReader {
  readonly #database: DatabaseHandle;

  constructor(deps: { database: DatabaseHandle }) {
    this.#database = deps.database;
  }

  /** A page of the lead's pushes. */
  async list(distributionId: string, leadId: string, after: Position | undefined, limit: number) {
    const db = this.#database.db;
    if ((await findLeadParty(db, distributionId, leadId)) === undefined)
      throw missingLead(await findErasedLead(db, distributionId, leadId));
    const page = pageOf(await listPushRows(db, leadId, after, limit), limit, (row) => ({
      at: row.received_at,
      id: row.id,
    }));
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

  /** One push with its body exactly as received. */
  async get(distributionId: string, leadId: string, pushId: string) {
    const db = this.#database.db;
    if ((await findLeadParty(db, distributionId, leadId)) === undefined)
      throw missingLead(await findErasedLead(db, distributionId, leadId));
    const row = await findPushRow(db, leadId, pushId);
    if (!row) throw new NotFoundError('push_id');
    return { ...row, status: Number(row.status) };
  }

  /** The lead's newest push, undefined when none is kept. */
  async latest(distributionId: string, leadId: string) {
    const db = this.#database.db;
    if ((await findLeadParty(db, distributionId, leadId)) === undefined)
      throw missingLead(await findErasedLead(db, distributionId, leadId));
    const row = await findLatestPushRow(db, leadId);
    return row && { ...row, status: Number(row.status) };
  }
}
