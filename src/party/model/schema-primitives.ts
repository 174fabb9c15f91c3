// Building blocks for the lead schemas. Each returns plain JSON Schema that Ajv reports
// on cleanly: enums and nullables use `enum` / `type: [T, 'null']` instead of anyOf, which
// would turn one bad value into several confusing errors.
import Type, { type TSchema, type Static } from 'typebox';
import { Expected } from '../../http/ajv-problems.ts';

const UUID_V4_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$';

/** A client-chosen identifier: UUID version 4 (docs/design.md section 2). */
export const Uuid4 = (options: object = {}) =>
  Type.String({
    pattern: UUID_V4_PATTERN,
    ...Expected('uuid4'),
    examples: ['3f0c9a43-4f6e-4c9b-9a57-2f1d1c8b7e01'],
    ...options,
  });

/**
 * An identifier this service handed out (a party id): any UUID. Rows written on every push
 * get time-ordered v7 ids (src/db/ids.ts), so these are not restricted to version 4.
 */
export const Uuid = (options: object = {}) =>
  Type.String({ format: 'uuid', ...Expected('uuid'), examples: ['019a8f3c-5b2e-7c41-9a57-2f1d1c8b7e01'], ...options });

/** Money and other exact decimals travel as text and are never turned into floats. */
export const NumericText = (options: object = {}) =>
  Type.String({
    pattern: '^-?[0-9]{1,15}(\\.[0-9]{1,6})?$',
    ...Expected('numeric_text'),
    examples: ['499.95'],
    ...options,
  });

export const HttpUrl = (options: object = {}) =>
  Type.String({
    format: 'uri',
    pattern: '^[hH][tT][tT][pP][sS]?://[^\\s/]+',
    maxLength: 2048,
    ...Expected('http_url'),
    ...options,
  });

export const IsoDate = (options: object = {}) =>
  Type.String({ format: 'date', ...Expected('date'), examples: ['1985-04-12'], ...options });

export const Text = (maxLength = 255, options: object = {}) => Type.String({ minLength: 1, maxLength, ...options });

export function Enum<const T extends readonly string[]>(values: T, options: object = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** An optional field that `null` clears (docs/design.md section 2, rule 6). */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, enum: values, ...rest } = schema as unknown as { type: string; enum?: unknown[] };
  return Type.Unsafe<Static<T> | null>({
    ...rest,
    type: [type, 'null'],
    ...(values ? { enum: [...values, null] } : {}),
  });
}
