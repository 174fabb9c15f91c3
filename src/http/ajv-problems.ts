// Turns Ajv's errors into Problems (docs/design.md section 3): the target is a dot path from
// the body root with zero-based indexes, and each target is reported at most once, so a
// value failing both its pattern and its format is one problem, not two.
import type { ErrorObject } from 'ajv';
import type { MessageCode, Problem } from '../errors.ts';

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
      return { target: join(path, String(params.additionalProperty)), code: 'field_not_allowed' };
    case 'unevaluatedProperties':
      return { target: join(path, String(params.unevaluatedProperty)), code: 'field_not_allowed' };
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
  return { target: path, code: 'invalid' };
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
