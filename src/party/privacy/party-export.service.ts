// A person's data, all of it, in one document (docs/design.md section 15; GDPR art. 15 and
// 20): the lead as the API shows it, and every stored row about them, table by table, read
// through the same registry the erasure deletes through (party-rows.repository.ts), so
// nothing the erasure would remove is left out. Push bodies are kept as the exact text
// received. The export is recorded in the audit log, in the same transaction as the reads,
// and shows the audit entries about the person and the 410s remembered for their URLs.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { newRowId } from '../../db/ids.ts';
import type { TransactionRunner } from '../../db/transaction-runner.ts';
import { commitWrite } from '../../db/write.ts';
import { insertAudit, listAuditOfParty } from './audit-log.repository.ts';
import { findStoppedUrlsOfParty } from './remembered-urls.repository.ts';
import { missingParty } from './erased-or-unknown.ts';
import { findErasedParty } from './tombstone.repository.ts';
import type { LeadResponse } from '../model/lead.response.ts';
import { loadLeadForUpdate } from '../store/lead-load.repository.ts';
import { readPartyRows } from './party-rows.repository.ts';
import { representLead } from '../model/representation.ts';

export interface PartyExportDocument {
  readonly exported_at: string;
  readonly distribution_id: string;
  readonly party_id: string;
  readonly lead: LeadResponse;
  readonly records: Record<string, Record<string, unknown>[]>;
}

/** Columns that hold a JSON document the service wrote: shown as JSON, not as text. */
const DOCUMENT_COLUMNS = new Set(['data', 'changes']);

export class PartyExportService {
  readonly #config: Config;
  readonly #transactions: TransactionRunner;

  constructor(deps: { config: Config; transactions: TransactionRunner }) {
    this.#config = deps.config;
    this.#transactions = deps.transactions;
  }

  async export(command: { distributionId: string; partyId: string; actor: string }): Promise<PartyExportDocument> {
    return commitWrite(this.#transactions, (trx) => this.#exportOnce(trx, command));
  }

  async #exportOnce(
    db: Kysely<Database>,
    { distributionId, partyId, actor }: { distributionId: string; partyId: string; actor: string },
  ): Promise<PartyExportDocument> {
    // Locked on PostgreSQL, so no push changes the person half-way through the reads.
    const lead = await loadLeadForUpdate(db, partyId);
    if (lead === undefined || lead.distributionId !== distributionId)
      throw missingParty(await findErasedParty(db, distributionId, partyId));
    const rows = await readPartyRows(db, { distributionId, partyId, leadId: lead.leadId });
    const records: Record<string, Record<string, unknown>[]> = {};
    for (const [kind, list] of Object.entries(rows)) records[kind] = list.map(readable);
    const exportedAt = new Date().toISOString();
    await insertAudit(db, { id: newRowId(), at: exportedAt, action: 'export', distributionId, partyId, actor });
    // What is kept about the person outside their own rows (docs/design.md section 14): who
    // exported them before (this export included), and the 410s remembered for their URLs.
    records.audit_log = await listAuditOfParty(db, distributionId, partyId);
    records.webhook_stopped_urls = await findStoppedUrlsOfParty(db, distributionId, partyId);
    return {
      exported_at: exportedAt,
      distribution_id: distributionId,
      party_id: partyId,
      lead: representLead(lead, this.#config),
      records,
    };
  }
}

function readable(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    out[column] = DOCUMENT_COLUMNS.has(column) && typeof value === 'string' ? JSON.parse(value) : value;
  }
  return out;
}
