// An API token checked by the write it authorises (docs/design.md section 4): a route whose
// write can read the token's row in a statement it runs anyway (a single push, in its
// lookup) lets a token the process has already found live through without a read of its
// own, so a push costs a statement (on PostgreSQL a round trip) fewer. "Revoked at once"
// still holds: no answer of such a request leaves before the token was found live in the
// database, by the write's statement or, for an answer that came out of no write (a
// refusal, a replay), by a read of its own in onSend, whose 401 then replaces that answer.
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { UnauthenticatedError } from '../errors.ts';
import { renderErrorBody } from '../http/error-body.ts';
import { requestLanguage } from '../http/error-handler.ts';

/** What a write (or onSend) reads of the token: none when it is gone. */
export interface TokenState {
  readonly revoked_at: string | null;
  readonly expires_at: string | null;
}

/** Live: not revoked, and not expired at `now` (an ISO time). */
export function tokenLive(row: TokenState | undefined, now: string): boolean {
  return row !== undefined && row.revoked_at === null && (row.expires_at === null || row.expires_at > now);
}

/** A token let through unread: checked by the request's write, or by onSend before any answer. */
export class TokenCheck {
  readonly tokenId: string;
  #checked = false;
  readonly #forget: () => void;
  readonly #now: () => string;

  /** `forget` drops the token from the process's memory; `now` is the clock its expiry is read on. */
  constructor(tokenId: string, forget: () => void, now: () => string) {
    this.tokenId = tokenId;
    this.#forget = forget;
    this.#now = now;
  }

  get checked(): boolean {
    return this.#checked;
  }

  /** What the write found of the token: live, or 401 (and the write is rolled back). */
  settle(row: TokenState | undefined): void {
    if (tokenLive(row, this.#now())) {
      this.#checked = true;
      return;
    }
    this.#forget();
    throw new UnauthenticatedError();
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireScope when the token came from the process's cache of live tokens. */
    tokenCheck?: TokenCheck;
  }
  interface FastifyContextConfig {
    /** The route's write reads the token's row (`request.tokenCheck`): a known token is let through unread. */
    tokenCheckedInWrite?: boolean;
  }
}

/** Headers an answer replaced by the 401 must not keep (a replay's, a refusal's). */
const ANSWER_HEADERS = ['location', 'etag', 'idempotent-replayed', 'retry-after', 'allow', 'link'];

/**
 * The onSend check: an answer of a request whose token no write checked waits for a read of
 * the token, and is replaced by the 401 when it is no longer live. `readToken` reads the
 * token's row by its id.
 */
export function registerTokenCheckInWrite(
  app: FastifyInstance,
  readToken: (tokenId: string) => Promise<TokenState | undefined>,
): void {
  const checkBeforeAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const check = request.tokenCheck!;
    try {
      check.settle(await readToken(check.tokenId));
      return payload;
    } catch (error) {
      if (!(error instanceof UnauthenticatedError)) throw error;
      request.caller = undefined;
      for (const name of ANSWER_HEADERS) reply.removeHeader(name);
      reply.status(error.status).headers(error.headers).header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(renderErrorBody(error, requestLanguage(request)));
    }
  };
  // A callback hook: every other answer passes with one property read.
  const hook: onSendHookHandler = (request, reply, payload, done) => {
    if (request.tokenCheck === undefined || request.tokenCheck.checked) return done(null, payload);
    checkBeforeAnswer(request, reply, payload).then((sent) => done(null, sent), done);
  };
  app.addHook('onSend', hook);
}
