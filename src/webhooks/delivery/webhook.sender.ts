// One HTTP attempt of a webhook delivery (docs/design.md section 5): POST the signed body to a
// callback URL over a connection to checked addresses only (address-guard.ts), with one
// deadline for everything (DNS, connect, answer, body), no redirects followed, and at most
// 64 KiB of the answer read: a receiver must not be able to hold a worker or its memory.
import http from 'node:http';
import https from 'node:https';
import { type AddressGuard, RefusedAddressError, lookupFor, withoutBrackets } from './address-guard.ts';

export const ATTEMPT_TIMEOUT_MS = 15_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Kept of a failed answer's body, for `lead-intake webhook deliveries`. */
const ERROR_BODY_CHARS = 200;

export interface SendResult {
  /** The receiver's HTTP status; null when there was no answer. */
  readonly statusCode: number | null;
  /** Why it failed (no answer, or the start of a non-2xx answer's body). */
  readonly error: string | null;
  /** The address guard refused the host: nothing was sent. */
  readonly refused: boolean;
  /** From a Retry-After header (seconds or an HTTP date). */
  readonly retryAfterMs: number | null;
  readonly durationMs: number;
}

export interface SenderOptions {
  readonly guard: AddressGuard;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  /** Connections per receiver host, at most. */
  readonly maxSockets?: number;
}

export class WebhookSender {
  readonly #guard: AddressGuard;
  readonly #timeoutMs: number;
  readonly #maxResponseBytes: number;
  // Keep-alive: a busy receiver gets its events over a few warm connections instead of a
  // new TCP (and TLS) handshake per event. A kept socket was connected to a checked address.
  readonly #agents: { 'http:': http.Agent; 'https:': https.Agent };

  constructor(options: SenderOptions) {
    this.#guard = options.guard;
    this.#timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.#maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 16 };
    this.#agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };
  }

  async send(target: string, headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<SendResult> {
    const started = performance.now();
    // One controller, aborted by the deadline or the caller: AbortSignal.timeout and
    // AbortSignal.any per attempt were 3% of a busy worker's CPU.
    const controller = new AbortController();
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no answer within ${this.#timeoutMs / 1000} s`));
    }, this.#timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const abort = controller.signal;
    const result = (fields: Partial<SendResult>): SendResult => ({
      statusCode: null,
      error: null,
      refused: false,
      retryAfterMs: null,
      ...fields,
      durationMs: Math.round(performance.now() - started),
    });
    try {
      const url = new URL(target);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return result({ error: `not an http(s) URL`, refused: true });
      const addresses = await abortable(this.#guard.resolve(url.hostname), abort);
      const answer = await this.#post(url, addresses, headers, body, abort);
      return result({
        statusCode: answer.statusCode,
        retryAfterMs: parseRetryAfter(answer.retryAfter),
        error: answer.ok ? null : `HTTP ${answer.statusCode}${answer.text ? `: ${answer.text}` : ''}`,
      });
    } catch (error) {
      if (error instanceof RefusedAddressError) return result({ error: error.message, refused: true });
      if (timedOut) return result({ error: `no answer within ${this.#timeoutMs / 1000} s` });
      if (signal?.aborted) return result({ error: 'aborted: the worker stopped' });
      return result({ error: describe(error) });
    } finally {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  close(): void {
    this.#agents['http:'].destroy();
    this.#agents['https:'].destroy();
  }

  #post(
    url: URL,
    addresses: Awaited<ReturnType<AddressGuard['resolve']>>,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ): Promise<{ statusCode: number; ok: boolean; retryAfter: string | undefined; text: string }> {
    const protocol = url.protocol as 'http:' | 'https:';
    const payload = Buffer.from(body);
    return new Promise((resolve, reject) => {
      const request = (protocol === 'https:' ? https : http).request({
        protocol,
        // The name stays the host: the Host header and TLS (SNI, certificate check) use it,
        // while `lookup` hands the socket the checked addresses.
        hostname: withoutBrackets(url.hostname),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: this.#agents[protocol],
        lookup: lookupFor(addresses),
        signal,
        ...(url.username ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': 'lead-intake-webhooks/1',
        },
      });
      request.once('error', reject);
      // Redirects are answers like any other: a 3xx is not a 2xx, so it is a failed attempt.
      request.once('response', (response) => {
        const chunks: Buffer[] = [];
        let received = 0;
        const finish = () => {
          const ok = response.statusCode! >= 200 && response.statusCode! < 300;
          const text = ok
            ? ''
            : Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim().slice(0, ERROR_BODY_CHARS);
          resolve({ statusCode: response.statusCode!, ok, retryAfter: response.headers['retry-after'], text });
        };
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received <= this.#maxResponseBytes) chunks.push(chunk);
          else {
            // Enough: the status is known, the rest is not worth a byte more.
            response.destroy();
            finish();
          }
        });
        response.once('end', finish);
        response.once('error', reject);
      });
      request.end(payload);
    });
  }
}

/** Seconds (`120`) or an HTTP date (RFC 9110 section 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now = Date.now()): number | null {
  if (header === undefined) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
