// Renders an ApiError as the documented body (specification, "Errors"; DESIGN.md
// section 3): {"detail": {"type", "errors": [{"type", "target", "message"}], "error_str"}}.
import type { ApiError } from '../errors.ts';
import { renderMessage, type Language } from '../i18n/messages.ts';

export interface ErrorBodyJson {
  readonly detail: {
    readonly type: string;
    readonly errors: ReadonlyArray<{ readonly type: string; readonly target: string; readonly message: string }>;
    readonly error_str: string;
  };
}

export function renderErrorBody(error: ApiError, language: Language): ErrorBodyJson {
  const entries = error.problems.map((problem) => ({ target: problem.target, message: renderMessage(problem, language) }));
  return errorBody(error.type, error.subject, entries);
}

/** The body for entries whose messages are already text; /readyz answers with it without an ApiError. */
export function errorBody(type: string, subject: string, entries: ReadonlyArray<{ target: string; message: string }>): ErrorBodyJson {
  const errors = entries.map(({ target, message }) => ({ type, target, message }));
  return { detail: { type, errors, error_str: errorString(type, subject, errors) } };
}

/**
 * `2 validation errors for CustomerLead` (or `1 error for Request` outside validation),
 * then per entry its target and, indented, its message.
 */
function errorString(type: string, subject: string, errors: ReadonlyArray<{ target: string; message: string }>): string {
  const count = errors.length;
  const kind = type === 'ValidationError' ? 'validation error' : 'error';
  const head = `${count} ${kind}${count === 1 ? '' : 's'} for ${subject}`;
  // A problem of the whole request has the empty target; it is named so the line is not blank.
  return head + errors.map(({ target, message }) => `\n${target || '(request)'}\n  ${message}`).join('');
}
