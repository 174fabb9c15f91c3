// What the reference routes share in their OpenAPI description.
import Type from 'typebox';
import { Expected } from '../../http/ajv-problems.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';

export const security: Array<Record<string, string[]>> = [{ apikey: [] }, { bearer: [] }];

export const ReferenceErrors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

/** Free text to search: 1 to 200 characters, at least one letter or digit. */
export const SearchText = (example: string) =>
  Type.String({
    minLength: 1,
    maxLength: 200,
    examples: [example],
    description: 'Words or word prefixes, in any order; case and accents do not matter.',
  });

export const Zipcode = Type.String({ pattern: '^[0-9]{4}$', ...Expected('zipcode_digits'), examples: ['1000'] });

/** A stored value that may be absent: null in the answer. */
export const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
