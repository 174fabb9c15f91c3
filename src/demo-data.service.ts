// What a first start adds to a database outside production (NODE_ENV unset), so a
// newcomer sees the service work before reading any docs: a demo distribution and API
// token, with a curl on the console that pushes a first lead with them; a demo broker
// whose password is printed once, to sign in to the broker app where that lead shows up;
// and the sample reference data (reference/demo-samples.ts), so lookups answer at once.
// Once per start, whatever the number of processes about to serve.
import { randomBytes } from 'node:crypto';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { createApiToken, type IssuedApiToken } from './auth/api-token.service.ts';
import { hasAnyDistribution, insertDistributionIfAbsent } from './distributions/distribution.repository.ts';
import { importSamplesIfEmpty, type SampleLog } from './reference/demo-samples.ts';
import { createUser } from './sso/index.ts';

export async function addDemoData(
  database: DatabaseHandle,
  config: Config,
  log: BootstrapLog & SampleLog,
): Promise<void> {
  if (config.production) return;
  await bootstrapDemo(database, config, log);
  await importSamplesIfEmpty(database, config, log);
}

/**
 * A fixed, well-known id is what keeps two processes starting at once on one PostgreSQL
 * from creating two demos: both may see an empty table, but only one insert of this
 * primary key wins; the other waits for it, does nothing and so prints nothing.
 */
export const DEMO_DISTRIBUTION_ID = '00000000-0000-4000-8000-00000000de70';
// Every scope the examples of the README and docs/ use with the demo token: pushing,
// reading and updating (docs/api.md, "Reading and updating"), and the reference scopes,
// whose demo samples (reference/demo-samples.ts) answer at once. Not parties:erase: a demo
// has nothing to erase.
const DEMO_SCOPES = [
  'leads:write',
  'leads:read',
  'parties:read',
  'parties:update',
  'vehicle:read',
  'address:read',
  'enterprise:read',
] as const;
export const DEMO_BROKER_USERNAME = 'demo-broker';

/** The demo broker's sign-in, shown once. */
interface DemoBroker {
  readonly username: string;
  readonly password: string;
}

/** The slice of a pino logger this needs (server.ts passes app.log). */
export interface BootstrapLog {
  info(object: object, message: string): void;
  debug(message: string): void;
  error(object: object, message: string): void;
}

export async function bootstrapDemo(
  database: DatabaseHandle,
  config: Config,
  log: BootstrapLog,
  out: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  if (config.production) return;
  let token: IssuedApiToken | undefined;
  try {
    token = await database.db.transaction().execute(async (trx) => {
      if (await hasAnyDistribution(trx)) return undefined;
      const row = { id: DEMO_DISTRIBUTION_ID, name: 'Demo distribution', created_at: new Date().toISOString() };
      if (!(await insertDistributionIfAbsent(trx, row))) return undefined;
      return createApiToken(trx, { distributionId: row.id, scopes: DEMO_SCOPES, name: 'Demo token' });
    });
  } catch (error) {
    // The demo is a convenience: a server that failed to create it still serves.
    log.error({ err: error }, 'could not create the demo distribution');
    return;
  }
  if (!token) {
    log.debug('demo bootstrap skipped: the database already has a distribution');
    return;
  }
  log.info({ distribution_id: token.distribution_id, token_id: token.id }, 'created a demo distribution and API token');
  const broker = await createDemoBroker(database, token.distribution_id, log);
  // Plain text, not a log line: it is meant to be read and pasted, and it holds the secret,
  // which must not travel into log storage as structured data.
  out.write(welcomeText(config.publicUrl, token, broker));
}

/**
 * Only the process that created the demo distribution gets here, so the user is created
 * once; a failure leaves the rest of the demo working.
 */
async function createDemoBroker(
  database: DatabaseHandle,
  distributionId: string,
  log: BootstrapLog,
): Promise<DemoBroker | undefined> {
  const password = randomBytes(12).toString('base64url');
  try {
    await createUser(database.db, {
      distributionId,
      email: 'demo-broker@example.com',
      username: DEMO_BROKER_USERNAME,
      password,
      language: 'en',
    });
    return { username: DEMO_BROKER_USERNAME, password };
  } catch (error) {
    log.error({ err: error }, 'could not create the demo broker user');
    return undefined;
  }
}

export function demoCurl(publicUrl: string, token: Pick<IssuedApiToken, 'distribution_id' | 'token'>): string {
  const url = `${publicUrl}/v1/api/distributions/${token.distribution_id}/leads/customers`;
  const body = JSON.stringify({ origin: 'demo', prospect: { first_name: 'Jan', last_name: 'Peeters' } });
  const args = [
    '-i',
    '-X',
    'POST',
    url,
    '-H',
    `Authorization: apikey ${token.token}`,
    '-H',
    'Content-Type: application/json',
    '-d',
    body,
  ];
  return ['curl', ...args.map(shellQuote)].join(' ');
}

/** POSIX single quotes: everything literal, a quote itself written as '\''. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

function welcomeText(publicUrl: string, token: IssuedApiToken, broker: DemoBroker | undefined): string {
  const signIn = broker
    ? [
        `Then see it in the broker app: open ${publicUrl}/app and sign in as ${broker.username}`,
        `with the password ${broker.password} (shown only now; more users: npx lead-intake user create --distribution ${token.distribution_id} ...)`,
        '',
      ]
    : [];
  return [
    '',
    `First start: created "Demo distribution" and an API token (scopes ${DEMO_SCOPES.join(' ')}).`,
    `The token is shown only now; more with: npx lead-intake token create --distribution ${token.distribution_id} --scopes leads:write`,
    'Push a first lead:',
    '',
    demoCurl(publicUrl, token),
    '',
    ...signIn,
    '',
  ].join('\n');
}
