// The broker app's session: a random 256-bit value in an HttpOnly, Secure, SameSite=Lax
// cookie scoped to /app, stored server-side only as its hash. Lax, not Strict, because a
// broker opens lead links from the partner's CRM or mail (a cross-site navigation) and
// must arrive signed in; forms that change something carry a CSRF token besides.
import { createHmac, hash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { secretsEqual } from '../../auth/secret.ts';
import type { Database } from '../../db/database.ts';
import type { UserTable } from '../../sso/index.ts';
import { deleteSession, deleteSessionsExpiredBefore, findSessionUser, insertSession } from './session.repository.ts';

export const APP_PATH = '/app';
export const SESSION_COOKIE = 'lead_intake_app';
/** A working day and then some: a broker signs in once a morning. */
export const SESSION_LIFETIME_MS = 12 * 3_600_000;

export interface AppSession {
  /** The cookie's value: keys the CSRF token of this session's forms. */
  readonly secret: string;
  readonly user: UserTable;
}

const hashOf = (secret: string) => hash('sha256', secret, 'hex');

export function cookieHeader(name: string, value: string, options: { path: string; maxAgeSeconds: number }): string {
  // Secure always: browsers treat http://localhost as secure, and anywhere else the app
  // must be served over https anyway.
  return `${name}=${value}; Path=${options.path}; Max-Age=${options.maxAgeSeconds}; HttpOnly; Secure; SameSite=Lax`;
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

export async function startSession(
  db: Kysely<Database>,
  reply: FastifyReply,
  userId: string,
  now = new Date(),
): Promise<void> {
  const secret = randomBytes(32).toString('base64url');
  const expires = new Date(now.getTime() + SESSION_LIFETIME_MS);
  // Expired rows go as new ones come: no timer needed, and the table stays small.
  await deleteSessionsExpiredBefore(db, now.toISOString());
  await insertSession(db, {
    id_hash: hashOf(secret),
    user_id: userId,
    created_at: now.toISOString(),
    expires_at: expires.toISOString(),
  });
  reply.header(
    'set-cookie',
    cookieHeader(SESSION_COOKIE, secret, { path: APP_PATH, maxAgeSeconds: SESSION_LIFETIME_MS / 1000 }),
  );
}

/** The signed-in user of this request: a live session of a user who is not disabled. */
export async function findSession(db: Kysely<Database>, request: FastifyRequest): Promise<AppSession | undefined> {
  const secret = readCookie(request, SESSION_COOKIE);
  if (!secret || !/^[\w-]{43}$/.test(secret)) return undefined;
  const user = await findSessionUser(db, hashOf(secret), new Date().toISOString());
  return user && { secret, user };
}

export async function endSession(db: Kysely<Database>, reply: FastifyReply, session: AppSession): Promise<void> {
  await deleteSession(db, hashOf(session.secret));
  reply.header('set-cookie', cookieHeader(SESSION_COOKIE, '', { path: APP_PATH, maxAgeSeconds: 0 }));
}

/**
 * The CSRF token of this session's forms: an HMAC of a fixed label under the session's
 * secret, which only the HttpOnly cookie holds, so another site can neither read nor make
 * it; it dies with the session.
 */
export function csrfTokenOf(session: AppSession): string {
  return createHmac('sha256', session.secret).update('lead-intake app csrf').digest('base64url');
}

export function isValidCsrf(session: AppSession, presented: unknown): boolean {
  return typeof presented === 'string' && secretsEqual(Buffer.from(csrfTokenOf(session)), Buffer.from(presented));
}
