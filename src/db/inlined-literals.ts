// A PostgreSQL query planned for its values: the values written into its text as literals
// instead of sent as parameters. Our connections plan parameterised statements once,
// generically (database.ts: plan_cache_mode = force_generic_plan, right for the push
// path's statements), and a generic plan cannot know that a distribution holds 100,000
// leads or that a status is rare; the broker app's inbox (party/inbox/inbox.repository.ts)
// needs the plan its values call for. Only numbers and text are written in: text through
// pg's escapeLiteral, numbers as they print. The placeholders replaced are those of the
// compiled text alone, in one pass: a `$1` in a value, or in quoted text, a quoted name or
// a comment of the query, stays as it is.
import { CompiledQuery, type Kysely } from 'kysely';
import { escapeLiteral } from 'pg';

/** The text of `compiled` with each `$n` placeholder replaced by its value as a literal. */
export function inlineLiterals(compiled: CompiledQuery): string {
  const text = compiled.sql;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const end = skipQuoted(text, i);
    if (end > i) {
      out += text.slice(i, end);
      i = end;
      continue;
    }
    const placeholder = /^\$(\d+)/.exec(text.slice(i, i + 12));
    if (placeholder && !/[\w$]/.test(text[i - 1] ?? ' ')) {
      const index = Number(placeholder[1]) - 1;
      if (index < 0 || index >= compiled.parameters.length) throw new Error(`no value for $${index + 1}`);
      out += literal(compiled.parameters[index]);
      i += placeholder[0].length;
      continue;
    }
    out += text[i];
    i++;
  }
  return out;
}

/** Runs `compiled` with its values inlined (on PostgreSQL: the dialect whose literals these are). */
export async function runInlined<Row, DB>(db: Kysely<DB>, compiled: CompiledQuery): Promise<Row[]> {
  return (await db.executeQuery<Row>(CompiledQuery.raw(inlineLiterals(compiled), []))).rows;
}

function literal(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return escapeLiteral(value);
  throw new Error(`no literal for ${typeof value}`);
}

/**
 * Where quoted text, a quoted name, a dollar-quoted string or a comment that starts at `i`
 * ends; `i` itself when none starts there.
 */
function skipQuoted(text: string, i: number): number {
  const char = text[i];
  if (char === "'" || char === '"') {
    // E'...' (escape string syntax) takes a backslash before a quote as part of the text.
    const escapes = char === "'" && /[eE]/.test(text[i - 1] ?? '') && !/[\w$]/.test(text[i - 2] ?? ' ');
    let j = i + 1;
    while (j < text.length) {
      if (escapes && text[j] === '\\') j += 2;
      else if (text[j] === char && text[j + 1] === char) j += 2;
      else if (text[j] === char) return j + 1;
      else j++;
    }
    return text.length;
  }
  if (text.startsWith('--', i)) {
    const newline = text.indexOf('\n', i);
    return newline === -1 ? text.length : newline + 1;
  }
  if (text.startsWith('/*', i)) {
    const close = text.indexOf('*/', i + 2);
    return close === -1 ? text.length : close + 2;
  }
  const tag = /^\$([A-Za-z_][\w]*)?\$/.exec(text.slice(i, i + 64));
  if (char === '$' && tag && !/[\w$]/.test(text[i - 1] ?? ' ')) {
    const close = text.indexOf(tag[0], i + tag[0].length);
    return close === -1 ? text.length : close + tag[0].length;
  }
  return i;
}
