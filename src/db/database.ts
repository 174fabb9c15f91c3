// One query layer over two engines: the embedded SQLite file by default, PostgreSQL when
// DATABASE_URL says so (docs/design.md section 1).
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { NodeSqliteDatabase, createNodeSqliteDialect } from './node-sqlite-dialect.ts';
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
  LeadPushTable,
  LeadTable,
  PartyCallbackTable,
  PartyTable,
  PolicyPackageTable,
  RiskObjectRevisionTable,
  RiskObjectTable,
} from '../party/index.ts';
import type {
  WebhookAttemptTable,
  WebhookDeliveryTable,
  WebhookEventTable,
  WebhookSigningKeyTable,
  WebhookStoppedUrlTable,
} from '../webhooks/webhook.table.ts';
import type { AppSessionTable } from '../broker-app/session.table.ts';

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
  app_sessions: AppSessionTable;
}

export type Dialect = 'sqlite' | 'postgres';
export type DB = Kysely<Database>;

export interface DatabaseHandle {
  readonly db: DB;
  readonly dialect: Dialect;
  /** Human-readable location for logs, without credentials. */
  readonly location: string;
  /** Statements sent since the database was opened (`/metrics`; the benchmark's per-push count). */
  readonly statements: StatementCount;
  close(): Promise<void>;
}

export interface StatementCount {
  count: number;
}

/** Kysely calls `log` once per executed statement, failed ones included. */
function countingLog(statements: StatementCount): () => void {
  return () => {
    statements.count++;
  };
}

export type DatabaseOptions = Pick<Config, 'databaseUrl' | 'dataDir' | 'sqliteSynchronous'> & {
  /** PostgreSQL schema to use instead of `public` (tests isolate themselves this way). */
  readonly postgresSchema?: string;
  readonly poolSize?: number;
};

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const url = new URL(options.databaseUrl);
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      ...(options.postgresSchema ? { options: `-c search_path=${options.postgresSchema}` } : {}),
    });
    const statements = { count: 0 };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: countingLog(statements) });
    return {
      db,
      statements,
      dialect: 'postgres',
      location: `postgres://${url.host}${url.pathname}${options.postgresSchema ? `#${options.postgresSchema}` : ''}`,
      close: () => db.destroy(),
    };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const filename = path.join(options.dataDir, 'lead-intake.db');
  const sqlite = new NodeSqliteDatabase({ filename, synchronous: options.sqliteSynchronous });
  const statements = { count: 0 };
  const db = new Kysely<Database>({ dialect: createNodeSqliteDialect(sqlite), log: countingLog(statements) });
  return {
    db,
    statements,
    dialect: 'sqlite',
    location: filename,
    close: async () => {
      await db.destroy();
      await sqlite.closed();
    },
  };
}
