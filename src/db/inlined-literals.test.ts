// The values of a query written into its text (inlined-literals.ts): each placeholder once,
// each value as a literal PostgreSQL reads back exactly (test/inlined-literals.test.ts runs
// them through PostgreSQL), and nothing else of the text touched.
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inlineLiterals } from './inlined-literals.ts';

const inline = (text: string, ...parameters: unknown[]) => inlineLiterals(CompiledQuery.raw(text, parameters));

describe('inlineLiterals', () => {
  it('writes each value where its placeholder is, $10 apart from $1', () => {
    const parameters = Array.from({ length: 10 }, (_, i) => `v${i + 1}`);
    expect(inline('select $1, $10, $2 limit $11', ...parameters, 51)).toBe("select 'v1', 'v10', 'v2' limit 51");
  });

  it('replaces placeholders in one pass: a value that reads `$1` or `$2` stays that text', () => {
    expect(inline('select $1, $2', '$2', '$1')).toBe("select '$2', '$1'");
    expect(inline('select $1', '$$ $a$ $1$')).toBe("select '$$ $a$ $1$'");
  });

  it('doubles quotes, and writes a value with backslashes as an escape string', () => {
    expect(inline('select $1', "it's")).toBe("select 'it''s'");
    expect(inline('select $1', "O''Brien")).toBe("select 'O''''Brien'");
    expect(inline('select $1', 'back\\slash')).toBe("select  E'back\\\\slash'");
    expect(inline('select $1', "\\'; drop table leads; --")).toBe("select  E'\\\\''; drop table leads; --'");
  });

  it('leaves placeholders inside quoted text, quoted names, dollar quotes and comments alone', () => {
    expect(inline(`select '$1', 'a''$1', E'\\'$1', "$1", $$ $1 $$, $q$ $1 $q$ -- $1\n, $1 /* $1 */`, 'x')).toBe(
      `select '$1', 'a''$1', E'\\'$1', "$1", $$ $1 $$, $q$ $1 $q$ -- $1\n, 'x' /* $1 */`,
    );
  });

  it('takes no $1 that is part of a name', () => {
    expect(inline('select a$1, $1', 'x')).toBe("select a$1, 'x'");
  });

  it('refuses a value it cannot write, and a placeholder without a value', () => {
    expect(() => inline('select $1', true)).toThrow('no literal for boolean');
    expect(() => inline('select $1', Number.NaN)).toThrow('no literal for number');
    expect(() => inline('select $1', null)).toThrow('no literal for object');
    expect(() => inline('select $2', 'x')).toThrow('no value for $2');
  });
});
