// The broker app from a browser's side without a browser (the UserAgent of sso.ts keeps
// cookies and follows our redirects): sign in through the login page, read forms.
import { createApiToken } from '../../src/auth/api-token.service.ts';
import { insertDistribution } from '../../src/distributions/distribution.repository.ts';
import { createUser, type UserListing } from '../../src/sso/index.ts';
import { formAction, inputValue, PASSWORD, type PageReply, UserAgent } from './sso.ts';
import type { Tenant, TestServer } from './test-server.ts';

export interface Broker {
  readonly tenant: Tenant;
  readonly user: UserListing;
}

let counter = 0;

/** A distribution with an API token (leads:write, leads:read) and a broker user (password PASSWORD). */
export async function createBroker(
  server: TestServer,
  user: { language?: string; username?: string } = {},
): Promise<Broker> {
  const db = server.database.handle.db;
  const distribution = await insertDistribution(db, 'Broker distribution');
  const token = await createApiToken(db, { distributionId: distribution.id, scopes: ['leads:write', 'leads:read'] });
  counter += 1;
  const username = user.username ?? `broker-${process.pid}-${counter}`;
  const created = await createUser(db, {
    distributionId: distribution.id,
    email: `${username}@example.be`,
    username,
    password: PASSWORD,
    language: user.language ?? 'en',
  });
  return { tenant: { distributionId: distribution.id, token: token.token }, user: created };
}

/** Opens `url` signed out, signs in on the login page it leads to, and returns where the browser lands. */
export async function openSignedIn(agent: UserAgent, url: string, login: string): Promise<PageReply> {
  const loginPage = await agent.follow(url);
  if (!loginPage.body.includes('name="password"'))
    throw new Error(`no login page at ${url} (status ${loginPage.status}):\n${loginPage.body}`);
  return agent.follow(formAction(loginPage, '/login'), {
    form: { csrf: inputValue(loginPage.body, 'csrf')!, login, password: PASSWORD },
  });
}

/** The path (and query) of a URL the service published, for the agent. */
export const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

export { UserAgent };

/** A row of the inbox's table as a broker reads it (the name, the status's code, the assignee, the kind, the origin). */
export interface InboxRow {
  readonly name: string;
  readonly status: string;
  readonly assignee: string | null;
  readonly kind: string;
  readonly origin: string | null;
}

/** The rows of an inbox page's table, in the order shown. */
export const inboxRowsOf = (body: string): InboxRow[] =>
  body
    .split('<tr>')
    .slice(2)
    .map((tr) => ({
      name: /<th scope="row"><a [^>]+>([^<]+)<\/a>/.exec(tr)![1]!,
      status: /class="status status-(\w+)"/.exec(tr)![1]!,
      assignee: /<td class="who"[^>]*>(<span class="muted">)?([^<]+)/.exec(tr)![1]
        ? null
        : /<td class="who"[^>]*>([^<]+)/.exec(tr)![1]!,
      kind: /data-label="Kind">([^<]+)/.exec(tr)![1]!,
      origin: /data-label="Origin"><a [^>]+>([^<]+)<\/a>/.exec(tr)?.[1] ?? null,
    }));
