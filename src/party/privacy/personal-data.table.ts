// Row types of what personal-data handling keeps (migration 2026-11-26T05-00_personal_data;
// docs/design.md section 15): tombstones, the key of their ref hashes, the audit log and
// the lease of the retention task. None of it reads as a person.

export interface ErasedPartyTable {
  party_id: string;
  distribution_id: string;
  erased_at: string;
  /** `token:<id>`, `user:<id>`, `cli` or `retention`. */
  erased_by: string;
}

export interface ErasedLeadTable {
  lead_id: string;
  party_id: string;
  distribution_id: string;
  erased_at: string;
}

export interface ErasedRefTable {
  distribution_id: string;
  /** HMAC-SHA256 (hex) of the ref's entity type, company and ref under the erasure key. */
  ref_hash: string;
  party_id: string;
}

export interface PersonalDataSecretTable {
  name: string;
  value: string;
  created_at: string;
}

export type AuditAction = 'erase' | 'export';

export interface AuditLogTable {
  id: string;
  at: string;
  action: AuditAction;
  distribution_id: string;
  party_id: string;
  actor: string;
}

export interface BackgroundLeaseTable {
  name: string;
  holder: string;
  expires_at: string;
}
