// What each era of the project offers a benchmark of an older revision, read from `git log`:
// how a fresh database is migrated and given a distribution and a token, and since which
// commit each feature a scenario needs exists. Every era starts its server the same way
// (`npm start` has been `node src/server.ts` from the first commit) and reads the same
// environment names (DATA_DIR, DATABASE_URL, NODE_ENV, LOG_LEVEL, SQLITE_SYNCHRONOUS,
// WEBHOOK_ALLOW_PRIVATE_NETWORKS from the first commit; RATE_LIMIT since a51fcde and
// WEBHOOK_WORKER since c52bc6b, which earlier revisions ignore: they had no rate limit and no
// worker). A new era is a new entry here, not a branch in the callers.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { BenchTarget, Tenant } from './database.ts';
import type { Feature } from './server-code.ts';

/** "Lead push: matching, merge with ...": the first revision whose server takes pushes. */
export const FIRST_PUSH = '70bfddd';

export const FEATURES: Readonly<Record<Feature, { readonly since: string; readonly what: string }>> = {
  listing: { since: '2d181bb', what: 'the change listing (GET .../leads)' },
  webhooks: { since: 'c52bc6b', what: 'webhook delivery (the outbox and its worker)' },
  batch: { since: '6f84d58', what: 'POST .../leads/batch' },
  'idempotency-key': { since: 'c9d4676', what: 'Idempotency-Key' },
};

/** Makes a fresh database ready for pushes with the revision's own code, in processes run from its checkout. */
type Preparation = (root: string, target: BenchTarget, scopes: readonly string[], distributions: number) => Tenant[];

interface Era {
  /** The first commit of the era. */
  readonly since: string;
  readonly how: string;
  readonly prepare: Preparation;
}

/** Runs `node <args>` in the revision's checkout against the target, and returns its stdout. */
function runIn(root: string, target: BenchTarget, args: readonly string[]): string {
  return execFileSync(process.execPath, args, {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...target.env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * No command line and no first-start demo yet: a script imports the revision's own
 * configuration, database, migrations, distribution and token modules, as its tests did.
 */
const throughModules: Preparation = (root, target, scopes, distributions) => {
  const script = `
    const { loadConfig } = await import('./src/config.ts');
    const { openDatabase } = await import('./src/db/database.ts');
    const { migrateToLatest } = await import('./src/db/migrate.ts');
    const { insertDistribution } = await import('./src/distributions/distribution.repository.ts');
    const { createApiToken } = await import('./src/auth/api-token.service.ts');
    const database = openDatabase(loadConfig());
    await migrateToLatest(database.db);
    const tenants = [];
    for (let i = 0; i < ${distributions}; i++) {
      const distribution = await insertDistribution(database.db, 'Benchmark distribution ' + (i + 1));
      const issued = await createApiToken(database.db, { distributionId: distribution.id, scopes: ${JSON.stringify(scopes)}, name: 'bench' });
      tenants.push({ distributionId: distribution.id, token: issued.token });
    }
    await database.close();
    process.stdout.write(JSON.stringify(tenants));`;
  return JSON.parse(runIn(root, target, ['--input-type=module', '-e', script])) as Tenant[];
};

/** The `lead-intake` command: its migrate, distribution create and token create have kept their options since. */
const throughCommandLine: Preparation = (root, target, scopes, distributions) => {
  const command = (...args: string[]) =>
    JSON.parse(runIn(root, target, [path.join(root, 'bin/lead-intake.js'), ...args])) as Record<string, string>;
  command('migrate');
  return Array.from({ length: distributions }, (_, i) => {
    const distribution = command('distribution', 'create', '--name', `Benchmark distribution ${i + 1}`);
    const issued = command(
      'token',
      'create',
      '--distribution',
      distribution.id!,
      '--scopes',
      scopes.join(','),
      '--name',
      'bench',
    );
    return { distributionId: distribution.id!, token: issued.token! };
  });
};

/** Oldest first. */
const ERAS: readonly Era[] = [
  { since: FIRST_PUSH, how: "the revision's own modules, imported by a script", prepare: throughModules },
  { since: '24d74ba', how: 'lead-intake migrate, distribution create, token create', prepare: throughCommandLine },
];

/** Whether `ancestor` is `commit` or comes before it, in the repository at `gitRoot`. */
export function isAncestor(gitRoot: string, ancestor: string, commit: string): boolean {
  try {
    execFileSync('git', ['merge-base', '--is-ancestor', ancestor, commit], { cwd: gitRoot, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The era `commit` belongs to; throws for a revision before the first push. */
export function eraOf(gitRoot: string, commit: string): Era {
  const era = [...ERAS].reverse().find((candidate) => isAncestor(gitRoot, candidate.since, commit));
  if (!era)
    throw new Error(`${commit} comes before ${FIRST_PUSH}, the first revision that takes pushes: nothing to measure`);
  return era;
}
