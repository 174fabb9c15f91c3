// Headers on the service's own answers. `nosniff` keeps a browser from reading a JSON
// answer (or an error echoing input) as HTML or script; `no-store` keeps leads, tokens and
// errors out of shared and browser caches (RFC 9111 section 5.2.2.5): API answers are
// personal data and change with every push. The reference page under /docs is static and
// may be cached as its plugin says.
import type { FastifyInstance } from 'fastify';

export const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' } as const;

const CACHEABLE_PREFIX = '/docs';

export function registerResponseHeaders(app: FastifyInstance): void {
  // Callback hooks: they run on every request, and a callback costs less than a promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', SECURITY_HEADERS['x-content-type-options']);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control') && !request.url.startsWith(CACHEABLE_PREFIX)) {
      reply.header('cache-control', SECURITY_HEADERS['cache-control']);
    }
    done(null, payload);
  });
}
