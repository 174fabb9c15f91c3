// Mutations of a valid JSON body at one of its paths, as fast-check arbitraries: a hostile
// client's edits (a wrong type, an empty or huge value, NUL, a lone surrogate, a number
// that overflows, deep nesting, a missing or unknown member, a duplicated list element),
// and a confused one's (a VIN, ref or id copied onto another object or another kind of
// object, another party's ids and refs).
// The body is sent as text, so values JSON cannot carry from JavaScript (1e400, a lone
// surrogate escape) are spliced into the text by `serialise`.
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Path = ReadonlyArray<string | number>;

/** Stands for a raw JSON token in the value; `serialise` writes the token itself. */
const RAW = '\u0001raw:';
const raw = (token: string) => `${RAW}${token}\u0001`;

/** Every path of a JSON value: its containers and its leaves, the root excluded. */
export function pathsOf(value: Json, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const entries: Array<[string | number, Json]> = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

export const HOSTILE_VALUES: readonly Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0.0001,
  1e308,
  2 ** 53 + 1,
  '',
  ' ',
  'x'.repeat(300),
  'x'.repeat(20_000),
  '\u0000',
  'a\u0000b',
  raw('"a\\ud800b"'),
  raw('"\\udfff"'),
  '\ufeff',
  '\u202e',
  '😀'.repeat(200),
  '<script>alert(1)</script>',
  "'; drop table leads; --",
  '../../etc/passwd',
  '2016-12-31T23:59:60Z',
  '2026-02-30',
  '0000-00-00',
  '9999-12-31',
  '00000000-0000-0000-0000-000000000000',
  '3f0c9a43-4f6e-4c9b-9a57-2f1d1c8b7e01',
  'WVWZZZ1JZXW000001',
  'P-2026-001',
  'http://example.com:99999/',
  'https://crm.example.com/hooks/lead-intake',
  'BE',
  'NL',
  'ANNUAL',
  'ACTIVE',
  raw('1e400'),
  raw('-1e400'),
  raw('1e-400'),
  raw('123456789012345678901234567890'),
  [],
  {},
  [null],
  [{}],
  [[]],
  { '': 1 },
  { __lead: 1 },
  JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) as Json,
];

const UNKNOWN_KEYS = ['unknown', '', 'constructor', 'toString', 'a\u0000b', '0', 'id'];

export type Mutation =
  | { readonly kind: 'set'; readonly path: Path; readonly value: Json }
  | { readonly kind: 'delete'; readonly path: Path }
  | { readonly kind: 'add'; readonly path: Path; readonly key: string; readonly value: Json }
  | { readonly kind: 'duplicate'; readonly path: Path }
  /** A value of the body given to another member: a VIN, ref or id shared with another object, or of another kind. */
  | { readonly kind: 'copy'; readonly from: Path; readonly to: Path };

/**
 * One or a few mutations of `base`, each at one of its paths (or its root). `known` are
 * values the store already holds (another party's ids and refs): set anywhere, they make a
 * body name what belongs to someone else.
 */
export function mutationsOf(base: Json, maxMutations = 3, known: readonly Json[] = []): fc.Arbitrary<Mutation[]> {
  const paths: Path[] = [[], ...pathsOf(base)];
  const path = fc.constantFrom(...paths);
  const value = fc.constantFrom(...HOSTILE_VALUES, ...known);
  const leaves = paths.filter((leaf) => leaf.length > 0 && typeof at(base, leaf) === 'string');
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({ kind: fc.constant('set' as const), path: fc.constantFrom(...paths.slice(1)), value }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...paths.slice(1)) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('add' as const), path, key: fc.constantFrom(...UNKNOWN_KEYS), value }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), path }) },
    ...(leaves.length > 1
      ? [
          {
            weight: 3,
            arbitrary: fc.record({
              kind: fc.constant('copy' as const),
              from: fc.constantFrom(...leaves),
              to: fc.constantFrom(...leaves),
            }),
          },
        ]
      : []),
  );
  return fc.array(mutation, { minLength: 1, maxLength: maxMutations });
}

/** `base` with the mutations applied (a deep copy; mutations at paths that no longer exist do nothing). */
export function applyMutations(base: Json, mutations: readonly Mutation[]): Json {
  let body = structuredClone(base);
  for (const mutation of mutations) {
    if (mutation.kind === 'copy') {
      const value = at(body, mutation.from);
      const parent = at(body, mutation.to.slice(0, -1));
      const key = mutation.to.at(-1)!;
      if (value === undefined || parent === null || typeof parent !== 'object' || !(key in parent)) continue;
      (parent as Record<string | number, Json>)[key] = structuredClone(value);
    } else if (mutation.kind === 'set' || mutation.kind === 'delete') {
      const parent = at(body, mutation.path.slice(0, -1));
      const key = mutation.path.at(-1)!;
      if (parent === null || typeof parent !== 'object' || !(key in parent)) continue;
      if (mutation.kind === 'set') (parent as Record<string | number, Json>)[key] = structuredClone(mutation.value);
      else if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete (parent as Record<string, Json>)[key];
    } else {
      const target = at(body, mutation.path);
      if (mutation.kind === 'add' && target !== null && typeof target === 'object' && !Array.isArray(target)) {
        target[mutation.key] = structuredClone(mutation.value);
      } else if (mutation.kind === 'duplicate' && Array.isArray(target) && target.length > 0) {
        target.push(structuredClone(target[0]!));
      } else if (mutation.kind === 'duplicate' && typeof mutation.path.at(-1) === 'number') {
        // An element: a copy of it later in its own list (two cars with one VIN and id, ...).
        const list = at(body, mutation.path.slice(0, -1));
        if (Array.isArray(list) && target !== undefined) list.push(structuredClone(target));
      } else if (mutation.kind === 'add' && mutation.path.length === 0) {
        body = structuredClone(mutation.value);
      }
    }
  }
  return body;
}

function at(value: Json, path: Path): Json | undefined {
  let node: Json | undefined = value;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, Json>)[key];
  }
  return node;
}

/** The body as text, with the raw tokens written as they are. */
export function serialise(body: Json): string {
  return JSON.stringify(body).replace(
    /"\\u0001raw:((?:[^\\"]|\\.)*?)\\u0001"/g,
    (_match, token: string) => JSON.parse(`"${token}"`) as string,
  );
}

/** Whether a 422 target names a place in the body: an existing path, or a member of an existing object. */
export function isRealTarget(body: Json, target: string): boolean {
  if (target === '') return true;
  // A body that is not an object is refused as a whole, on the target that names the root.
  if (target === 'body' && (body === null || typeof body !== 'object' || Array.isArray(body))) return true;
  const segments = splitTarget(body, target);
  if (segments === undefined) return false;
  const parent = at(body, segments.slice(0, -1));
  return parent !== null && typeof parent === 'object';
}

/** Splits a dot target by walking the body, so keys that contain dots still match. */
function splitTarget(body: Json, target: string): Path | undefined {
  const path: Array<string | number> = [];
  let node: Json | undefined = body;
  let rest = target;
  while (rest !== '') {
    if (node === null || typeof node !== 'object') return rest.includes('.') ? undefined : [...path, rest];
    const keys: string[] = Array.isArray(node) ? node.map((_, i) => String(i)) : Object.keys(node);
    const remaining: string = rest;
    const key: string | undefined =
      keys.filter((k) => remaining === k || remaining.startsWith(`${k}.`)).sort((a, b) => b.length - a.length)[0] ??
      (remaining.includes('.') ? undefined : remaining);
    if (key === undefined) return undefined;
    path.push(Array.isArray(node) ? Number(key) : key);
    node = (node as Record<string, Json>)[key];
    rest = rest.slice(key.length + 1);
  }
  return path;
}
