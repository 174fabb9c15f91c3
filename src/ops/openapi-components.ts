// Named component schemas in the OpenAPI document (docs/design.md section 16). The route
// schemas that validate stay the source: every schema among them with a `title` is moved
// to `components.schemas[title]` and each of its uses becomes a `$ref`, so a generator
// (openapi-typescript, openapi-generator) gives partners named types (`CustomerLead`,
// `Lead`, `ErrorBody`) instead of anonymous inline shapes.
//
// A nullable use of a named schema (`Nullable(Address)`: `type: ['object', 'null']` with
// the title copied) is written `anyOf: [{$ref}, {type: 'null'}]`: the same set of values,
// and generators type it `Address | null`.

type Schema = Record<string, unknown>;

export interface ComponentDocument {
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown };
}

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs'] as const;
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else'] as const;

/** Moves every titled schema of `document` into `components.schemas`. Throws on two different shapes under one title. */
export function nameComponentSchemas(document: ComponentDocument): void {
  const named = new Map<string, { schema: Schema; canonical: string }>();

  const name = (title: string, schema: Schema): Schema => {
    const canonical = canonicalJson(schema);
    const known = named.get(title);
    if (known && known.canonical !== canonical) {
      throw new Error(
        `OpenAPI: two different schemas are both titled "${title}"; a title names one component schema ` +
          '(src/ops/openapi-components.ts): give one of them another title.',
      );
    }
    if (!known) named.set(title, { schema, canonical });
    return { $ref: `#/components/schemas/${title}` };
  };

  const visit = (node: unknown): unknown => {
    if (!isSchema(node)) return node;
    const schema: Schema = { ...node };
    for (const key of SCHEMA_MAPS) {
      const map = schema[key];
      if (isSchema(map)) schema[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, visit(v)]));
    }
    for (const key of SCHEMA_LISTS) {
      if (Array.isArray(schema[key])) schema[key] = (schema[key] as unknown[]).map(visit);
    }
    for (const key of SCHEMA_VALUES) {
      if (isSchema(schema[key])) schema[key] = visit(schema[key]);
    }
    const title = schema.title;
    if (typeof title !== 'string') return schema;
    const nonNull = withoutNull(schema);
    if (nonNull === schema) return name(title, schema);
    const { description, default: fallback } = schema;
    return {
      anyOf: [name(title, nonNull), { type: 'null' }],
      ...(description !== undefined && { description }),
      ...(fallback !== undefined && { default: fallback }),
    };
  };

  const visitMedia = (holder: unknown): void => {
    if (!isSchema(holder) || !isSchema(holder.content)) return;
    for (const media of Object.values(holder.content)) {
      if (isSchema(media) && media.schema !== undefined) media.schema = visit(media.schema);
    }
  };
  const visitOperations = (items: Record<string, Record<string, unknown>> | undefined): void => {
    for (const item of Object.values(items ?? {})) {
      for (const operation of Object.values(item)) {
        if (!isSchema(operation)) continue;
        visitMedia(operation.requestBody);
        for (const response of Object.values((operation.responses ?? {}) as Record<string, unknown>)) {
          visitMedia(response);
        }
        for (const parameter of (operation.parameters ?? []) as Schema[]) {
          if (parameter.schema !== undefined) parameter.schema = visit(parameter.schema);
        }
      }
    }
  };

  const existing = document.components?.schemas ?? {};
  for (const [key, schema] of Object.entries(existing)) existing[key] = visit(schema);
  visitOperations(document.paths);
  visitOperations(document.webhooks);

  const schemas: Record<string, unknown> = { ...existing };
  // Each named schema's own subschemas were named when it was first visited; its body
  // is stored without its title's $ref to itself.
  for (const [title, { schema }] of [...named.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    schemas[title] = schema;
  }
  document.components = { ...document.components, schemas };
}

/** The schema without `null` among its types (and values), or the schema itself when it has none. */
function withoutNull(schema: Schema): Schema {
  const types = schema.type;
  if (!Array.isArray(types) || !types.includes('null')) return schema;
  const rest = types.filter((type) => type !== 'null');
  const values = Array.isArray(schema.enum) ? schema.enum.filter((value) => value !== null) : undefined;
  return { ...schema, type: rest.length === 1 ? rest[0] : rest, ...(values && { enum: values }) };
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON with object keys sorted, so the same shape built in another key order compares equal. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isSchema(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b))) : inner,
  );
}
