// A server or command that cannot use its PostgreSQL database says why in one line on
// stderr and exits 1 (docs/postgresql.md, "PostgreSQL"): a missing database, a server
// that cannot be reached, a refused login. No stack trace, and never the password of
// DATABASE_URL. Real processes, as an operator starts them.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, childEnv } from './support/cli.ts';
import { dialect, freePort } from './support/test-server.ts';

const postgres = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const withUrl = (change: (url: URL) => void) => {
  const url = new URL(postgres);
  change(url);
  return url.toString();
};

function start(args: string[], databaseUrl: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stderr, stdout }));
  });
}

describe.runIf(dialect === 'postgres')('start-up with a database it cannot use', async () => {
  const closedPort = await freePort();
  const cases: Array<[string, string, RegExp]> = [
    [
      'a database that does not exist',
      withUrl((url) => {
        url.pathname = '/lead_intake_missing_db';
      }),
      /^PostgreSQL at [^ ]+:\d+ has no database "lead_intake_missing_db": create it \(createdb "lead_intake_missing_db"\) or correct DATABASE_URL$/,
    ],
    [
      'a server that is not there',
      withUrl((url) => {
        url.hostname = '127.0.0.1';
        url.port = String(closedPort);
      }),
      new RegExp(
        `^PostgreSQL at 127\\.0\\.0\\.1:${closedPort} cannot be reached \\(ECONNREFUSED\\): is it running, and are the host and port in DATABASE_URL right\\?$`,
      ),
    ],
    [
      'a login that is refused',
      withUrl((url) => {
        url.username = 'lead_intake_no_such_role';
        url.password = 's3cret-pass';
      }),
      /^PostgreSQL at [^ ]+:\d+ refused the login: .*lead_intake_no_such_role.* \(check DATABASE_URL\)$/,
    ],
  ];

  describe.each([
    ['node src/server.ts (npm start)', ['src/server.ts'], 'lead-intake: '],
    ['lead-intake serve', [BIN, 'serve'], 'lead-intake serve: '],
  ])('%s', (_name, args, lead) => {
    it.each(cases)('%s: one line on stderr, exit code 1', async (_case, databaseUrl, expected) => {
      const { code, stderr, stdout } = await start(args, databaseUrl);
      expect(code).toBe(1);
      expect(stdout).not.toMatch(/lead-intake is serving/);
      const lines = stderr.split('\n').filter((line) => line !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]!.startsWith(lead)).toBe(true);
      expect(lines[0]!.slice(lead.length)).toMatch(expected);
      expect(stderr).not.toContain('s3cret-pass');
    });
  });
});
