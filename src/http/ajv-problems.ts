// Turns Ajv's errors into Problems (docs/design.md section 3): the target is a dot path from
// the body root with zero-based indexes, and each target is reported at most once, so a
// value failing both its pattern and its format is one problem, not two.
import type { ErrorObject } from 'ajv';
import type { ExpectedForm, MessageCode, Problem } from '../errors.ts';
import { unknownFieldProblem } from './unknown-field.ts';

/**
 * The schema annotation naming the form a value must have (docs/design.md section 16),
 * for rules a pattern expresses (`{pattern: '^[A-HJ-NPR-Z0-9]{17}$', 'x-expected': 'vin'}`).
 * An OpenAPI specification extension, so the document may carry it.
 */
export const EXPECTED = 'x-expected';

/** The annotation as schema options: `Type.String({ pattern, ...Expected('vin') })`. */
export const Expected = (form: ExpectedForm) => ({ [EXPECTED]: form });

/** Formats (ajv-formats) named without an annotation. */
const FORMAT_FORMS: Readonly<Record<string, ExpectedForm>> = {
  uuid: 'uuid',
  'date-time': 'date_time',
  date: 'date',
  email: 'email',
  uri: 'uri',
};

/** JSON types, for a value of the wrong type whose schema names no form. */
const TYPE_FORMS: Readonly<Record<string, ExpectedForm>> = {
  string: 'text',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  object: 'object',
  array: 'list',
};

const LIMIT_CODES: Readonly<Record<string, MessageCode>> = {
  minLength: 'min_length',
  maxLength: 'max_length',
  minItems: 'min_items',
  maxItems: 'max_items',
  minimum: 'minimum',
  exclusiveMinimum: 'minimum',
  maximum: 'maximum',
  exclusiveMaximum: 'maximum',
};

export function problemsFromAjv(errors: readonly ErrorObject[] | null | undefined): Problem[] {
  return uniqueByTarget((errors ?? []).map(problemFromAjv));
}

function problemFromAjv(error: ErrorObject): Problem {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
    case 'dependentRequired':
    case 'dependencies':
      return { target: join(path, String(params.missingProperty)), code: 'missing' };
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const field = String(params.additionalProperty ?? params.unevaluatedProperty);
      return unknownFieldProblem(join(path, field), field, allowedProperties(error));
    }
    case 'enum': {
      // `null` is allowed by nullable enums but is not a value to offer in the message.
      const allowed = (params.allowedValues as unknown[]).filter((value) => value !== null);
      return { target: path, code: 'not_allowed_value', params: { allowed: allowed.join(', ') } };
    }
  }
  const limitCode = LIMIT_CODES[error.keyword];
  if (limitCode && typeof params.limit === 'number') {
    return { target: path, code: limitCode, params: { limit: params.limit } };
  }
  const expected = expectedForm(error);
  return expected === undefined ? { target: path, code: 'invalid' } : { target: path, code: 'invalid', expected };
}

/** The fields the object refusing one allows (Ajv's `verbose` gives its schema). */
function allowedProperties(error: ErrorObject): string[] {
  const properties = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties === undefined ? [] : Object.keys(properties);
}

/**
 * The form a value refused by `type`, `format` or `pattern` should have: the schema's own
 * annotation first (numeric text sent as a number is told numeric text is expected, not
 * just text), then the format, then the JSON type. Needs Ajv's `verbose` (parentSchema).
 */
function expectedForm(error: ErrorObject): ExpectedForm | undefined {
  const annotated = (error.parentSchema as Record<string, unknown> | undefined)?.[EXPECTED];
  if (typeof annotated === 'string') return annotated as ExpectedForm;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'format') return FORMAT_FORMS[String(params.format)];
  if (error.keyword === 'type') {
    // A nullable field says "string,null": the form is that of the value it wants.
    const type = String(params.type)
      .split(',')
      .find((name) => name !== 'null');
    return type === undefined ? undefined : TYPE_FORMS[type];
  }
  return undefined;
}

/** `/prospect/risk_objects/residences/0/address` -> `prospect.risk_objects.residences.0.address` */
function pointerToPath(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function join(path: string, property: string): string {
  return path === '' ? property : `${path}.${property}`;
}

/** The first problem of each target, in the order found. */
export function uniqueByTarget(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    if (seen.has(problem.target)) return false;
    seen.add(problem.target);
    return true;
  });
}
