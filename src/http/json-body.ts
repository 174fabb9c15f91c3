// Request bodies are JSON, parsed with Fastify's own parser (secure-json-parse: a
// `__proto__` or `constructor.prototype` key is refused as a 400), and the raw text is
// kept on `request.rawBody` because the push log stores the payload verbatim.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body exactly as sent, for JSON requests. */
    rawBody?: string;
  }
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser([...JSON_MEDIA_TYPES], { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = body as string;
    parse(request, body as string, done);
  });
  // Fastify answers 415 itself for media types it has no parser for, but it also parses
  // text/plain and lets a body-less request without Content-Type through. A route that
  // takes a body accepts JSON only. preValidation runs after the route's onRequest hooks,
  // so an unauthenticated caller still gets 401 first.
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.schema?.body !== undefined && !isJson(request)) {
      throw new ApiError(415, 'UnsupportedMediaType', [{ target: 'Content-Type', code: 'unsupported_media_type' }]);
    }
  });
}

/** JSON, and JSON Merge Patch (RFC 7396) for party updates. */
const JSON_MEDIA_TYPES = ['application/json', 'application/merge-patch+json'] as const;

/** A JSON media type, with or without parameters such as `charset=utf-8`. */
function isJson(request: FastifyRequest): boolean {
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return (JSON_MEDIA_TYPES as readonly string[]).includes(mediaType ?? '');
}
