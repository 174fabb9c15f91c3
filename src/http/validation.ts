// PLACEHOLDER (to be completed): Ajv compilers for request validation.
import { Ajv } from 'ajv';
import { default as addFormatsModule } from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export function createAjvCompilers(): { validatorCompiler: FastifySchemaCompiler<unknown> } {
  const ajv = new Ajv({ allErrors: true, removeAdditional: false, useDefaults: true, coerceTypes: false, strict: false });
  addFormats(ajv);
  return { validatorCompiler: ({ schema }) => ajv.compile(schema as object) as never };
}
