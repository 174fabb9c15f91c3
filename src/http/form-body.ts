// application/x-www-form-urlencoded bodies (the SSO's sign-in forms and userinfo POSTs,
// the broker app's forms), for one Fastify scope: parsed into a plain record of strings,
// with a small size limit.
import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../errors.ts';
import { isStorableText } from './storable-text.ts';

export type FormBody = Record<string, string | undefined>;

export function acceptFormBodies(app: FastifyInstance, { bodyLimit = 16 * 1024 } = {}): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (_request, body, done) => {
      const form = Object.fromEntries(new URLSearchParams(body as string));
      // The JSON bodies' rule (storable-text.ts): a NUL or lone surrogate is refused, not looked up.
      const refused = Object.entries(form).filter(([name, value]) => !isStorableText(name) || !isStorableText(value));
      if (refused.length > 0) {
        done(
          new ValidationError(
            refused.map(([name]) => ({ target: isStorableText(name) ? name : '', code: 'invalid_text' as const })),
          ),
          undefined,
        );
        return;
      }
      done(null, form);
    },
  );
}
