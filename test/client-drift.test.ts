// The client's generated types are what the served document generates (docs/design.md
// section 16): after a route's schema changes, `npm run generate:client` must be run and
// its output committed, or this fails and says so.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.ts';

const COMMITTED = path.join(import.meta.dirname, '..', 'clients', 'typescript', 'src', 'schema.d.ts');

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-drift-'));
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('commits the types that the served /openapi.json generates', async () => {
  const generated = path.join(dir, 'schema.d.ts');
  // The client's own generate script, pointed at the served document.
  await promisify(execFile)('npm', ['run', '--silent', 'generate', '-w', '@lead-intake/client'], {
    cwd: path.join(import.meta.dirname, '..'),
    env: { ...process.env, OPENAPI_DOCUMENT: `${server.url}/openapi.json`, OPENAPI_TYPES: generated },
  });
  const expected = fs.readFileSync(generated, 'utf8').split('\n');
  const committed = fs.readFileSync(COMMITTED, 'utf8').split('\n');
  const line = expected.findIndex((text, i) => text !== committed[i]);
  const first = line === -1 && expected.length === committed.length ? undefined : line === -1 ? expected.length : line;
  expect(
    first === undefined
      ? 'up to date'
      : `clients/typescript/src/schema.d.ts is not what /openapi.json generates (first difference at line ${first + 1}: ` +
          `${JSON.stringify(committed[first])} should be ${JSON.stringify(expected[first])}). ` +
          'Run `npm run generate:client` and commit the result.',
  ).toBe('up to date');
});
