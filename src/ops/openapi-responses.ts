// Every status an operation can answer, declared with its body, an example of its own and
// the headers sent with it (docs/design.md sections 3 and 14). Routes declare what their
// handler answers; the answers that come from the shared plumbing (the body parser, the
// credential check, the rate limit, the shutdown refusal, the error handler) are added
// here for every operation they guard, so a proxy that validates traffic against the
// document (Prism) finds nothing undocumented.
import {
  ApiError,
  ConflictError,
  ErasedError,
  ForbiddenError,
  NotFoundError,
  UnauthenticatedError,
  ValidationError,
} from '../errors.ts';
import { ErrorBody } from '../http/error-body.schema.ts';
import { renderErrorBody } from '../http/error-body.ts';

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { schema?: { title?: string } }> };
  responses?: Record<string, Json>;
}

/** What each status means here (docs/design.md section 3). */
const MEANINGS: Record<string, string> = {
  '200': 'OK',
  '207': 'Multi-Status: one or more items of the batch were refused; each result says what its item got.',
  '400': 'InvalidJSON: the body is not JSON; or BadRequest: the request has no Host, or two.',
  '401': 'Unauthenticated: no, malformed, unknown, revoked or expired credentials (`WWW-Authenticate` is set).',
  '403': 'Forbidden: valid credentials without the scope, or without access to this distribution.',
  '404': 'NotFound: unknown route, distribution or resource.',
  '409':
    'Conflict: the request matches two different parties; Erased: it carries an external ref (or `prospect.id`) ' +
    'of a person who was erased; or IdempotencyConflict: a request with this Idempotency-Key is still running ' +
    '(`Retry-After` is set). Nothing was written.',
  '410':
    'Erased: the person was erased on request (docs/personal-data.md, "Answering an erasure request"); nothing about them is kept.',
  '412': 'PreconditionFailed: `If-Match` names no longer the stored version; read again and retry.',
  '413': 'PayloadTooLarge: the body is over the size limit.',
  '415': 'UnsupportedMediaType: Content-Type is not application/json.',
  '422':
    'ValidationError: one entry per problem found, all of them in one answer; or IdempotencyKeyReused: this ' +
    'Idempotency-Key was used with another request. Nothing was written.',
  '429': 'RateLimited: too many requests for this credential; retry after `Retry-After` seconds.',
  '500': 'InternalError: unexpected; retrying may help.',
  '503':
    'ServiceUnavailable: the process is stopping (`Retry-After` is set; or, for /readyz, the database is not reachable); retry.',
};

/** What a status means for one operation, where it differs from MEANINGS. */
const OWN_MEANINGS: Record<string, Record<string, string>> = {
  pushLeadBatch: {
    '200': 'Every item succeeded: one result per item, in item order, with counts.',
    '422': 'ValidationError of the envelope (targets `leads` or `leads.<i>.type`): nothing was written.',
  },
};

/** Operations whose 200 carries the entity tag that `If-Match` sends back (docs/api.md, "Reading and updating"). */
const ETAG_OPERATIONS = new Set(['getLead', 'updateLead', 'getParty', 'updateParty']);

/** Header objects, referenced from every response that sends them. */
export const RESPONSE_HEADERS: Record<string, Json> = {
  RequestId: {
    description: 'Identifies the request in the service logs; quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  ETag: { description: 'The version of the resource; send it back in `If-Match`.', schema: { type: 'string' } },
  Location: { description: 'URL of the created lead (its `self`).', schema: { type: 'string', format: 'uri' } },
  WWWAuthenticate: {
    description: 'The schemes this API accepts: `apikey` (API tokens) and `Bearer` (SSO access tokens).',
    schema: { type: 'string' },
  },
  IdempotentReplayed: {
    description:
      "`true` when this is the answer kept for the request's `Idempotency-Key`, sent again without running it.",
    schema: { type: 'string', enum: ['true'] },
  },
  RetryAfter: { description: 'Seconds to wait before sending the request again.', schema: { type: 'integer' } },
  RateLimitLimit: { description: 'Requests allowed per window for this credential.', schema: { type: 'integer' } },
  RateLimitRemaining: { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  RateLimitReset: { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
};
const ERROR_BODY_TITLE = (ErrorBody as { title?: string }).title;
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Adds the statuses the plumbing answers, their examples and their headers, to every operation. */
export function declareResponses(paths: Record<string, Record<string, Operation>>): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      operation.responses ??= {};
      const responses = operation.responses;
      for (const status of plumbingStatuses(path, method, operation)) {
        responses[status] ??= { description: MEANINGS[status], content: { 'application/json': { schema: ErrorBody } } };
      }
      for (const [status, response] of Object.entries(responses)) {
        if (response.description === undefined || response.description === 'Default Response') {
          response.description = OWN_MEANINGS[operation.operationId ?? '']?.[status] ?? MEANINGS[status] ?? 'OK';
        }
        const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
        if ((media?.schema as { title?: unknown } | undefined)?.title === ERROR_BODY_TITLE) {
          media!.example ??= exampleFor(status, operation);
        }
        response.headers = {
          ...headersFor(status, operation, isKeyedWrite(path, method)),
          ...(response.headers as Json | undefined),
        };
      }
    }
  }
}

function plumbingStatuses(path: string, method: string, operation: Operation): string[] {
  // Any request may be refused for its HTTP (400, a missing Host), and any may arrive while
  // the process stops (503); the error handler answers the unexpected (500).
  const statuses = ['400', '500', '503'];
  const bearerOnly = path.startsWith('/sso/');
  if ((operation.security?.length ?? 0) > 0 && !bearerOnly) statuses.push('401', '403', '429');
  if (path.startsWith('/v1/api/')) statuses.push('404');
  // Every write under /v1/api/ takes an Idempotency-Key (docs/design.md section 14): 409
  // while its first request runs, 422 for a malformed or reused key.
  if (isKeyedWrite(path, method)) statuses.push('409', '422');
  if (operation.requestBody) statuses.push('413', '415', '422');
  if (operation.parameters?.some((parameter) => parameter.in === 'query')) statuses.push('422');
  if (operation.parameters?.some((parameter) => parameter.in === 'header' && parameter.name === 'if-match')) {
    statuses.push('412');
  }
  return statuses;
}

/** Every write under /v1/api/ takes an Idempotency-Key (docs/design.md section 14). */
function isKeyedWrite(path: string, method: string): boolean {
  return path.startsWith('/v1/api/') && ['post', 'patch', 'delete'].includes(method);
}

function headersFor(status: string, operation: Operation, keyedWrite: boolean): Json {
  const headers: Json = { 'x-request-id': header('RequestId') };
  if (keyedWrite && status.startsWith('2')) headers['Idempotent-Replayed'] = header('IdempotentReplayed');
  if (keyedWrite && status === '409') headers['Retry-After'] = header('RetryAfter');
  const secured = (operation.security?.length ?? 0) > 0;
  if (secured && status !== '401' && status !== '403') {
    headers['RateLimit-Limit'] = header('RateLimitLimit');
    headers['RateLimit-Remaining'] = header('RateLimitRemaining');
    headers['RateLimit-Reset'] = header('RateLimitReset');
  }
  if (status === '200' && ETAG_OPERATIONS.has(operation.operationId ?? '')) headers.ETag = header('ETag');
  if (status === '201') headers.Location = header('Location');
  // RFC 6750: userinfo's refusals say why in WWW-Authenticate, its 403 too.
  if (status === '401' || (status === '403' && operation.operationId === 'userinfo')) {
    headers['WWW-Authenticate'] = header('WWWAuthenticate');
  }
  // 503: a process that is stopping says when to send the request again (protocol-refusals.ts).
  if (status === '429' || status === '503') headers['Retry-After'] = header('RetryAfter');
  return headers;
}

/** A field each body's 422 example names. */
const INVALID_TARGETS: Record<string, string> = { PartyPatch: 'address.zipcode', LeadPatch: 'assignee' };

/** An answer this service gives with that status, rendered by the same code that renders real ones. */
function exampleFor(status: string, operation: Operation): unknown {
  const subject = operation.requestBody?.content?.['application/json']?.schema?.title ?? 'Request';
  const error = ((): ApiError => {
    switch (status) {
      case '400':
        return operation.requestBody
          ? new ApiError(400, 'InvalidJSON', [{ target: '', code: 'invalid_json' }])
          : new ApiError(400, 'BadRequest', [{ target: 'Host', code: 'missing' }]);
      case '401':
        return new UnauthenticatedError();
      case '403':
        return new ForbiddenError({
          target: 'Authorization',
          code: 'forbidden_scope',
          params: { scope: 'leads:write' },
        });
      case '404':
        return new NotFoundError();
      case '409':
        return new ConflictError([{ target: 'prospect.external_refs.0', code: 'conflict_parties' }], subject);
      case '410':
        return new ErasedError(410, [{ target: 'party_id', code: 'erased' }]);
      case '412':
        return new ApiError(412, 'PreconditionFailed', [{ target: 'If-Match', code: 'precondition_failed' }]);
      case '413':
        return new ApiError(413, 'PayloadTooLarge', [
          { target: '', code: 'payload_too_large', params: { limit: 1048576 } },
        ]);
      case '415':
        return new ApiError(415, 'UnsupportedMediaType', [{ target: 'Content-Type', code: 'unsupported_media_type' }]);
      case '422':
        if (!operation.requestBody) {
          return new ValidationError([{ target: 'limit', code: 'maximum', params: { limit: 100 } }], 'QueryParameters');
        }
        return new ValidationError(
          [{ target: INVALID_TARGETS[subject] ?? 'prospect.address.zipcode', code: 'invalid' }],
          subject,
        );
      case '429':
        return new ApiError(429, 'RateLimited', [{ target: '', code: 'rate_limited' }]);
      case '503':
        return new ApiError(503, 'ServiceUnavailable', [{ target: '', code: 'shutting_down' }]);
      default:
        return new ApiError(500, 'InternalError', [{ target: '', code: 'internal' }]);
    }
  })();
  return renderErrorBody(error, 'en');
}
