// application/x-www-form-urlencoded bodies (the sign-in forms, and userinfo POSTs), for
// one Fastify scope: parsed into a plain record of strings, with a small size limit.
import type { FastifyInstance } from 'fastify';

export type FormBody = Record<string, string | undefined>;

export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}
