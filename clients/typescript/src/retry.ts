// Sending a request again when that is safe and may help: after a network error, a 429
// (rate limited) or a 503 (the process was stopping), and after a 409 that carries
// Retry-After (the same Idempotency-Key still running). Waits honour Retry-After; without
// it, exponential backoff with full jitter spreads clients that failed together. Every
// write carries an Idempotency-Key, the same on each attempt, so a write the server did
// receive is not applied twice (the lead-intake docs/api.md, "Retrying safely").

export interface RetryOptions {
  /** Attempts in all, the first included (default 4). 1 turns retries off. */
  readonly attempts?: number;
  /** The first backoff step in milliseconds (default 250); each further step doubles. */
  readonly baseDelayMs?: number;
  /** The longest wait between attempts (default 30 s): a longer Retry-After is not waited for. */
  readonly maxDelayMs?: number;
  /** A number in [0, 1): the jitter (default Math.random). */
  readonly random?: () => number;
  /**
   * Waits the given milliseconds between attempts (default: a timer, ended early by the
   * request's abort signal). The next attempt is sent once it resolves, so a test can record
   * the waits the client chose, or move a clock by them, instead of waiting.
   */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The time a Retry-After given as an HTTP date is counted from (default Date.now). */
  readonly now?: () => number;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** How a request is sent: the standard fetch signature. */
export type Send = (url: string, init: RequestInit) => Promise<Response>;

/**
 * What openapi-fetch builds a request into (its `Request` option). A `Request` would hold
 * the body as a stream, to be teed for every attempt and sent chunked; this keeps the URL
 * and the init as given (the body is the JSON text), so each attempt sends the same text
 * with a Content-Length, and nothing is copied.
 */
export class PreparedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly init: RequestInit;
  constructor(url: string | URL, init: RequestInit = {}) {
    this.url = String(url);
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = new Headers(init.headers);
    this.init = init;
  }
}

/** A fetch for openapi-fetch that adds an Idempotency-Key to writes and retries as described above. */
export function retryingFetch(send: Send, options: RetryOptions = {}): (request: PreparedRequest) => Promise<Response> {
  const attempts = Math.max(1, options.attempts ?? 4);
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? delay;
  const now = options.now ?? Date.now;

  return async (request) => {
    const { headers, init } = request;
    if (WRITES.has(request.method) && !headers.has('idempotency-key')) {
      headers.set('idempotency-key', globalThis.crypto.randomUUID());
    }
    const signal = init.signal ?? undefined;
    const sent: RequestInit = { ...init, method: request.method, headers };
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await send(request.url, sent);
      } catch (error) {
        // An abort is the caller's decision, not a failure to retry.
        if (signal?.aborted || attempt >= attempts) throw error;
        await sleep(backoff(attempt, baseDelayMs, maxDelayMs, random), signal);
        continue;
      }
      if (!isRetryable(response) || attempt >= attempts) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'), now());
      if (asked !== undefined && asked > maxDelayMs) return response;
      const wait =
        asked === undefined ? backoff(attempt, baseDelayMs, maxDelayMs, random) : asked + random() * baseDelayMs;
      await response.body?.cancel();
      await sleep(wait, signal);
    }
  };
}

function isRetryable(response: Response): boolean {
  if (response.status === 429 || response.status === 503) return true;
  return response.status === 409 && response.headers.has('retry-after');
}

/** Full jitter: a random wait up to the exponential step. */
function backoff(attempt: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  return random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 section 10.2.3), in milliseconds. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
