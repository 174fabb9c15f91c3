// The per-credential rate limit (docs/design.md section 8): RATE_LIMIT requests per window for
// each API token, and for each SSO user through each client, answered 429 RateLimited with
// Retry-After once spent; RateLimit-Limit/-Remaining/-Reset on every answer to an
// authenticated request. One process counts in memory; with REDIS_URL every process counts
// in one Redis (one atomic script per request).
//
// @fastify/rate-limit does the counting, the Redis store and the headers; what is ours is
// the key, where it runs, and the memory store, which reads the app's clock
// (rate-window-store.ts). Its hook runs at preParsing: after every onRequest hook, so after
// requireScope has named the caller, and before the body is read, so a spent credential
// costs no parsing. Requests without a caller are not counted: they were refused with
// 401/403 before (that has no credential to count), or are not API requests (/healthz,
// /docs, the SSO pages, whose sign-in has its own throttle, sso/interaction/login-throttle.ts).
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Caller } from '../../auth/caller.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { ApiError } from '../../errors.ts';
import { memoryWindowStore } from './rate-window-store.ts';

/**
 * Credentials whose counts the memory store keeps, the least recently used dropped: a
 * credential dropped starts a fresh window, so the limit holds for the busiest ones, and
 * the store never grows with the number of credentials that ever called.
 */
export const RATE_LIMIT_STORE_SIZE = 100_000;

/** The count a caller's requests share. */
export function rateLimitKey(caller: Caller): string {
  return caller.kind === 'token' ? `token:${caller.id}` : `user:${caller.id}:client:${caller.clientId}`;
}

export async function registerRateLimit(
  app: FastifyInstance,
  config: Pick<Config, 'rateLimit' | 'redisUrl' | 'redisKeyPrefix'>,
  clock: Clock,
): Promise<void> {
  const limit = config.rateLimit;
  if (limit === undefined) return;
  const redis = config.redisUrl === undefined ? undefined : await connectRedis(app, config.redisUrl);
  await app.register(rateLimit, {
    global: true,
    hook: 'preParsing',
    max: limit.max,
    timeWindow: limit.windowMs,
    // RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset (draft-ietf-httpapi-ratelimit-headers).
    enableDraftSpec: true,
    keyGenerator: (request: FastifyRequest) => (request.caller ? rateLimitKey(request.caller) : ''),
    allowList: (request: FastifyRequest) => request.caller === undefined,
    errorResponseBuilder: () => new ApiError(429, 'RateLimited', [{ target: '', code: 'rate_limited' }]),
    // Redis keeps its windows as keys with their own TTL; in memory they follow the clock.
    ...(redis
      ? { redis, nameSpace: `${config.redisKeyPrefix}rate:` }
      : { store: memoryWindowStore(clock, RATE_LIMIT_STORE_SIZE) }),
    // Redis unreachable: serve without counting rather than refuse everyone (logged below).
    skipOnError: true,
  });
}

async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    // A request never waits for Redis to come back: its count fails, and is skipped.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
  });
  let lastError: Error | undefined;
  let connected = false;
  redis.on('error', (error: Error) => {
    if (connected && lastError === undefined)
      app.log.error({ err: error }, 'rate limit: Redis unreachable; requests are not counted until it is back');
    lastError = error;
  });
  redis.on('ready', () => {
    lastError = undefined;
  });
  // A wrong REDIS_URL fails the start, loudly, instead of serving without a limit.
  try {
    await redis.connect();
    connected = true;
  } catch (error) {
    redis.disconnect();
    const where = new URL(url);
    throw new Error(`REDIS_URL: cannot connect to Redis at ${where.host}: ${(lastError ?? (error as Error)).message}`);
  }
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}
