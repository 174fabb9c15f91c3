// Path and query parameters obey the body's rule for text (docs/design.md section 8): a NUL or
// a lone surrogate in them (`/leads/%00`) is refused before any route looks it up, the same
// way on both databases (PostgreSQL cannot even compare such text). A path parameter that
// cannot be stored names nothing: 404, as any id that names nothing. A query parameter is
// the caller's input: 422 on its name. A path parameter in the shape of a UUID is
// lower-cased here, for every route and method, before any route looks it up: ids are
// case-insensitive (RFC 9562; docs/design.md section 14), and the tables hold them in lower case.
import type { FastifyInstance } from 'fastify';
import { canonicalId } from '../db/ids.ts';
import { NotFoundError, ValidationError, type Problem } from '../errors.ts';
import { isStorableText } from './storable-text.ts';

export function registerParameterChecks(app: FastifyInstance): void {
  // onRequest, and registered before every route: the routes' own onRequest hooks (the
  // credential's distribution, auth/authorize.ts) compare the id already lower-cased.
  app.addHook('onRequest', (request, _reply, done) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(params))
      if (typeof value === 'string') params[name] = canonicalId(value);
    done();
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(params)) {
      if (typeof value === 'string' && !isStorableText(value)) return done(new NotFoundError(name));
    }
    const problems: Problem[] = [];
    for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
      const values = Array.isArray(value) ? value : [value];
      const target = isStorableText(name) ? name : '';
      if (target === '' || values.some((entry) => typeof entry === 'string' && !isStorableText(entry))) {
        problems.push({ target, code: 'invalid_text' });
      }
    }
    done(problems.length > 0 ? new ValidationError(problems, 'QueryParameters') : undefined);
  });
}
