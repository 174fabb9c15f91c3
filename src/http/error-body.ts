// Renders an ApiError as the documented body (docs/design.md section 3; docs/errors.md,
// "Errors"): {"detail": {"type", "errors": [{"type", "target", "message"}], "error_str"}}.
import type { ApiError } from '../errors.ts';
import { renderMessage, type Language } from '../i18n/messages.ts';

export interface ErrorBodyJson {
  readonly detail: {
    readonly type: string;
    readonly errors: ReadonlyArray<{ readonly type: string; readonly target: string; readonly message: string }>;
    readonly error_str: string;
    readonly merged_into?: unknown;
  };
}

/**
 * At most this many entries in one answer (docs/design.md section 8): 20,000 empty residences
 * in a 60 KB body would otherwise make a 4.6 MB answer. `error_str` still counts them all.
 */
export const MAX_ERROR_ENTRIES = 100;

export function renderErrorBody(error: ApiError, language: Language): ErrorBodyJson {
  const entries = error.problems
    .slice(0, MAX_ERROR_ENTRIES)
    .map((problem) => ({ target: problem.target, message: renderMessage(problem, language) }));
  const body = errorBody(error.type, error.subject, entries, error.problems.length);
  return error.extra === undefined ? body : { detail: { ...body.detail, ...error.extra } };
}

/** The body for entries whose messages are already text; /readyz answers with it without an ApiError. */
export function errorBody(
  type: string,
  subject: string,
  entries: ReadonlyArray<{ target: string; message: string }>,
  total = entries.length,
): ErrorBodyJson {
  const errors = entries.slice(0, MAX_ERROR_ENTRIES).map(({ target, message }) => ({ type, target, message }));
  return { detail: { type, errors, error_str: errorString(type, subject, errors, total) } };
}

/**
 * `2 validation errors for CustomerLead` (or `1 error for Request` outside validation),
 * then per entry its target and, indented, its message; past MAX_ERROR_ENTRIES, a last
 * line says how many more were found.
 */
function errorString(
  type: string,
  subject: string,
  errors: ReadonlyArray<{ target: string; message: string }>,
  total: number,
): string {
  const kind = type === 'ValidationError' ? 'validation error' : 'error';
  const head = `${total} ${kind}${total === 1 ? '' : 's'} for ${subject}`;
  // A problem of the whole request has the empty target; it is named so the line is not blank.
  const lines = errors.map(({ target, message }) => `\n${target || '(request)'}\n  ${message}`).join('');
  const more = total - errors.length;
  return head + lines + (more > 0 ? `\n... and ${more} more ${kind}${more === 1 ? '' : 's'} not listed` : '');
}
