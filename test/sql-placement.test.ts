// SQL lives in repositories, `db/` and migrations only (docs/design.md section 10, "One
// meaning per file suffix"): a file of src/ anywhere else that builds a query with Kysely,
// imports what runs or quotes SQL (kysely, pg, node:sqlite, as values), or holds SQL text
// fails here, so a query never hides in a use case, a route or a page. Reads the source
// with swc (the parser dependency-cruiser uses), so comments never count; no server.
import fs from 'node:fs';
import path from 'node:path';
import { parseSync } from '@swc/core';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..', 'src');

/** Where SQL belongs (paths under src/). Tests write the SQL they expect or set up. */
const SQL_HOMES = [/\.repository\.ts$/, /^db\//, /\.test\.ts$/];

/** Kysely's query and schema builders, and its runner of compiled statements. */
const BUILDER_CALLS = new Set([
  'selectFrom',
  'selectNoFrom',
  'insertInto',
  'replaceInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
  'executeQuery',
  'createTable',
  'alterTable',
  'dropTable',
  'createIndex',
  'dropIndex',
]);

/** What runs SQL or writes it into text: imported as a value, not only as a type. */
const DRIVERS = new Set(['kysely', 'pg', 'node:sqlite']);

/**
 * Statements and clauses, told from English by what must follow their words (a column list,
 * `set x =`, `where`): template literals are read with `?` for each value put in.
 */
const SQL_TEXT = [
  /\bselect\s+(distinct\s+)?[\w.*$?]+\s*(,|\(|\bas\b|\bfrom\b)/i,
  /\binsert\s+(or\s+\w+\s+)?into\s+[\w."$?]+\s*(\(|\b(select|values|default)\b|\?|$)/i,
  /\bupdate\s+[\w."$?]+\s+set\s+[\w."$?]+\s*=/i,
  /\bdelete\s+from\s+[\w."$?]+(\s+(where|using|returning)\b|\s*$)/i,
  /\b(create|drop|alter)\s+(or\s+replace\s+)?((unique|virtual|temp|temporary)\s+)?(table|index|schema|function|view|trigger)\b/i,
  /\bwith\s+\w+\s+as\s+(materialized\s+)?\(/i,
  /\bpragma\s+\w+/i,
  /\b(to_tsquery|to_tsvector|ts_match_vq|json_each|json_agg|json_group_array|string_agg|row_to_json)\(/i,
];

interface Node {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** What in `code` is SQL, or makes or runs it: empty for a file that may stand outside repositories. */
function sqlIn(code: string): string[] {
  const found = new Set<string>();
  visit(parseSync(code, { syntax: 'typescript' }), (node) => {
    if (node.type === 'ImportDeclaration') {
      const { source, typeOnly, specifiers } = node as unknown as ImportNode;
      const values = specifiers.filter((specifier) => !specifier.isTypeOnly).map(({ local }) => local.value);
      if (DRIVERS.has(source.value) && !typeOnly && values.length > 0) {
        found.add(`imports ${values.join(', ')} from ${source.value}`);
      }
    }
    if (node.type === 'CallExpression') {
      const callee = node.callee as Node & { property?: Node & { value?: string } };
      const name = callee.type === 'MemberExpression' ? callee.property?.value : undefined;
      if (name !== undefined && BUILDER_CALLS.has(name)) found.add(`calls .${name}()`);
    }
    const text =
      node.type === 'StringLiteral'
        ? (node.value as string)
        : node.type === 'TemplateLiteral'
          ? (node.quasis as { cooked?: string; raw: string }[]).map((part) => part.cooked ?? part.raw).join(' ? ')
          : undefined;
    if (text !== undefined && SQL_TEXT.some((pattern) => pattern.test(text))) {
      found.add(`SQL text "${text.replace(/\s+/g, ' ').trim().slice(0, 60)}"`);
    }
  });
  return [...found];
}

interface ImportNode {
  readonly source: { readonly value: string };
  readonly typeOnly: boolean;
  readonly specifiers: readonly { readonly isTypeOnly?: boolean; readonly local: { readonly value: string } }[];
}

function visit(node: unknown, see: (node: Node) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) visit(child, see);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  if (typeof (node as Node).type === 'string') see(node as Node);
  for (const [field, child] of Object.entries(node)) if (field !== 'span') visit(child, see);
}

function checkedFiles(): string[] {
  return fs
    .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => !SQL_HOMES.some((home) => home.test(file)))
    .sort();
}

describe('where SQL is written', () => {
  it('finds SQL in nothing but repositories, db/ and migrations', () => {
    const files = checkedFiles();
    expect(files).toContain('reference/addresses/street-words.ts');
    const misplaced = files.flatMap((file) =>
      sqlIn(fs.readFileSync(path.join(SRC, file), 'utf8')).map((finding) => `src/${file}: ${finding}`),
    );
    expect(misplaced).toEqual([]);
  });

  it('tells a query, its driver and its text from a sentence or a comment', () => {
    expect(sqlIn("const lead = await trx.selectFrom('leads').selectAll().executeTakeFirst();")).toEqual([
      'calls .selectFrom()',
    ]);
    expect(sqlIn("import { sql, type Kysely } from 'kysely';\nimport type { Pool } from 'pg';")).toEqual([
      'imports sql from kysely',
    ]);
    expect(sqlIn("import { escapeLiteral } from 'pg';")).toEqual(['imports escapeLiteral from pg']);
    expect(sqlIn('const count = `select count(*) as n from $' + '{table} where id = ?`;')).toEqual([
      'SQL text "select count(*) as n from ? where id = ?"',
    ]);
    expect(sqlIn("run('create index on ' + table + ' (zipcode)');")).toEqual(['SQL text "create index on"']);
    expect(
      sqlIn(
        "// select * from leads, in a comment\nimport type { Transaction } from 'kysely';\n" +
          "const help = 'Select a reason from the list, then update the lead; delete from the inbox';",
      ),
    ).toEqual([]);
  });
});
