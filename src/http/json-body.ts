// Request bodies are JSON (RFC 8259), parsed with Fastify's own parser (secure-json-parse:
// a `__proto__` or `constructor.prototype` key is refused as a 400), and the raw text is
// kept on `request.rawBody` because the push log stores the payload verbatim.
//
// Nothing a partner sends is stored altered (docs/design.md section 8), so before any route
// sees a body: a charset other than UTF-8 is refused (415; RFC 8259 section 8.1: JSON
// exchanged between systems is UTF-8), bytes that are not UTF-8 are refused (400) rather
// than decoded into U+FFFD, and the parsed value is inspected once (storable-text.ts). Too
// deep a body is refused at once; NUL, lone surrogates and infinite numbers are reported
// with the schema's problems in one 422 (validation.ts takes them), or on their own by a
// preHandler for a route that validates no body.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, ValidationError, type Problem } from '../errors.ts';
import { MAX_DEPTH, inspectJson } from './storable-text.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body exactly as sent, for JSON requests. */
    rawBody?: string;
  }
}

/** Fatal: a malformed byte sequence throws instead of becoming U+FFFD. A leading BOM is dropped (RFC 8259 section 8.1 allows ignoring it). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Problems of a parsed body, kept until the body's validation (or the preHandler) reports them. */
const pendingProblems = new WeakMap<object, Problem[]>();

/** The problems inspectJson found in this body, once: the caller reports them. */
export function takeBodyProblems(body: unknown): Problem[] {
  if (body === null || typeof body !== 'object') return [];
  const problems = pendingProblems.get(body) ?? [];
  pendingProblems.delete(body);
  return problems;
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(['application/json', MERGE_PATCH], { parseAs: 'buffer' }, (request, body, done) => {
    const charset = charsetOf(request);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(
        new ApiError(415, 'UnsupportedMediaType', [
          { target: 'Content-Type', code: 'unsupported_charset', params: { charset } },
        ]),
        undefined,
      );
      return;
    }
    let text: string;
    try {
      text = UTF8.decode(body as Buffer);
    } catch {
      done(new ApiError(400, 'InvalidJSON', [{ target: '', code: 'invalid_encoding' }]), undefined);
      return;
    }
    request.rawBody = text;
    parse(request, text, (error, value) => {
      if (error) return done(error, undefined);
      const { problems, tooDeep } = inspectJson(value);
      const subject = subjectOf(request);
      if (tooDeep !== undefined) {
        return done(
          new ValidationError([{ target: tooDeep, code: 'too_deep', params: { limit: MAX_DEPTH } }], subject),
          undefined,
        );
      }
      if (problems.length > 0) {
        // A scalar body has no identity to hang its problems on: reported now.
        if (value === null || typeof value !== 'object') return done(new ValidationError(problems, subject), undefined);
        pendingProblems.set(value, problems);
      }
      done(null, value);
    });
  });
  // Fastify answers 415 itself for media types it has no parser for, but it also parses
  // text/plain and lets a body-less request without Content-Type through. A route that
  // takes a body accepts JSON only. preValidation runs after the route's onRequest hooks,
  // so an unauthenticated caller still gets 401 first.
  // A callback hook, as every hook that runs on each request here: no promise, no tick.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.routeOptions.schema?.body !== undefined && !isJson(request)) {
      return done(
        new ApiError(415, 'UnsupportedMediaType', [{ target: 'Content-Type', code: 'unsupported_media_type' }]),
      );
    }
    done();
  });
  // Validation has taken the problems of a body it validated; a route without a body
  // schema still must not see NUL, a lone surrogate or Infinity.
  app.addHook('preHandler', (request, _reply, done) => {
    // A route that attaches its validation error reports that one itself.
    if (request.validationError) return done();
    const problems = takeBodyProblems(request.body);
    done(problems.length > 0 ? new ValidationError(problems, subjectOf(request)) : undefined);
  });
}

/**
 * JSON, with or without parameters such as `charset=utf-8`; for a PATCH also JSON Merge
 * Patch (RFC 7396), which is what a PATCH body is. A push or a batch is not a merge patch
 * (its arrays add, its nulls clear nothing it did not name): sent as one it is refused
 * (docs/errors.md, 415), not read as something it does not say.
 */
function isJson(request: FastifyRequest): boolean {
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json' || (mediaType === MERGE_PATCH && request.method === 'PATCH');
}

const MERGE_PATCH = 'application/merge-patch+json';

/** The `charset` parameter of Content-Type, lower-cased and unquoted; undefined when absent. */
function charsetOf(request: FastifyRequest): string | undefined {
  const parameters = request.headers['content-type']?.split(';').slice(1) ?? [];
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() === 'charset')
      return value
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase();
  }
  return undefined;
}

/** `error_str` names the body by its schema's title (CustomerLead), else "Request". */
function subjectOf(request: FastifyRequest): string {
  const title = (request.routeOptions.schema?.body as { title?: unknown } | undefined)?.title;
  return typeof title === 'string' ? title : 'Request';
}
