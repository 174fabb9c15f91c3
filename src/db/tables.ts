// Every table of the database by name, assembled from the row types each feature declares
// in its own *.table.ts (docs/design.md section 10). Only types: it imports no feature's
// code, so the database layer and the features that use it never import each other.
import type { Kysely } from 'kysely';
import type { DistributionTable } from '../distributions/distribution.table.ts';
import type { ApiTokenTable } from '../auth/api-token.table.ts';
import type {
  OidcPayloadTable,
  SsoClientTable,
  SsoLoginFailureTable,
  SsoSecretTable,
  SsoSigningKeyTable,
  UserTable,
} from '../sso/sso.table.ts';
import type {
  CoverageTable,
  ExternalRefTable,
  InsurancePolicyTable,
  LeadChangeTable,
  LeadNoteTable,
  LeadOrderTable,
  LeadPushTable,
  LeadProjectionTable,
  LeadStatusCountTable,
  LeadTable,
  PartyCallbackTable,
  PartyTable,
  PolicyPackageTable,
  RiskObjectRevisionTable,
  RiskObjectTable,
} from '../party/model/party.table.ts';
import type {
  WebhookAttemptTable,
  WebhookDeliveryTable,
  WebhookEventTable,
  WebhookSigningKeyTable,
  WebhookStoppedUrlTable,
  WebhookRevokedClaimTable,
} from '../webhooks/webhook.table.ts';
import type { SourceCountTable } from '../party/stats/source-counts.table.ts';
import type { RoutingRuleTable } from '../party/routing/routing.table.ts';
import type { PartyDuplicateKeyTable } from '../party/duplicates/duplicate-keys.table.ts';
import type { MergedPartyTable } from '../party/party-merge/merged-party.table.ts';
import type { AppSessionTable } from '../broker-app/sign-in/session.table.ts';
import type { IdempotencyAnswerPartyTable, IdempotencyAnswerTable } from '../idempotency/idempotency.table.ts';
import type {
  AuditLogTable,
  BackgroundLeaseTable,
  ErasedLeadTable,
  ErasedPartyTable,
  ErasedRefTable,
  PersonalDataSecretTable,
} from '../party/privacy/personal-data.table.ts';

export interface Database {
  distributions: DistributionTable;
  api_tokens: ApiTokenTable;
  parties: PartyTable;
  leads: LeadTable;
  external_refs: ExternalRefTable;
  party_callbacks: PartyCallbackTable;
  risk_objects: RiskObjectTable;
  risk_object_revisions: RiskObjectRevisionTable;
  policy_packages: PolicyPackageTable;
  insurance_policies: InsurancePolicyTable;
  coverages: CoverageTable;
  lead_pushes: LeadPushTable;
  routing_rules: RoutingRuleTable;
  party_duplicate_keys: PartyDuplicateKeyTable;
  merged_parties: MergedPartyTable;
  lead_changes: LeadChangeTable;
  lead_notes: LeadNoteTable;
  lead_status_counts: LeadStatusCountTable;
  lead_projections: LeadProjectionTable;
  /** SQLite only (migration 2026-11-30T08-00). */
  lead_orders: LeadOrderTable;
  source_counts: SourceCountTable;
  users: UserTable;
  sso_clients: SsoClientTable;
  oidc_payloads: OidcPayloadTable;
  sso_signing_keys: SsoSigningKeyTable;
  sso_secrets: SsoSecretTable;
  sso_login_failures: SsoLoginFailureTable;
  webhook_signing_keys: WebhookSigningKeyTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  webhook_stopped_urls: WebhookStoppedUrlTable;
  webhook_revoked_claims: WebhookRevokedClaimTable;
  app_sessions: AppSessionTable;
  idempotency_answers: IdempotencyAnswerTable;
  idempotency_answer_parties: IdempotencyAnswerPartyTable;
  erased_parties: ErasedPartyTable;
  erased_leads: ErasedLeadTable;
  erased_refs: ErasedRefTable;
  personal_data_secrets: PersonalDataSecretTable;
  audit_log: AuditLogTable;
  background_leases: BackgroundLeaseTable;
}

export type Dialect = 'sqlite' | 'postgres';
export type DB = Kysely<Database>;
