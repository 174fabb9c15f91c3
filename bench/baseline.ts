// BENCH_BASELINE=<git revision>: the same scenarios against the server as it was at that
// revision, measured in the same run and interleaved with the current code's, so "N times
// faster" compares two figures taken minutes apart on the same machine. The revision is
// checked out into a git worktree under .bench-tmp/ (ignored by git) and shares this
// checkout's node_modules.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './processes.ts';

export interface Baseline {
  readonly revision: string;
  /** The checkout the baseline server runs from. */
  readonly root: string;
}

export function prepareBaseline(revision: string): Baseline {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  const commit = git('rev-parse', '--short', `${revision}^{commit}`);
  const root = path.join(ROOT, '.bench-tmp', `baseline-${commit}`);
  if (!fs.existsSync(path.join(root, 'src'))) {
    fs.rmSync(root, { recursive: true, force: true });
    git('worktree', 'prune');
    git('worktree', 'add', '--detach', root, commit);
  }
  const modules = path.join(root, 'node_modules');
  if (!fs.existsSync(modules)) fs.symlinkSync(path.join(ROOT, 'node_modules'), modules, 'dir');
  return { revision: commit, root };
}
