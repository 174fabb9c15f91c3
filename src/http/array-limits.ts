// Lists longer than their schema's maxItems, found before the schema validates the items:
// Ajv (allErrors) would otherwise check, and report, every element of a 20,000-element
// list that is refused anyway (docs/design.md section 8: 60 KB of empty residences cost
// seconds of CPU and a 4.6 MB answer). Such a list is reported once for its length, and validation sees
// only its first maxItems elements, so every other problem of the body is still found in
// the same pass at a bounded cost.
import type { Problem } from '../errors.ts';

interface SchemaNode {
  readonly type?: unknown;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly items?: SchemaNode | readonly SchemaNode[];
  readonly maxItems?: number;
  readonly anyOf?: readonly SchemaNode[];
  readonly oneOf?: readonly SchemaNode[];
  readonly allOf?: readonly SchemaNode[];
}

type Container = Record<string, unknown> | unknown[];

interface Oversized {
  readonly problem: Problem;
  readonly parent: Container;
  readonly key: string | number;
  readonly limit: number;
}

const holdsListsCache = new WeakMap<SchemaNode, boolean>();

/**
 * Whether a value of `node` may hold a list with a maxItems, itself or anywhere below: the
 * walk below skips the rest (a car's or a coverage's fields), which took it from 20 to 9 µs
 * per full push (docs/benchmarks.md). Computed once per schema node.
 */
function holdsLists(node: SchemaNode): boolean {
  const known = holdsListsCache.get(node);
  if (known !== undefined) return known;
  // A schema is a tree (no $ref followed here); false while computing ends any cycle.
  holdsListsCache.set(node, false);
  const children = [
    ...(Array.isArray(node.items) ? node.items : node.items === undefined ? [] : [node.items as SchemaNode]),
    ...Object.values(node.properties ?? {}),
    ...(node.anyOf ?? []),
    ...(node.oneOf ?? []),
    ...(node.allOf ?? []),
  ];
  const holds = typeof node.maxItems === 'number' || children.some(holdsLists);
  holdsListsCache.set(node, holds);
  return holds;
}

/** Every list of `data` (below its root) longer than its schema allows. */
function findOversized(schema: unknown, data: unknown): Oversized[] {
  const found: Oversized[] = [];
  // Runs on every body: the path is kept as segments and joined only for a list it reports.
  const path: Array<string | number> = [];
  const visit = (
    node: SchemaNode | undefined,
    value: unknown,
    parent: Container | undefined,
    key: string | number,
  ): void => {
    if (node === undefined || value === null || typeof value !== 'object' || !holdsLists(node)) return;
    if (node.anyOf) for (const branch of node.anyOf) visit(branch, value, parent, key);
    if (node.oneOf) for (const branch of node.oneOf) visit(branch, value, parent, key);
    if (node.allOf) for (const branch of node.allOf) visit(branch, value, parent, key);
    if (Array.isArray(value)) {
      if (typeof node.maxItems === 'number' && value.length > node.maxItems && parent !== undefined) {
        found.push({
          problem: { target: path.join('.'), code: 'max_items', params: { limit: node.maxItems } },
          parent,
          key,
          limit: node.maxItems,
        });
        return;
      }
      const items = node.items;
      if (items === undefined) return;
      for (let index = 0; index < value.length; index++) {
        path.push(index);
        visit(Array.isArray(items) ? items[index] : (items as SchemaNode), value[index], value, index);
        path.pop();
      }
      return;
    }
    if (node.properties === undefined) return;
    for (const name in node.properties) {
      if (!Object.hasOwn(value, name)) continue;
      path.push(name);
      visit(node.properties[name], (value as Record<string, unknown>)[name], value as Record<string, unknown>, name);
      path.pop();
    }
  };
  visit(schema as SchemaNode, data, undefined, '');
  return found;
}

/**
 * Runs `validate` over `data` with each oversized list cut to its maxItems (restored
 * afterwards), and returns the problems of the lists' lengths.
 */
export function withListsCut<T>(
  schema: unknown,
  data: unknown,
  validate: () => T,
): { result: T; oversized: Problem[] } {
  const oversized = findOversized(schema, data);
  const set = (parent: Container, key: string | number, value: unknown) => {
    (parent as Record<string | number, unknown>)[key] = value;
  };
  const originals = oversized.map(({ parent, key, limit }) => {
    const original = (parent as Record<string | number, unknown>)[key] as unknown[];
    set(parent, key, original.slice(0, limit));
    return original;
  });
  try {
    return { result: validate(), oversized: oversized.map((entry) => entry.problem) };
  } finally {
    for (const [index, { parent, key }] of oversized.entries()) set(parent, key, originals[index]);
  }
}
