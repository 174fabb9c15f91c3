// Error classes carry their HTTP status and `detail.type` (docs/design.md section 3); the one
// error handler (src/http/error-handler.ts) turns them into the documented body, with
// messages localised at that point. Shown to clients only below 500.

export type ErrorType =
  | 'InvalidJSON'
  | 'Unauthenticated'
  | 'Forbidden'
  | 'NotFound'
  | 'Conflict'
  | 'PreconditionFailed'
  | 'Erased'
  | 'Merged'
  | 'PayloadTooLarge'
  | 'UnsupportedMediaType'
  | 'ValidationError'
  | 'RateLimited'
  | 'IdempotencyKeyReused'
  | 'IdempotencyConflict'
  | 'BadRequest'
  | 'RequestTimeout'
  | 'HeaderFieldsTooLarge'
  | 'ExpectationFailed'
  | 'ServiceUnavailable'
  | 'InternalError';

/**
 * Message codes: each has a text per language in src/i18n. `field` (last non-numeric
 * segment of the target) is filled in by the renderer; codes may take extra params.
 */
export type MessageCode =
  | 'missing' // Error for '<field>'. This value is missing
  | 'invalid' // Error for '<field>'. The specified value is invalid.
  | 'min_length' // params.limit
  | 'max_length' // params.limit
  | 'min_items' // params.limit
  | 'max_items' // params.limit
  | 'minimum' // params.limit
  | 'maximum' // params.limit
  | 'not_allowed_value' // params.allowed: comma-separated list
  | 'field_not_allowed' // nothing is allowed where it stands
  | 'field_not_allowed_suggestion' // params.suggestions: the close allowed names, quoted, closest first
  | 'field_not_allowed_listed' // params.allowed: every allowed name, closest first (none is close)
  | 'unknown_reference' // a policy_package_id / risk_object_id / prospect.id naming nothing
  | 'duplicate' // the same id twice in one request
  | 'owned_elsewhere' // a client-chosen id already belongs to another party
  | 'invalid_json'
  | 'unauthenticated'
  | 'api_token_scheme' // an API token (li_…) sent under a scheme other than apikey
  | 'access_token_scheme' // an SSO access token (a JWT) sent under a scheme other than bearer
  | 'forbidden_scope' // params.scope
  | 'forbidden_distribution'
  | 'not_found'
  | 'conflict_parties' // the push matches two different parties
  | 'precondition_failed'
  | 'payload_too_large' // params.limit (bytes)
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'bad_request' // HTTP the server's parser refused (framing, header lines, method)
  | 'request_timeout' // params.limit (seconds)
  | 'headers_too_large'
  | 'expectation_failed' // an Expect other than 100-continue
  | 'shutting_down' // a request on an open connection while the process stops
  | 'invalid_encoding' // a body that is not UTF-8
  | 'unsupported_charset' // params.charset
  | 'invalid_text' // NUL or a lone surrogate: not storable text (docs/design.md section 8)
  | 'not_finite' // a number JSON.parse turned into Infinity
  | 'too_deep' // params.limit (levels)
  | 'idempotency_key_reused' // the key was used with another request (method, path, body)
  | 'idempotency_conflict' // the key's first request is still running
  | 'erased' // the person this names was erased (docs/design.md section 15)
  | 'erased_ref' // a pushed external ref of an erased person
  | 'merged' // the party or lead was merged into another (docs/api.md, "Merging two parties")
  | 'merge_kind' // a merge of a customer with a company
  | 'merge_itself' // a merge of a party with itself
  | 'merge_match_key' // params.party_id: a merge whose survivor would hold a third party's e-mail + birth + address
  | 'internal';

/**
 * The form a value refused as `invalid` should have, named in its message (docs/design.md
 * section 16): `Error for 'id'. The specified value is invalid: a UUID version 4 is
 * expected.` Each has a text per language in src/i18n. Schemas name theirs with the
 * `x-expected` annotation (src/http/ajv-problems.ts reads it); formats and JSON types
 * are named without one.
 */
export type ExpectedForm =
  | 'uuid4'
  | 'uuid'
  | 'date_time'
  | 'date'
  | 'numeric_text'
  | 'vin'
  | 'enterprise_number' // with its mod-97 check digit (the enterprise lookup)
  | 'enterprise_nr' // the push's looser enterprise_nr text
  | 'email'
  | 'telephone'
  | 'language_code'
  | 'country_code'
  | 'zipcode_be'
  | 'zipcode_nl'
  | 'zipcode_other'
  | 'zipcode_digits'
  | 'http_url'
  | 'uri'
  | 'cursor'
  | 'search_text'
  | 'text'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'object'
  | 'list';

export interface Problem {
  /** Dot path from the body root, zero-based indexes; '' when the problem is the whole request. */
  readonly target: string;
  readonly code: MessageCode;
  readonly params?: Readonly<Record<string, string | number>>;
  /** For `invalid`: the form expected, appended to the specification's sentence. */
  readonly expected?: ExpectedForm;
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly problems: readonly Problem[];
  readonly headers: Readonly<Record<string, string>>;
  /** Names what failed in `error_str`, e.g. "CustomerLead" ("2 validation errors for CustomerLead"). */
  readonly subject: string;
  /** Members of `detail` beside type, errors and error_str (a merged party's `merged_into`). */
  readonly extra: Readonly<Record<string, unknown>> | undefined;

  constructor(
    status: number,
    type: ErrorType,
    problems: readonly Problem[],
    options: { headers?: Record<string, string>; subject?: string; extra?: Record<string, unknown> } = {},
  ) {
    super(`${type}: ${problems.map((p) => `${p.target || '(request)'} ${p.code}`).join('; ')}`);
    this.status = status;
    this.type = type;
    this.problems = problems;
    this.headers = options.headers ?? {};
    this.subject = options.subject ?? 'Request';
    this.extra = options.extra;
  }
}

/**
 * An answer decided for the request inside its use case, to be sent as it is: a kept answer
 * replayed when an Idempotency-Key's read in the write's own transaction finds one
 * (idempotency/idempotent-write.ts). Thrown, so the transaction writes nothing; the error
 * handler sends it.
 */
export class PreparedAnswer extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;

  constructor(status: number, headers: Readonly<Record<string, string>>, body: string) {
    super(`a prepared ${status} answer`);
    this.status = status;
    this.headers = headers;
    this.body = body;
  }
}

export class ValidationError extends ApiError {
  constructor(problems: readonly Problem[], subject = 'Request') {
    super(422, 'ValidationError', problems, { subject });
  }
}

export class UnauthenticatedError extends ApiError {
  constructor(
    target = 'Authorization',
    code: 'unauthenticated' | 'api_token_scheme' | 'access_token_scheme' = 'unauthenticated',
  ) {
    super(401, 'Unauthenticated', [{ target, code }], {
      headers: { 'www-authenticate': 'apikey, Bearer realm="lead-intake"' },
    });
  }
}

export class ForbiddenError extends ApiError {
  constructor(problem: Problem) {
    super(403, 'Forbidden', [problem]);
  }
}

export class NotFoundError extends ApiError {
  constructor(target = '') {
    super(404, 'NotFound', [{ target, code: 'not_found' }]);
  }
}

export class ConflictError extends ApiError {
  constructor(problems: readonly Problem[], subject = 'Request') {
    super(409, 'Conflict', problems, { subject });
  }
}

/**
 * The person was erased (docs/design.md section 15): 410 for a read of what is gone, 409 for
 * a push that carries one of their external refs (nothing is written).
 */
/**
 * The party or lead was merged into another (docs/api.md, "Merging two parties"): 410, with
 * the survivor's ids in `detail.merged_into` so a client follows them.
 */
export class MergedError extends ApiError {
  constructor(target: 'party_id' | 'lead_id' | 'from', mergedInto: { party_id: string; lead_id: string }) {
    super(410, 'Merged', [{ target, code: 'merged' }], { extra: { merged_into: mergedInto } });
  }
}

export class ErasedError extends ApiError {
  constructor(status: 409 | 410, problems: readonly Problem[], subject = 'Request') {
    super(status, 'Erased', problems, { subject });
  }
}
