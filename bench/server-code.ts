// The code a bench server runs: this checkout, or a baseline revision (bench/baseline.ts).
// Each migrates its own fresh database and issues its own tokens, so a revision never
// starts on a database another revision's migrations made, and each says which features
// a scenario needs it has.
import { createApiToken } from '../src/auth/api-token.service.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { insertDistribution } from '../src/distributions/distribution.repository.ts';
import { setRoutingRules } from '../src/party/index.ts';
import { createUser } from '../src/sso/index.ts';
import {
  type BenchDatabase,
  type BenchDialect,
  type BenchTarget,
  createBenchTarget,
  type Tenant,
  withTenants,
} from './database.ts';
import { ROOT } from './processes.ts';

/** What some scenarios need and early revisions lack (bench/baseline-eras.ts says since when). */
export type Feature = 'listing' | 'webhooks' | 'batch' | 'idempotency-key';

export interface ServerCode {
  /** How a report names it: `this checkout`, or the revision's short hash. */
  readonly label: string;
  /** The revision's short hash; undefined for this checkout. */
  readonly revision: string | undefined;
  /** The checkout whose src/server.ts runs. */
  readonly root: string;
  /** Why a scenario needing `feature` cannot run on this code, or undefined when it can. */
  lacks(feature: Feature): string | undefined;
  /** Migrates the empty target and makes `distributions` distributions, each with a token of `scopes`. */
  prepare(target: BenchTarget, scopes: readonly string[], distributions: number): Promise<Tenant[]>;
}

/**
 * BENCH_ROUTING=round_robin (bench/options.ts checks it): this checkout's distributions route
 * every new lead, after a rule that matches none, round-robin over three users: what a push
 * costs with rules (a turn taken and a history entry per creation). A baseline's have none.
 */
const ROUTING = process.env.BENCH_ROUTING?.trim() === 'round_robin';

async function routeRoundRobin(db: Parameters<typeof setRoutingRules>[0], distributionId: string): Promise<void> {
  const users: string[] = [];
  for (const name of ['ann', 'bob', 'cas'])
    users.push(
      (
        await createUser(db, {
          distributionId,
          email: `${name}@bench.example`,
          username: `${name}-${distributionId.slice(0, 8)}`,
          password: 'bench-password-1234',
        })
      ).id,
    );
  const rules = [
    { when: { language: ['xx'] }, assign: { user: users[0] } },
    { when: {}, assign: { round_robin: users } },
  ];
  await setRoutingRules(db, distributionId, JSON.stringify({ rules }));
}

/** What a push, merge and listing scenario needs: every revision since the first push has these scopes. */
export const PUSH_SCOPES: readonly string[] = ['leads:write', 'leads:read', 'parties:update'];

export const CURRENT_CODE: ServerCode = currentCode(ROUTING);

/** This checkout, its distributions routing every new lead round-robin or not (BENCH_ONLY=routing compares the two). */
export function currentCode(routing: boolean): ServerCode {
  return {
    label: routing ? 'this checkout, round-robin' : 'this checkout',
    revision: undefined,
    root: ROOT,
    lacks: () => undefined,
    prepare: async (target, scopes, distributions) => {
      const handle = openDatabase({
        databaseUrl: target.env.DATABASE_URL || undefined,
        dataDir: target.env.DATA_DIR ?? '',
        sqliteSynchronous: 'NORMAL',
        poolSize: 2,
      });
      try {
        await migrateToLatest(handle.db);
        const tenants: Tenant[] = [];
        for (let i = 0; i < distributions; i++) {
          const distribution = await insertDistribution(handle.db, `Benchmark distribution ${i + 1}`);
          const issued = await createApiToken(handle.db, {
            distributionId: distribution.id,
            scopes: [...scopes],
            name: 'bench',
          });
          if (routing) await routeRoundRobin(handle.db, distribution.id);
          tenants.push({ distributionId: distribution.id, token: issued.token });
        }
        return tenants;
      } finally {
        await handle.close();
      }
    },
  };
}

/** A fresh database prepared by `code` (this checkout unless given); the caller drops it. */
export async function createBenchDatabase(
  dialect: BenchDialect,
  postgresUrl: string,
  scopes: readonly string[] = PUSH_SCOPES,
  distributions = 1,
  code: ServerCode = CURRENT_CODE,
): Promise<BenchDatabase> {
  const target = await createBenchTarget(dialect, postgresUrl);
  try {
    return withTenants(target, await code.prepare(target, scopes, distributions));
  } catch (error) {
    await target.drop();
    throw error;
  }
}
