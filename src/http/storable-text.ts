// What a JSON body may hold (docs/design.md section 8): text is well-formed Unicode without NUL,
// so SQLite and PostgreSQL store the same string and give it back unchanged (PostgreSQL's
// text and jsonb refuse U+0000, and a lone surrogate has no UTF-8 form at all); numbers are
// finite (JSON.parse turns 1e400 into Infinity, which serialises as null); nesting is
// bounded, so no later step (merge patch, validation, serialisation) recurses without end.
import type { Problem } from '../errors.ts';

/** Deeper than any of our documents (a push is 7 levels deep); a value below this depth is refused. */
export const MAX_DEPTH = 32;

/** Well-formed UTF-16 (no lone surrogate) without U+0000. */
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

export interface BodyFindings {
  /** One per offending value or key, with its dot-path target. */
  readonly problems: Problem[];
  /** The target of the first value nested deeper than MAX_DEPTH (it is not looked into). */
  readonly tooDeep: string | undefined;
}

/** Walks a parsed JSON value once, depth-first, never deeper than MAX_DEPTH + 1. */
export function inspectJson(value: unknown): BodyFindings {
  const problems: Problem[] = [];
  let tooDeep: string | undefined;
  const path: string[] = [];
  const target = () => path.join('.');

  const visit = (node: unknown, depth: number): void => {
    if (typeof node === 'string') {
      if (!isStorableText(node)) problems.push({ target: target(), code: 'invalid_text' });
      return;
    }
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) problems.push({ target: target(), code: 'not_finite' });
      return;
    }
    if (node === null || typeof node !== 'object') return;
    if (depth >= MAX_DEPTH) {
      tooDeep ??= target();
      return;
    }
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length && tooDeep === undefined; index++) {
        path.push(String(index));
        visit(node[index], depth + 1);
        path.pop();
      }
      return;
    }
    for (const key of Object.keys(node)) {
      if (tooDeep !== undefined) return;
      path.push(key);
      if (!isStorableText(key)) problems.push({ target: target(), code: 'invalid_text' });
      else visit((node as Record<string, unknown>)[key], depth + 1);
      path.pop();
    }
  };
  visit(value, 0);
  return { problems, tooDeep };
}
