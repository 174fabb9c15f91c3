import type { LEAD_STATUSES } from './enumerations.ts';

// Row types of the lead aggregate. JSON documents are stored as text so one set of
// migrations serves SQLite and PostgreSQL alike; timestamps are ISO 8601 UTC text, which
// sorts correctly as text on both.

export type PartyType = 'CUSTOMER' | 'COMPANY';
export type RiskObjectType = 'CAR' | 'RESIDENCE';
export type ExternalRefEntity = 'party' | 'policy';

export interface PartyTable {
  id: string;
  distribution_id: string;
  type: PartyType;
  /** JSON object of the prospect's own fields (names, email, birth, address, ...). */
  data: string;
  /** Normalised email + birth + address of a customer; unique per distribution. */
  match_key: string | null;
  /** Incremented on every change: optimistic concurrency and the ETag. */
  version: number;
  created_at: string;
  updated_at: string;
}

export interface LeadTable {
  id: string;
  distribution_id: string;
  party_id: string;
  origin: string | null;
  backref: string | null;
  source: string | null;
  created_at: string;
  updated_at: string;
  /** The broker's work (docs/design.md section 13): never changed by a push. */
  status: LeadStatus;
  /** Only with status `lost`. */
  lost_reason: string | null;
  /** A user of the distribution, or null. */
  assignee_id: string | null;
  status_changed_at: string | null;
  /** The day the broker means to come back to the lead (YYYY-MM-DD), or null (docs/design.md section 13). */
  follow_up_on: string | null;
  /** When the status first moved from `new` (docs/design.md section 13: the sources' reaction time), or null. */
  first_status_at: string | null;
  /**
   * The origin ('' for none) and sender of the push that created the lead, kept here once the
   * push log's retention removed that push (docs/design.md section 13); null until then.
   */
  created_origin: string | null;
  created_sender: string | null;
  /** Folded words the inbox searches (search-words.ts), indexed by FTS5 or GIN. */
  search_words: string;
  /**
   * SQLite only: `updated_at` at the last write that changed `search_words`, null while they are
   * those the lead was created with; the inbox projector indexes them again when it differs
   * from its copy in `lead_orders` (migration 2026-11-30T10-00).
   */
  words_at?: string | null;
  /** The Name column's order: folded name, null without one (party/inbox/search-words.ts, sortNameOf). */
  sort_name: string | null;
  /** The party's type, which never changes, kept for the inbox's Kind order (null only on rows written straight to the table). */
  kind: PartyType | null;
}

export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** One PATCH of a lead or its party: what changed and by whom (the timeline shows it). */
export interface LeadChangeTable {
  id: string;
  lead_id: string;
  party_id: string;
  distribution_id: string;
  changed_at: string;
  /** `token:<id>` or `user:<id>`, as the push log names its caller. */
  caller: string;
  subject: 'lead' | 'party';
  /** JSON array of FieldChange (lead-change.ts). */
  changes: string;
}

/** A broker's note on a lead. */
export interface LeadNoteTable {
  id: string;
  lead_id: string;
  party_id: string;
  distribution_id: string;
  author_id: string;
  body: string;
  created_at: string;
}

/**
 * Leads per status of a distribution, of the leads created before its `counted_to`
 * (LeadProjectionTable): the inbox projector adds the later ones, triggers move a counted
 * lead's status change or delete.
 */
export interface LeadStatusCountTable {
  distribution_id: string;
  status: LeadStatus;
  leads: number;
}

/** How far the inbox projector has come in a distribution (party/inbox/inbox-projection.repository.ts). */
export interface LeadProjectionTable {
  distribution_id: string;
  /** Leads created before this are in lead_status_counts. */
  counted_to: string;
  /** SQLite: leads whose (updated_at, id) is at most this have their current words in lead_search and row in lead_orders. */
  indexed_at: string;
  indexed_id: string;
  /** Pushes received before this are in source_counts (party/stats/source-counts.repository.ts). */
  sourced_to: string;
}

/**
 * SQLite only: what the inbox's orders by status, name and kind sort by, one row per lead
 * keyed by its rowid, filled by the inbox projector after the commits (migration
 * 2026-11-30T08-00). PostgreSQL reads these orders from `leads` itself.
 */
export interface LeadOrderTable {
  lead_rowid: number;
  distribution_id: string;
  id: string;
  status_rank: number | null;
  sort_name: string | null;
  kind: PartyType | null;
  /** The lead's `words_at` when its words went into `lead_search` ('' for rows from before migration 2026-11-30T10-00). */
  words_at: string | null;
}

export interface ExternalRefTable {
  distribution_id: string;
  entity_type: ExternalRefEntity;
  /** '' when the reference names no company: NULLs would not collide in a unique index. */
  company: string;
  ref: string;
  entity_id: string;
  created_at: string;
}

export interface PartyCallbackTable {
  party_id: string;
  url: string;
  created_at: string;
}

export interface RiskObjectTable {
  id: string;
  distribution_id: string;
  party_id: string;
  type: RiskObjectType;
  /** Order within the party: the order of first push. */
  position: number;
  vin: string | null;
  current_revision_id: string;
  created_at: string;
  updated_at: string;
  /** Set when a party update removed the object; its revisions are kept. */
  removed_at: string | null;
  /**
   * The survivor's object that a merge gave this one up for (one car per VIN, one home per
   * address; removed_at set too): a push naming this id lands on that one.
   */
  replaced_by: string | null;
}

export interface RiskObjectRevisionTable {
  id: string;
  risk_object_id: string;
  revision_nr: number;
  data: string;
  created_at: string;
}

export interface PolicyPackageTable {
  id: string;
  position: number;
  distribution_id: string;
  party_id: string;
  data: string;
  created_at: string;
  updated_at: string;
  /**
   * The survivor's package with the same insurance company and package number that a merge
   * joined this one into: a push naming this id lands on that one. Not part of the lead.
   */
  replaced_by: string | null;
}

export interface InsurancePolicyTable {
  id: string;
  position: number;
  distribution_id: string;
  party_id: string;
  policy_package_id: string | null;
  insurance_company: string | null;
  policy_nr: string | null;
  data: string;
  created_at: string;
  updated_at: string;
}

export interface CoverageTable {
  id: string;
  insurance_policy_id: string;
  position: number;
  risk_object_id: string | null;
  data: string;
}

export interface LeadPushTable {
  id: string;
  lead_id: string;
  distribution_id: string;
  received_at: string;
  status: number;
  /** Who pushed: `token:<id>` or `user:<id>`. */
  caller: string;
  /** The SSO client a signed-in user pushed through; null for an API token. */
  client_id: string | null;
  origin: string | null;
  kind: PartyType;
  /** The request body exactly as received. */
  payload: string;
}
