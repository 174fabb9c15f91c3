// `lead-intake user|client|sso` as an operator meets them (docs/operations.md, "CLI"): real CLI
// processes on the test server's database, whose results a browser-less partner then
// uses over HTTP against the running server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDistribution } from '../src/distributions/distribution.repository.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { cliJson, printedJson, runCli } from './support/cli.ts';
import {
  REDIRECT_URI,
  UserAgent,
  authorizationUrl,
  exchangeCode,
  formAction,
  inputValue,
  pkcePair,
  signInAndConsent,
} from './support/sso.ts';

const PASSWORD = 'a long enough passphrase';

let server: TestServer;
let env: Record<string, string>;
let distributionId: string;
beforeAll(async () => {
  server = await startTestServer();
  env = server.database.env;
  distributionId = (await insertDistribution(server.database.handle.db, 'CLI distribution')).id;
});
afterAll(async () => {
  await server?.close();
});

/** Opens the login page for `clientId` and submits `login` with PASSWORD; the answer after it. */
async function trySignIn(clientId: string, login: string) {
  const agent = new UserAgent(server);
  const page = await agent.follow(authorizationUrl(server, { clientId, challenge: pkcePair().challenge }));
  return agent.follow(formAction(page, '/login'), {
    form: { csrf: inputValue(page.body, 'csrf')!, login, password: PASSWORD },
  });
}

describe('lead-intake user, client and sso', () => {
  it('create a user and a client that a partner signs in with, until the user is disabled', async () => {
    const user = await cliJson(
      env,
      [
        'user',
        'create',
        '--distribution',
        distributionId,
        '--email',
        'An.Jacobs@Broker.be',
        '--username',
        'an.jacobs',
        '--language',
        'fr',
      ],
      `${PASSWORD}\n`,
    );
    expect(user).toMatchObject({
      distribution_id: distributionId,
      email: 'An.Jacobs@Broker.be',
      username: 'an.jacobs',
      language: 'fr',
      country: 'BE',
      locale: 'fr-BE',
      role: 'broker',
      disabled_at: null,
    });
    expect(JSON.stringify(user)).not.toMatch(/password|argon2/);
    const stored = await server.database.handle.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);

    const client = await cliJson(env, [
      'client',
      'create',
      '--name',
      'Acme CRM',
      '--redirect-uri',
      REDIRECT_URI,
      '--redirect-uri',
      'https://crm.acme.example/callback',
    ]);
    expect(Object.keys(client).sort()).toEqual(['client_id', 'client_secret', 'created_at', 'name', 'redirect_uris']);
    expect(client.redirect_uris).toEqual([REDIRECT_URI, 'https://crm.acme.example/callback']);
    const listing = await runCli(env, ['client', 'list']);
    expect(listing.stdout).not.toContain(client.client_secret);
    expect(printedJson<any[]>(listing).map((entry) => entry.client_id)).toContain(client.client_id);

    // The whole flow with what the CLI printed; the trailing newline of the password was dropped.
    const pkce = pkcePair();
    const redirect = await signInAndConsent(
      new UserAgent(server),
      authorizationUrl(server, { clientId: client.client_id, challenge: pkce.challenge }),
      'an.jacobs',
      PASSWORD,
    );
    const tokens = await exchangeCode(server, client, redirect.searchParams.get('code')!, pkce.verifier);
    expect(tokens.status).toBe(200);

    expect(
      (await cliJson<any[]>(env, ['user', 'list', '--distribution', distributionId])).map((entry) => entry.username),
    ).toEqual(['an.jacobs']);
    const disabled = await cliJson(env, ['user', 'disable', 'an.jacobs@broker.be']);
    expect(disabled.disabled_at).toEqual(expect.any(String));
    expect((await trySignIn(client.client_id, 'an.jacobs')).status).toBe(401);
    const userinfo = await fetch(`${server.url}/sso/userinfo`, {
      headers: { authorization: `bearer ${tokens.body.access_token}` },
    });
    expect(userinfo.status).toBe(401);

    // A deleted client can no longer even start a sign-in.
    await cliJson(env, ['client', 'delete', client.client_id]);
    const refused = await new UserAgent(server).follow(
      authorizationUrl(server, { clientId: client.client_id, challenge: pkce.challenge }),
    );
    expect(refused.status).toBe(400);
  });

  it('rotate the signing keys: a new key first, the previous one kept for verification', async () => {
    const before = (await (await fetch(`${server.url}/sso/jwks`)).json()) as { keys: Array<{ kid: string }> };
    const rotation = await cliJson(env, ['sso', 'rotate-keys']);
    expect(rotation.kept).toEqual(before.keys.map((key) => key.kid));
    expect(rotation.removed).toEqual([]);
    const stored = await server.database.handle.db
      .selectFrom('sso_signing_keys')
      .select('kid')
      .orderBy('generation', 'desc')
      .execute();
    expect(stored.map((row) => row.kid)).toEqual([rotation.kid, ...rotation.kept]);
  });

  it.each([
    {
      case: 'a user without --email',
      args: ['user', 'create', '--distribution', 'x', '--username', 'u'],
      input: PASSWORD,
      code: 2,
    },
    {
      case: 'a user without a password',
      args: ['user', 'create', '--distribution', 'x', '--email', 'a@b.be', '--username', 'u'],
      input: '',
      code: 2,
    },
    {
      case: 'a short password',
      args: ['user', 'create', '--distribution', 'DIST', '--email', 'short@b.be', '--username', 'short'],
      input: 'short',
      code: 1,
    },
    {
      case: 'an unknown distribution',
      args: [
        'user',
        'create',
        '--distribution',
        'e2a61c4e-0000-4000-8000-000000000000',
        '--email',
        'a@b.be',
        '--username',
        'u1',
      ],
      input: PASSWORD,
      code: 1,
    },
    {
      case: 'a malformed e-mail address',
      args: ['user', 'create', '--distribution', 'DIST', '--email', 'not-an-email', '--username', 'u2'],
      input: PASSWORD,
      code: 1,
    },
    { case: 'an unknown user to disable', args: ['user', 'disable', 'nobody'], input: '', code: 1 },
    { case: 'a client without --redirect-uri', args: ['client', 'create', '--name', 'CRM'], input: '', code: 2 },
    {
      case: 'a plain-http redirect URI',
      args: ['client', 'create', '--name', 'CRM', '--redirect-uri', 'http://crm.example.com/cb'],
      input: '',
      code: 1,
    },
    {
      case: 'a redirect URI with a fragment',
      args: ['client', 'create', '--name', 'CRM', '--redirect-uri', 'https://crm.example.com/cb#x'],
      input: '',
      code: 1,
    },
    { case: 'an unknown client to delete', args: ['client', 'delete', 'nope'], input: '', code: 1 },
    { case: 'an unknown sso command', args: ['sso', 'rotate'], input: '', code: 2 },
  ])('refuse $case: one line on stderr, nothing on stdout, exit $code', async ({ args, input, code }) => {
    const result = await runCli(
      env,
      args.map((arg) => (arg === 'DIST' ? distributionId : arg)),
      input,
    );
    expect(result.code, result.stderr).toBe(code);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^lead-intake/);
  });

  it('refuse a second user with the same e-mail address or username, whatever the case', async () => {
    await cliJson(
      env,
      ['user', 'create', '--distribution', distributionId, '--email', 'dup@broker.be', '--username', 'dup'],
      PASSWORD,
    );
    for (const [email, username] of [
      ['DUP@broker.be', 'other'],
      ['other@broker.be', 'DUP'],
    ]) {
      const result = await runCli(
        env,
        ['user', 'create', '--distribution', distributionId, '--email', email!, '--username', username!],
        PASSWORD,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/exists already/);
    }
  });
});
