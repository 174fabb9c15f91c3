// The one place that maps errors to the documented body (docs/design.md section 3): ApiErrors
// as they are, Fastify's own errors by status, anything else as a 500 that is logged with
// the request id and shows the caller nothing of its cause.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiError,
  NotFoundError,
  PreparedAnswer,
  ValidationError,
  type ErrorType,
  type MessageCode,
  type Problem,
} from '../errors.ts';
import { chooseLanguage, type Language } from '../i18n/messages.ts';
import { problemsFromAjv } from './ajv-problems.ts';
import { renderErrorBody } from './error-body.ts';

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) =>
    error instanceof PreparedAnswer
      ? reply.status(error.status).headers(error.headers).send(error.body)
      : sendError(toApiError(error, request), request, reply),
  );
  // Unknown routes, and known routes asked with a method they do not have.
  app.setNotFoundHandler((request, reply) => sendError(new NotFoundError(), request, reply));
}

export function sendError(error: ApiError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply
    .status(error.status)
    .headers(error.headers)
    .send(renderErrorBody(error, requestLanguage(request)));
}

/** The language of a request's messages: the SSO user's, else Accept-Language's (docs/design.md section 3). */
export function requestLanguage(request: FastifyRequest): Language {
  const caller = request.caller;
  return chooseLanguage(caller?.kind === 'user' ? caller.language : undefined, request.headers['accept-language']);
}

/** Errors Fastify (or a plugin) raises with a status of their own, by that status. */
const BY_STATUS: Readonly<Record<number, { type: ErrorType; code: MessageCode; target?: string }>> = {
  // Malformed, empty or prototype-poisoned JSON (FST_ERR_CTP_INVALID_JSON_BODY,
  // FST_ERR_CTP_EMPTY_JSON_BODY), or a body that does not match its Content-Length.
  400: { type: 'InvalidJSON', code: 'invalid_json' },
  404: { type: 'NotFound', code: 'not_found' },
  413: { type: 'PayloadTooLarge', code: 'payload_too_large' }, // FST_ERR_CTP_BODY_TOO_LARGE
  // FST_ERR_CTP_INVALID_MEDIA_TYPE; json-body.ts raises the same for text/plain or no type.
  415: { type: 'UnsupportedMediaType', code: 'unsupported_media_type', target: 'Content-Type' },
  429: { type: 'RateLimited', code: 'rate_limited' },
};

function toApiError(error: unknown, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as Partial<FastifyError>;
  // Ajv errors that reached Fastify without our compiler (a schema compiled elsewhere).
  if (Array.isArray(fastifyError.validation)) {
    return new ValidationError(problemsFromAjv(fastifyError.validation as never));
  }
  const mapped = fastifyError.statusCode === undefined ? undefined : BY_STATUS[fastifyError.statusCode];
  if (mapped) {
    const problem: Problem = {
      target: mapped.target ?? '',
      code: mapped.code,
      ...(mapped.code === 'payload_too_large' && { params: { limit: request.routeOptions.bodyLimit } }),
    };
    return new ApiError(fastifyError.statusCode!, mapped.type, [problem]);
  }
  // Only here is the cause worth an operator's attention; request.log carries the reqId.
  request.log.error({ err: error }, 'unexpected error');
  return new ApiError(500, 'InternalError', [{ target: '', code: 'internal' }]);
}
