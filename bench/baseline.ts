// BENCH_BASELINE=<git revision>: the server as it was at that revision, measured in the same
// run as this checkout's, interleaved, so "N times faster" compares figures taken minutes
// apart on the same machine. The revision is exported (`git archive`) into a directory of
// its own outside the repository, BENCH_CACHE/<commit> (default
// ~/.cache/lead-intake-bench/<commit>), and installed there with its own `npm ci`, once: a
// second run finds it ready. Its databases are migrated and given their tokens by its own
// code (bench/baseline-eras.ts says how, era by era).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eraOf, FEATURES, isAncestor } from './baseline-eras.ts';
import { log } from './measure.ts';
import { ROOT } from './processes.ts';
import type { Feature, ServerCode } from './server-code.ts';

/** Written last, when the checkout and its `npm ci` are complete. */
const READY = '.bench-ready';

export function cacheDirectory(env: Record<string, string | undefined> = process.env): string {
  return (
    env.BENCH_CACHE?.trim() ||
    path.join(env.XDG_CACHE_HOME?.trim() || path.join(os.homedir(), '.cache'), 'lead-intake-bench')
  );
}

export function prepareBaseline(revision: string): ServerCode {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  const commit = git('rev-parse', `${revision}^{commit}`);
  const short = git('rev-parse', '--short', commit);
  const era = eraOf(ROOT, commit);
  const root = path.join(cacheDirectory(), commit);
  if (!fs.existsSync(path.join(root, READY))) install(commit, root);
  else log(`baseline ${short}: reusing ${root}`);
  warnOnOtherNode(short, root);
  const missing = new Map<Feature, string>();
  for (const [feature, { since, what }] of Object.entries(FEATURES) as Array<[Feature, (typeof FEATURES)[Feature]]>) {
    if (!isAncestor(ROOT, since, commit)) missing.set(feature, `${short} has no ${what} (since ${since})`);
  }
  log(`baseline ${short}: databases prepared with ${era.how}`);
  return {
    label: short,
    revision: short,
    root,
    lacks: (feature) => missing.get(feature),
    prepare: async (target, scopes, distributions) => era.prepare(root, target, scopes, distributions),
  };
}

/** The revision's files and its own dependencies, built beside the final directory and renamed into it. */
function install(commit: string, root: string): void {
  const partial = `${root}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  try {
    log(`baseline ${commit.slice(0, 7)}: exporting into ${root}`);
    const archive = execFileSync('git', ['archive', '--format=tar', commit], { cwd: ROOT, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', partial], { input: archive });
    log(`baseline ${commit.slice(0, 7)}: npm ci (its own lock file; once per commit)`);
    // The server and the command line need only the runtime dependencies; Node comes from this run.
    execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: partial,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    fs.writeFileSync(path.join(partial, READY), `${new Date().toISOString()}\n`);
    // Another run may have finished the same revision meanwhile: its copy stays, it may be in use.
    if (fs.existsSync(path.join(root, READY))) fs.rmSync(partial, { recursive: true, force: true });
    else {
      fs.rmSync(root, { recursive: true, force: true });
      fs.renameSync(partial, root);
    }
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

/** Every revision so far pins the Node of this run; one that does not is measured on this one all the same, and says so. */
function warnOnOtherNode(short: string, root: string): void {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages?: Record<string, { version?: string }>;
  };
  const pinned = lock.packages?.['node_modules/node']?.version;
  if (pinned && `v${pinned}` !== process.version)
    log(`baseline ${short}: its lock file pins Node ${pinned}; measured on this run's ${process.version}`);
}
