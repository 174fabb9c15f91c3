// Configuration comes from the environment only (docs/design.md section 1). It is checked once
// at start-up; every bad value gets its own message so an operator fixes them all at once.
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type TokenProfile = 'production' | 'staging';
export type SqliteSynchronous = 'NORMAL' | 'FULL';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  /** postgres://... selects PostgreSQL; undefined selects the embedded SQLite file. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly logLevel: string;
  readonly bodyLimit: number;
  /** The body limit of a batch push (up to 100 leads), which BODY_LIMIT would refuse. */
  readonly batchBodyLimit: number;
  /** How long a successful answer to a request with an Idempotency-Key is kept for its retries. */
  readonly idempotencyTtlMs: number;
  readonly tokenProfile: TokenProfile;
  readonly appUrl: string;
  readonly webhookRetrySchedule: readonly number[];
  readonly webhookAllowPrivateNetworks: boolean;
  /**
   * Where this process delivers webhooks (WEBHOOK_WORKER): `thread`, a worker thread with its
   * own event loop and database connection; `main`, the event loop that serves requests;
   * `none`, not at all (a dedicated `lead-intake webhook work` process does).
   */
  readonly webhookWorker: WebhookWorkerPlacement;
  /**
   * Whether this process runs the inbox projector (INBOX_PROJECTOR, docs/design.md section 13):
   * reads stay exact without it (they add what is past the marks), but only slow down as that
   * grows, so at least one process of a deployment should.
   */
  readonly inboxProjector: boolean;
  /** NORMAL survives a process crash (kill -9); FULL also survives power loss. */
  readonly sqliteSynchronous: SqliteSynchronous;
  /** PostgreSQL: send the push path's statements as named prepared statements. */
  readonly databasePreparedStatements: boolean;
  /** Worker processes serving the port (docs/design.md section 9); more than one needs PostgreSQL. */
  readonly workers: number;
  /** PostgreSQL connections per process (each worker has its own pool). */
  readonly poolSize: number;
  readonly production: boolean;
  /**
   * Whom to believe about the client's address (X-Forwarded-For): nobody (false), every
   * hop (true), or the listed proxy addresses/CIDRs. It decides `request.ip`, which the
   * SSO login throttle counts per address.
   */
  readonly trustProxy: boolean | readonly string[];
  /**
   * A request (headers and body) must arrive within this many milliseconds, or it is
   * answered 408 and the connection closed: a client trickling bytes cannot hold a
   * connection (docs/design.md section 8). Headers alone get at most HEADERS_TIMEOUT_MS of it.
   */
  readonly requestTimeoutMs: number;
  /** Requests per window per credential (docs/design.md section 8); undefined: no limit (`RATE_LIMIT=off`). */
  readonly rateLimit: RateLimit | undefined;
  /** Set: processes share rate-limit counts in this Redis. */
  readonly redisUrl: string | undefined;
  /** Every key this service writes in Redis starts with it, so one Redis can serve several deployments. */
  readonly redisKeyPrefix: string;
  /** How long personal data is kept (docs/design.md section 15); undefined: for ever (the default). */
  readonly retention: Retention;
}

export interface Retention {
  /** Push-log entries older than this are deleted (the lead keeps its data). */
  readonly pushLogMs: number | undefined;
  /** Delivered or failed webhook events older than this are deleted with their deliveries. */
  readonly webhookEventsMs: number | undefined;
  /** A lead unchanged this long is erased, as DELETE .../parties/{id} erases it. */
  readonly leadsMs: number | undefined;
  /** How often the background task runs a pass when any of the above is set. */
  readonly intervalMs: number;
}

export interface RateLimit {
  readonly max: number;
  readonly windowMs: number;
}

/** Headers are a few hundred bytes: a client that takes longer than this for them is stalling. */
export const HEADERS_TIMEOUT_MS = 10_000;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.problems = problems;
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): Config {
  const problems: string[] = [];
  const read = <T>(name: string, fallback: string, parse: (raw: string) => T | string): T => {
    const raw = env[name]?.trim() || fallback;
    const parsed = parse(raw);
    if (typeof parsed === 'string' && parsed.startsWith('!')) {
      problems.push(`${name}=${JSON.stringify(raw)}: ${parsed.slice(1)}`);
      return parse(fallback) as T;
    }
    return parsed as T;
  };

  const port = read('PORT', '8080', parsePort);
  const host = read('HOST', '0.0.0.0', (raw) => raw);
  const publicUrl = read('PUBLIC_URL', `http://localhost:${port}`, parseHttpUrl);
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL: must start with postgres:// (leave it unset for the embedded SQLite database)');
  }
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl))
    problems.push('REDIS_URL: must start with redis:// or rediss://');
  const config: Config = {
    port,
    host,
    publicUrl,
    databaseUrl,
    dataDir: path.resolve(read('DATA_DIR', './data', (raw) => raw)),
    logLevel: read('LOG_LEVEL', 'info', (raw) =>
      LOG_LEVELS.includes(raw) ? raw : `!must be one of ${LOG_LEVELS.join(', ')}`,
    ),
    bodyLimit: read('BODY_LIMIT', '1048576', parseByteSize),
    batchBodyLimit: read('BATCH_BODY_LIMIT', '10MiB', parseByteSize),
    idempotencyTtlMs: read('IDEMPOTENCY_TTL', '24h', durationSetting(1000, 'a duration of at least 1s, such as 24h')),
    tokenProfile: read<TokenProfile>('TOKEN_PROFILE', 'production', (raw) =>
      raw === 'production' || raw === 'staging' ? raw : '!must be production or staging',
    ),
    appUrl: read('APP_URL', publicUrl, parseHttpUrl),
    webhookRetrySchedule: read('WEBHOOK_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE, parseSchedule),
    webhookAllowPrivateNetworks: read('WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'false', parseBoolean),
    webhookWorker: read<WebhookWorkerPlacement>('WEBHOOK_WORKER', 'true', parseWebhookWorker),
    inboxProjector: read('INBOX_PROJECTOR', 'true', parseBoolean),
    sqliteSynchronous: read<SqliteSynchronous>('SQLITE_SYNCHRONOUS', 'NORMAL', (raw) =>
      raw.toUpperCase() === 'NORMAL' || raw.toUpperCase() === 'FULL'
        ? (raw.toUpperCase() as SqliteSynchronous)
        : '!must be NORMAL or FULL',
    ),
    databasePreparedStatements: read('DATABASE_PREPARED_STATEMENTS', 'true', parseBoolean),
    poolSize: read('DATABASE_POOL_SIZE', '10', (raw) => {
      const size = Number(raw);
      return Number.isInteger(size) && size >= 1 && size <= 1000 ? size : '!must be a number of connections (1-1000)';
    }),
    workers: read('WORKERS', '1', (raw) => {
      const workers = raw === 'auto' ? os.availableParallelism() : Number(raw);
      if (!Number.isInteger(workers) || workers < 1 || workers > 256)
        return '!must be a number of processes (1-256) or auto';
      // The embedded database has one writer, and its group commit (db/transaction-runner.ts)
      // lives in one process: a second process would make every write wait for the file lock.
      if (workers > 1 && databaseUrl === undefined) {
        return `!${workers} worker processes need PostgreSQL (DATABASE_URL): the embedded SQLite database serves from one process`;
      }
      return workers;
    }),
    production: env.NODE_ENV === 'production',
    trustProxy: read('TRUST_PROXY', 'false', parseTrustProxy),
    requestTimeoutMs: read('REQUEST_TIMEOUT', '30s', durationSetting(100, 'a duration of at least 100ms, such as 30s')),
    rateLimit: read('RATE_LIMIT', '1200/min', parseRateLimit),
    redisUrl,
    redisKeyPrefix: read('REDIS_KEY_PREFIX', 'lead-intake:', (raw) => raw),
    retention: {
      pushLogMs: read('RETENTION_PUSH_LOG', 'off', parseRetention),
      webhookEventsMs: read('RETENTION_WEBHOOK_EVENTS', 'off', parseRetention),
      leadsMs: read('RETENTION_LEADS', 'off', parseRetention),
      // Longer than a Node timer holds (about 24.8 days) is fine: retention.service.ts chains them.
      intervalMs: read('RETENTION_INTERVAL', '10m', durationSetting(1000, 'a duration of at least 1s, such as 10m')),
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

function parsePort(raw: string): number | string {
  const port = Number(raw);
  return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : '!must be a port number (0-65535)';
}

function parseHttpUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return raw.replace(/\/+$/, '');
  } catch {
    // fall through to the message
  }
  return '!must be an absolute http(s) URL';
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1000, kib: 1024, mb: 1e6, mib: 1024 ** 2 };

/** Accepts plain bytes or a unit: 1048576, 512KiB, 1MiB, 2mb. */
function parseByteSize(raw: string): number | string {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(raw);
  const unit = SIZE_UNITS[match?.[2]?.toLowerCase() ?? 'x'];
  if (!match || unit === undefined) return '!must be a size in bytes, e.g. 1048576 or 1MiB';
  const bytes = Number(match[1]) * unit;
  return bytes > 0 ? bytes : '!must be greater than zero';
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses a duration such as 90d, 5m or 250ms into milliseconds; undefined when malformed. */
export function parseDuration(raw: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(raw.trim());
  if (!match) return undefined;
  return Number(match[1]) * DURATION_UNITS[match[2]!]!;
}

/**
 * The longest duration a setting takes: 100 years. Every duration is added to or taken from
 * the present, and times are stored as ISO 8601 text whose order is their text's order, which
 * holds for four-digit years only (and a Date ends in year 275760): a longer one could not be
 * honoured, so it is refused at start rather than failing each time it is used
 * (docs/design.md section 14).
 */
export const LONGEST_DURATION_MS = 36_500 * DURATION_UNITS.d!;
const TOO_LONG = '!must be at most 36500d (100 years)';

/** A duration of at least `minMs` and at most LONGEST_DURATION_MS; `expected` says what fits. */
function durationSetting(minMs: number, expected: string): (raw: string) => number | string {
  return (raw) => {
    const ms = parseDuration(raw);
    if (ms === undefined || ms < minMs) return `!must be ${expected}`;
    return ms > LONGEST_DURATION_MS ? TOO_LONG : ms;
  };
}

function parseSchedule(raw: string): number[] | string {
  const steps = raw.split(',').map(parseDuration);
  if (steps.length === 0 || steps.some((step) => step === undefined)) {
    return '!must be a comma-separated list of durations such as 5s,5m,2h';
  }
  return steps.some((step) => step! > LONGEST_DURATION_MS) ? `${TOO_LONG} each` : (steps as number[]);
}

/** A retention period (`30s`, `12h`, `400d`), or `off` to keep for ever. */
function parseRetention(raw: string): number | undefined | string {
  if (raw.toLowerCase() === 'off') return undefined;
  const ms = parseDuration(raw);
  if (ms === undefined || ms <= 0) return '!must be a duration such as 30s, 12h or 400d, or off';
  return ms > LONGEST_DURATION_MS ? TOO_LONG : ms;
}

const RATE_WINDOWS: Record<string, number> = { s: 1_000, min: 60_000, h: 3_600_000 };

/** `<n>/<s|min|h>` (1200/min), or `off`. */
function parseRateLimit(raw: string): RateLimit | undefined | string {
  if (raw.toLowerCase() === 'off') return undefined;
  const match = /^(\d+)\s*\/\s*(s|min|h)$/.exec(raw);
  const max = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(max) || max < 1) return '!must be <requests>/<s|min|h>, such as 1200/min, or off';
  return { max, windowMs: RATE_WINDOWS[match[2]!]! };
}

function parseTrustProxy(raw: string): boolean | string[] | string {
  if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  const proxies = raw.split(',').map((entry) => entry.trim());
  const valid = (entry: string) => {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  };
  return proxies.every(valid) ? proxies : '!must be true, false, or proxy addresses/CIDRs separated by commas';
}

export type WebhookWorkerPlacement = 'thread' | 'main' | 'none';
/** What WEBHOOK_WORKER=true means (docs/benchmarks.md, "Webhooks under sustained push load"). */
const DEFAULT_WEBHOOK_WORKER: WebhookWorkerPlacement = 'thread';

function parseWebhookWorker(raw: string): string {
  if (raw === 'thread' || raw === 'main') return raw;
  const on = parseBoolean(raw);
  if (typeof on === 'string') return '!must be true, false, thread or main';
  return on ? DEFAULT_WEBHOOK_WORKER : 'none';
}

function parseBoolean(raw: string): boolean | string {
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  return '!must be true or false';
}
