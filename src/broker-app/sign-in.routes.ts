// Signing in and out of the broker app (docs/design.md section 7): /app/login sends the browser
// to the embedded provider (code + PKCE), /app/callback takes the code back and starts a
// session, /app/logout (POST, CSRF token) ends it. A page asked for while signed out is
// where the browser returns to.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { findActiveUser } from '../sso/index.ts';
import { PAGE_HEADERS } from './pages/layout.ts';
import {
  beginSignIn,
  callbackPath,
  completeSignIn,
  decodePending,
  encodePending,
  ensureAppClient,
  safeReturnPath,
} from './sign-in/oidc-client.ts';
import { pageContext } from './pages/page-context.ts';
import { loginPathFor } from './sign-in/session-guard.ts';
import { renderNotice } from './pages/notice.page.ts';
import { cookieHeader, endSession, findSession, isValidCsrf, readCookie, startSession } from './sign-in/session.ts';
import type { FormBody } from '../http/form-body.ts';

const SIGN_IN_COOKIE = 'lead_intake_app_signin';
/** Time to type a password, and then some. */
const SIGN_IN_SECONDS = 600;

export const signInRoutes: FastifyPluginAsync<{ config: Config; database: DatabaseHandle }> = async (
  app,
  { config, database },
) => {
  const { db } = database;
  const page = (reply: FastifyReply, status: number, body: string) =>
    reply.status(status).headers(PAGE_HEADERS).send(body);
  const failed = (request: FastifyRequest, reply: FastifyReply, returnTo = '/app') =>
    page(
      reply,
      400,
      renderNotice(pageContext(request), 'signInFailedTitle', 'signInFailed', {
        href: loginPathFor(returnTo),
        label: 'signIn',
      }),
    );

  app.get<{ Querystring: { return_to?: unknown } }>('/login', async (request, reply) => {
    const returnTo = safeReturnPath(request.query.return_to);
    if (await findSession(db, request)) return reply.redirect(returnTo, 303);
    const client = await ensureAppClient(db, config);
    const { url, pending } = beginSignIn(config, client, pageContext(request).language, returnTo);
    reply.header(
      'set-cookie',
      cookieHeader(SIGN_IN_COOKIE, encodePending(pending), { path: callbackPath, maxAgeSeconds: SIGN_IN_SECONDS }),
    );
    return reply.header('cache-control', 'no-store').redirect(url, 303);
  });

  app.get<{ Querystring: Record<string, unknown> }>('/callback', async (request, reply) => {
    const pending = decodePending(readCookie(request, SIGN_IN_COOKIE));
    reply.header('set-cookie', cookieHeader(SIGN_IN_COOKIE, '', { path: callbackPath, maxAgeSeconds: 0 }));
    const { state, code } = request.query;
    // state ties the answer to this browser's own request (no login CSRF).
    if (
      !pending ||
      typeof state !== 'string' ||
      state !== pending.state ||
      typeof code !== 'string' ||
      code.length > 2000
    ) {
      return failed(request, reply, pending?.returnTo);
    }
    const client = await ensureAppClient(db, config);
    const userId = await completeSignIn(app, db, config, client, code, pending);
    const user = userId === undefined ? undefined : await findActiveUser(db, userId);
    if (!user) return failed(request, reply, pending.returnTo);
    await startSession(db, reply, user.id);
    return reply.redirect(safeReturnPath(pending.returnTo), 303);
  });

  app.post<{ Body: FormBody }>('/logout', async (request, reply) => {
    const session = await findSession(db, request);
    if (session) {
      if (!isValidCsrf(session, request.body?.csrf)) {
        return page(
          reply,
          403,
          renderNotice(pageContext(request, session), 'forbiddenTitle', 'formExpired', {
            href: '/app',
            label: 'inbox',
          }),
        );
      }
      await endSession(db, reply, session);
    }
    return reply.redirect('/app/signed-out', 303);
  });

  app.get('/signed-out', async (request, reply) =>
    page(
      reply,
      200,
      renderNotice(pageContext(request), 'signedOutTitle', 'signedOut', { href: '/app/login', label: 'signIn' }),
    ),
  );
};
