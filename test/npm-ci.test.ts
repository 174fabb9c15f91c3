// `npm ci` on a clean checkout prints nothing alarming (README, "Requirements"): no screen of
// engine warnings from the machine's older Node, and the two install scripts the project
// needs (the `node` package, which installs Node 24, and @swc/core's binary) approved in
// package.json's allowScripts, so npm neither warns about them nor, once it blocks
// unapproved scripts, skips them. Run as `npm ci --dry-run` on a copy of the manifest,
// lockfile (and the workspaces' manifests) and .npmrc, so the checkout's node_modules is left alone.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.ts';
import { dialect } from './support/test-server.ts';

const copy = mkdtempSync(path.join(tmpdir(), 'lead-intake-npm-ci-'));
const workspaces: string[] = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).workspaces ?? [];
for (const file of ['package.json', 'package-lock.json', '.npmrc', ...workspaces.map((w) => `${w}/package.json`)]) {
  mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
  copyFileSync(path.join(ROOT, file), path.join(copy, file));
}
afterAll(() => rmSync(copy, { recursive: true, force: true }));

function npm(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      args,
      { cwd: copy, env: { PATH: process.env.PATH, HOME: process.env.HOME } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

// One run is enough: it does not touch a database.
describe.runIf(dialect === 'sqlite')('npm ci', () => {
  it('prints no warning', async () => {
    const { code, stdout, stderr } = await npm(['ci', '--dry-run', '--prefer-offline', '--no-audit', '--no-fund']);
    expect(code).toBe(0);
    expect(`${stdout}${stderr}`).not.toMatch(/^npm (warn|WARN|notice)/m);
  });

  it('has every install script approved: at warn level only the engines of the older Node are left', async () => {
    const { code, stderr } = await npm([
      'ci',
      '--dry-run',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=warn',
    ]);
    expect(code).toBe(0);
    const warnings = stderr.split('\n').filter((line) => line.startsWith('npm warn'));
    expect(warnings.filter((line) => !line.startsWith('npm warn EBADENGINE'))).toEqual([]);
  });
});
