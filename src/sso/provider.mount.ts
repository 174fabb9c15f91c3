// Hands every other /sso request to oidc-provider (a Koa application) untouched:
// discovery, authorization, token, JWKS, revocation and end-session. Fastify must not
// read the body (the provider parses its own form posts), so this scope has one content
// parser that leaves the request stream alone, and the reply is hijacked.
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import { SECURITY_HEADERS } from '../http/response-headers.ts';
import { SSO_PATH } from './provider/provider-urls.ts';
import type { SsoRuntime } from './sso-runtime.ts';

export const providerMount: FastifyPluginAsync<{ sso: SsoRuntime }> = async (app, { sso }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.all('/*', { schema: { hide: true } }, async (request, reply) => {
    // Before the hijack, so a database that is down gets the documented 500 body.
    const { handle } = await sso();
    reply.hijack();
    reply.raw.setHeader('x-request-id', request.id);
    // The provider sets its own Cache-Control where it matters (token, userinfo).
    reply.raw.setHeader('x-content-type-options', SECURITY_HEADERS['x-content-type-options']);
    // Mounted like Express's app.use('/sso', ...): the provider sees its own paths and
    // finds the mount point in originalUrl, so its URLs keep the /sso prefix.
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = raw.url!.slice(SSO_PATH.length) || '/';
    await handle(raw, reply.raw);
  });
};
