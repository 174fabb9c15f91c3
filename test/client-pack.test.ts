// A partner project that installs the packed client (docs/design.md section 16): `npm pack`
// in clients/typescript, the tarball installed into a fresh project (its dependencies from
// the registry, as a partner gets them), and a file of under 30 lines that pushes, reads,
// pages the change listing and verifies a webhook it receives, type-checked with strict
// TypeScript and run against the real server. Its push has an address without country_code,
// which a request may leave out (BE): the generated types must let it compile. The package does not depend on the
// database, so this runs once, on SQLite.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSecret } from '../src/webhooks/signing/signing-key.service.ts';
import { createTenant, dialect, freePort, startTestServer, type TestServer } from './support/test-server.ts';

const run = promisify(execFile);
const ROOT = path.join(import.meta.dirname, '..');
const CLIENT = path.join(ROOT, 'clients', 'typescript');

const PARTNER = `import http from 'node:http';
import { createLeadIntakeClient, verifyWebhook, type WebhookEvent } from '@lead-intake/client';

const env = process.env as Record<string, string>;
const client = createLeadIntakeClient({
  baseUrl: env.LEAD_INTAKE_URL!,
  token: env.LEAD_INTAKE_TOKEN!,
  distributionId: env.LEAD_INTAKE_DISTRIBUTION!,
});
const event = new Promise<WebhookEvent>((resolve) => {
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      response.writeHead(204).end(() => receiver.close());
      resolve(verifyWebhook(body, request.headers, env.LEAD_INTAKE_WEBHOOK_SECRET!));
    });
  });
  receiver.listen(Number(env.RECEIVER_PORT), '127.0.0.1');
});
const pushed = await client.pushCustomerLead({ prospect: { first_name: 'Pack', last_name: 'Partner', callbacks: [\`http://127.0.0.1:\${env.RECEIVER_PORT}/hook\`], address: { housenr: '1', zipcode: '9000', city: 'Gent' } } });
if (!pushed.data) throw new Error(pushed.error?.detail.error_str);
const read = await client.getLead(pushed.data.id);
const patched = await client.updateParty(pushed.data.party_id, { telephonenr: '+32 9 123 45 67', address: null });
const listed: string[] = [];
for await (const lead of client.changes(undefined, { limit: 1 })) listed.push(lead.id);
const received = await event;
console.log(JSON.stringify({ status: pushed.response.status, name: read.data?.prospect.last_name, country: read.data?.prospect.address?.country_code, phone: patched.data?.telephonenr, listed, event: received.type, lead: received.type === 'party.merged' ? received.data.lead_id : received.data.id }));
`;

describe.skipIf(dialect === 'postgres')('the packed client in a partner project', () => {
  let server: TestServer;
  let project: string;
  beforeAll(async () => {
    server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-project-'));
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(project, { recursive: true, force: true });
  });

  // npm pack compiles the client, and npm install fetches its dependencies: tens of seconds.
  it('installs from the tarball, type-checks, and pushes, reads, updates, lists and verifies a webhook', async () => {
    expect(PARTNER.trimEnd().split('\n').length).toBeLessThan(30);
    const { stdout: packed } = await run('npm', ['pack', '--silent', '--pack-destination', project], { cwd: CLIENT });
    const tarball = path.join(project, packed.trim().split('\n').at(-1)!);
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'partner', private: true, type: 'module' }),
    );
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project });
    const installed = JSON.parse(
      fs.readFileSync(path.join(project, 'node_modules', '@lead-intake', 'client', 'package.json'), 'utf8'),
    );
    expect(installed.name).toBe('@lead-intake/client');
    expect(fs.existsSync(path.join(project, 'node_modules', '@lead-intake', 'client', 'dist', 'index.js'))).toBe(true);

    fs.writeFileSync(path.join(project, 'partner.ts'), PARTNER);
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'nodenext',
          strict: true,
          noEmit: true,
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules', '@types')],
        },
      }),
    );
    // The partner's TypeScript: strict, the packed declarations only (no skipLibCheck).
    await run(process.execPath, [path.join(CLIENT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project]);

    const tenant = await createTenant(server.database.handle, ['leads:write', 'leads:read', 'parties:update']);
    const { secret } = await currentSecret(server.database.handle.db, tenant.distributionId);
    const { stdout } = await run(process.execPath, ['partner.ts'], {
      cwd: project,
      env: {
        ...process.env,
        LEAD_INTAKE_URL: server.url,
        LEAD_INTAKE_TOKEN: tenant.token,
        LEAD_INTAKE_DISTRIBUTION: tenant.distributionId,
        LEAD_INTAKE_WEBHOOK_SECRET: secret,
        RECEIVER_PORT: String(await freePort()),
      },
    });
    const outcome = JSON.parse(stdout);
    expect(outcome).toEqual({
      status: 201,
      name: 'Partner',
      country: 'BE',
      phone: '+32 9 123 45 67',
      listed: [outcome.lead],
      event: 'lead.created',
      lead: outcome.lead,
    });

    // Compiled JavaScript: it also runs on a Node without type stripping (this machine's
    // system Node, when it is one), as many partners' will.
    const systemNode = '/usr/bin/node';
    if (fs.existsSync(systemNode)) {
      const script =
        "import { createLeadIntakeClient } from '@lead-intake/client';" +
        'const c = createLeadIntakeClient({ baseUrl: process.argv[1], token: process.argv[2], distributionId: process.argv[3] });' +
        "const r = await c.pushCompanyLead({ prospect: { name: 'Node ' + process.version } });" +
        'const l = await c.getLead(process.argv[4]);' +
        'console.log(process.version, r.response.status, r.data.prospect.name, l.data.prospect.last_name);';
      const { stdout: old } = await run(
        systemNode,
        ['--input-type=module', '-e', script, server.url, tenant.token, tenant.distributionId, outcome.lead],
        { cwd: project },
      );
      expect(old.trim()).toMatch(/^(v\d+\.\d+\.\d+) 201 Node \1 Partner$/);
    }
  }, 180_000);
});
