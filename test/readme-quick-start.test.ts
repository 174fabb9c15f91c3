// The README's quick start stays true: what a first start prints is what the README shows
// (secrets aside), and its two pushes of one external ref, run by a real shell with the
// printed token, answer as it says: 201, then 200 with the same lead, merged; the demo
// broker then signs in and finds both pushes on the lead's timeline.
import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapDemo } from '../src/demo-data.service.ts';
import { readText } from './support/markdown.ts';
import { formAction, inputValue, UserAgent } from './support/sso.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const README_URL = 'http://localhost:8080';
const quickStart = readText('README.md')
  .split(/^## Quick start$/m)[1]!
  .split(/^## /m)[0]!;
const blocks = (language: string) =>
  [...quickStart.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1]!);

interface Request {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/**
 * The requests a shell script's curl commands make. `sh` runs the script, expanding its
 * variables and quotes as a reader's shell would, with `curl` standing for a function that
 * hands back its arguments; the flags the README uses are read here (any other is refused),
 * so no curl need be installed.
 */
function curlRequests(script: string): Promise<Request[]> {
  const capture = `curl() { printf '%s\\037' "$@"; printf '\\036'; }\n`;
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', capture + script], (error, stdout) => {
      if (error) return reject(error);
      const commands = stdout.split('\x1e').filter((command) => command !== '');
      resolve(commands.map((command) => curlRequest(command.split('\x1f').slice(0, -1))));
    });
  });
}

function curlRequest(args: readonly string[]): Request {
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-i' || arg === '-s') continue;
    if (arg === '-X') method = args[++i];
    else if (arg === '-H') {
      const [name, ...value] = args[++i]!.split(':');
      headers[name!.trim()] = value.join(':').trim();
    } else if (arg === '-d') body = args[++i];
    else if (!arg.startsWith('-')) url = arg;
    else throw new Error(`curl flag ${arg} is not read by this test: teach it, or keep the README's curls simple`);
  }
  return { method: method ?? (body === undefined ? 'GET' : 'POST'), url: url!, headers, body };
}

/** What the test reads of a push's answer. */
interface LeadAnswer {
  readonly id: string;
  readonly href_to_proflow: string;
  readonly prospect: { readonly external_refs: unknown; readonly email?: string; readonly telephonenr?: string };
}

let server: TestServer;
let printed = '';
beforeAll(async () => {
  server = await startTestServer();
  const out = new Writable({
    write(chunk, _encoding, done) {
      printed += String(chunk);
      done();
    },
  });
  const log = { info: () => {}, debug: () => {}, error: () => {} };
  await bootstrapDemo(server.database.handle, { ...server.config, production: false }, log, out);
});
afterAll(() => server?.close());

describe("the README's quick start", () => {
  it('shows what a first start prints, but for the token and the password', () => {
    const token = /apikey (li_[\w-]+)/.exec(printed)?.[1];
    const password = /with the password (\S+) \(/.exec(printed)?.[1];
    expect(token && password).toBeTruthy();
    const masked = (text: string) => text.replace(/li_[\w…-]+/g, 'li_…').replace(/(with the password )\S+/, '$1…');
    const shown = blocks('text')[0]!;
    expect(masked(printed.replaceAll(server.url, README_URL)).trim()).toBe(masked(shown).trim());
  });

  it('pushes one ref twice: 201, then 200 with the same lead merged, as the answers it shows', async () => {
    const token = /apikey (li_[\w-]+)/.exec(printed)![1]!;
    const script = blocks('sh')
      .filter((block) => block.includes('curl '))
      .join('\n')
      .replaceAll('li_…', token)
      .replaceAll(README_URL, server.url);
    const requests = await curlRequests(script);
    expect(requests).toHaveLength(2);
    const replies = [];
    for (const request of requests) {
      const response = await fetch(request.url, request);
      replies.push({
        status: response.status,
        statusText: response.statusText,
        body: (await response.json()) as LeadAnswer,
      });
    }
    const [first, second] = replies;
    expect([first!.status, second!.status]).toEqual([201, 200]);
    // The answers the README shows start with these status lines, in this order.
    const statusLines = blocks('text')
      .slice(1)
      .map((block) => block.split('\n')[0]);
    expect(statusLines).toEqual(replies.map((reply) => `HTTP/1.1 ${reply.status} ${reply.statusText}`));
    expect(second!.body.id).toBe(first!.body.id);
    expect(second!.body.prospect.external_refs).toEqual([{ ref: '4711', company: 'acme-crm' }]);
    expect(second!.body.prospect.email).toBe(first!.body.prospect.email);
    expect(second!.body.prospect.telephonenr).toBe('+32 9 123 45 67');

    // The demo broker signs in with the printed password and sees both pushes on the timeline.
    const password = /with the password (\S+) \(/.exec(printed)![1]!;
    const agent = new UserAgent({ url: server.url, config: server.config });
    const loginPage = await agent.follow(second!.body.href_to_proflow);
    const timeline = await agent.follow(formAction(loginPage, '/login'), {
      form: { csrf: inputValue(loginPage.body, 'csrf')!, login: 'demo-broker', password },
    });
    expect(timeline.status).toBe(200);
    expect(timeline.body).toContain('Pushed: lead created');
    expect(timeline.body).toContain('Pushed: merged into the lead');
  });
});
