// Migrations are listed here rather than discovered on disk, so the set that runs is
// exactly the set that was type-checked and reviewed.
import { PostgresAdapter, sql } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { DB } from './database.ts';
import * as leadIntakeCore from './migrations/2026-11-20T00-00_lead_intake_core.ts';
import * as webhooks from './migrations/2026-11-20T01-00_webhooks.ts';
import * as sso from './migrations/2026-11-20T02-00_sso.ts';
import * as webhookDeliveryHost from './migrations/2026-11-23T00-00_webhook_delivery_host.ts';
import * as brokerAppSessions from './migrations/2026-11-23T04-00_broker_app_sessions.ts';
import * as leadWork from './migrations/2026-11-26T03-00_lead_work.ts';
import * as idempotency from './migrations/2026-11-26T04-00_idempotency.ts';
import * as personalData from './migrations/2026-11-26T05-00_personal_data.ts';
import * as tokenPrefix from './migrations/2026-11-26T06-00_token_prefix.ts';
import * as externalRefLookup from './migrations/2026-11-26T06-10_external_ref_lookup.ts';
import * as searchIndexPlainDelete from './migrations/2026-11-26T07-00_search_index_plain_delete.ts';
import * as inboxProjection from './migrations/2026-11-28T01-00_inbox_projection.ts';
import * as idempotencyAnswerRow from './migrations/2026-11-28T02-00_idempotency_answer_row.ts';
import * as webhookRevokedClaims from './migrations/2026-11-28T03-00_webhook_revoked_claims.ts';
import * as partyDuplicateKeys from './migrations/2026-11-28T05-00_party_duplicate_keys.ts';
import * as mergedParties from './migrations/2026-11-28T05-10_merged_parties.ts';
import * as userNames from './migrations/2026-11-28T06-00_user_names.ts';
import * as routingRules from './migrations/2026-11-28T06-10_routing_rules.ts';
import * as leadFollowUp from './migrations/2026-11-28T07-00_lead_follow_up.ts';
import * as leadSources from './migrations/2026-11-28T07-10_lead_sources.ts';
import * as riskObjectReplacedBy from './migrations/2026-11-29T03-00_risk_object_replaced_by.ts';
import * as sourceCounts from './migrations/2026-11-29T04-00_source_counts.ts';
import * as pushClient from './migrations/2026-11-29T06-00_push_client.ts';
import * as routingTurnSequences from './migrations/2026-11-29T06-50_routing_turn_sequences.ts';
import * as leadCreatedSource from './migrations/2026-11-30T01-00_lead_created_source.ts';
import * as duplicateKeysClustered from './migrations/2026-11-30T03-00_duplicate_keys_clustered.ts';
import * as policyPackageReplacedBy from './migrations/2026-11-30T03-01_policy_package_replaced_by.ts';
import * as inboxSorts from './migrations/2026-11-30T04-00_inbox_sorts.ts';
import * as leadSortName from './migrations/2026-11-30T04-10_lead_sort_name.ts';
import * as leadAssigneeOrder from './migrations/2026-11-30T04-20_lead_assignee_order.ts';
import * as leadKind from './migrations/2026-11-30T04-30_lead_kind.ts';
import * as birthKeysByNameStart from './migrations/2026-11-30T05-00_birth_keys_by_name_start.ts';
import * as duplicateKeysPartyName from './migrations/2026-11-30T06-00_duplicate_keys_party_name.ts';
import * as pushIndexEntries from './migrations/2026-11-30T07-00_push_index_entries.ts';
import * as inboxOrdersProjected from './migrations/2026-11-30T08-00_inbox_orders_projected.ts';
import * as pinAmbiguousCreatedSources from './migrations/2026-11-30T09-00_pin_ambiguous_created_sources.ts';
import * as searchWordsChangedAt from './migrations/2026-11-30T10-00_search_words_changed_at.ts';
import * as webhookDueByHost from './migrations/2026-11-30T11-00_webhook_due_by_host.ts';

const MIGRATIONS: Record<string, Migration> = {
  '2026-11-20T00-00_lead_intake_core': leadIntakeCore,
  '2026-11-20T01-00_webhooks': webhooks,
  '2026-11-20T02-00_sso': sso,
  '2026-11-23T00-00_webhook_delivery_host': webhookDeliveryHost,
  '2026-11-23T04-00_broker_app_sessions': brokerAppSessions,
  '2026-11-26T03-00_lead_work': leadWork,
  '2026-11-26T04-00_idempotency': idempotency,
  '2026-11-26T05-00_personal_data': personalData,
  '2026-11-26T06-00_token_prefix': tokenPrefix,
  '2026-11-26T06-10_external_ref_lookup': externalRefLookup,
  '2026-11-26T07-00_search_index_plain_delete': searchIndexPlainDelete,
  '2026-11-28T01-00_inbox_projection': inboxProjection,
  '2026-11-28T02-00_idempotency_answer_row': idempotencyAnswerRow,
  '2026-11-28T03-00_webhook_revoked_claims': webhookRevokedClaims,
  '2026-11-28T05-00_party_duplicate_keys': partyDuplicateKeys,
  '2026-11-28T05-10_merged_parties': mergedParties,
  '2026-11-28T06-00_user_names': userNames,
  '2026-11-28T06-10_routing_rules': routingRules,
  '2026-11-28T07-00_lead_follow_up': leadFollowUp,
  '2026-11-28T07-10_lead_sources': leadSources,
  '2026-11-29T03-00_risk_object_replaced_by': riskObjectReplacedBy,
  '2026-11-29T04-00_source_counts': sourceCounts,
  '2026-11-29T06-00_push_client': pushClient,
  '2026-11-29T06-50_routing_turn_sequences': routingTurnSequences,
  '2026-11-30T01-00_lead_created_source': leadCreatedSource,
  '2026-11-30T03-00_duplicate_keys_clustered': duplicateKeysClustered,
  '2026-11-30T03-01_policy_package_replaced_by': policyPackageReplacedBy,
  '2026-11-30T04-00_inbox_sorts': inboxSorts,
  '2026-11-30T04-10_lead_sort_name': leadSortName,
  '2026-11-30T04-20_lead_assignee_order': leadAssigneeOrder,
  '2026-11-30T04-30_lead_kind': leadKind,
  '2026-11-30T05-00_birth_keys_by_name_start': birthKeysByNameStart,
  '2026-11-30T06-00_duplicate_keys_party_name': duplicateKeysPartyName,
  '2026-11-30T07-00_push_index_entries': pushIndexEntries,
  '2026-11-30T08-00_inbox_orders_projected': inboxOrdersProjected,
  '2026-11-30T09-00_pin_ambiguous_created_sources': pinAmbiguousCreatedSources,
  '2026-11-30T10-00_search_words_changed_at': searchWordsChangedAt,
  '2026-11-30T11-00_webhook_due_by_host': webhookDueByHost,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Applies every pending migration; returns the names applied now. */
export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider, ...(await migrationTableSchema(db)) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * On PostgreSQL, Kysely looks for its migration tables in any schema unless told which;
 * with several schemas in one database (one per test run, or per tenant) it would find
 * another schema's lock table. Pin them to the schema the connection works in.
 */
async function migrationTableSchema(db: DB): Promise<{ migrationTableSchema?: string }> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return {};
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ? { migrationTableSchema: rows[0].schema } : {};
}
