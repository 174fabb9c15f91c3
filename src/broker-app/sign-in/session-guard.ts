// Every page of the app but signing in needs a session (docs/design.md section 7): a
// visitor without one is sent to sign in and comes back to the page asked for; a form
// posted without one (its session expired meanwhile) comes back to the inbox.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { type AppSession, findSession } from './session.ts';

declare module 'fastify' {
  interface FastifyRequest {
    appSession?: AppSession;
  }
}

/** Where a signed-out visitor of `path` is sent. */
export function loginPathFor(path: string): string {
  return `/app/login?return_to=${encodeURIComponent(path)}`;
}

/** Every route of `scope` runs with `request.appSession` set, or is not run. */
export function requireSession(scope: FastifyInstance, db: Kysely<Database>): void {
  scope.decorateRequest('appSession', undefined);
  scope.addHook('preHandler', async (request, reply) => {
    const session = await findSession(db, request);
    if (session) {
      request.appSession = session;
      return;
    }
    return reply.redirect(loginPathFor(request.method === 'GET' ? request.url : '/app'), 303);
  });
}
