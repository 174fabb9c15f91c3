// Ajv compilers for request validation. Every problem of a request body is reported in one
// 422 (docs/design.md section 3): Ajv runs with allErrors, and the rules JSON Schema cannot
// express run in the same pass and add their problems. Those rules are the domain's: a
// route injects them (`withBodyRules`), this file knows none of them.
import { Ajv, type Options } from 'ajv';
import { default as addFormatsModule } from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FastifySchemaCompiler } from 'fastify';
import { ValidationError, type Problem } from '../errors.ts';
import { problemsFromAjv, uniqueByTarget } from './ajv-problems.ts';
import { takeBodyProblems } from './json-body.ts';
import { withListsCut } from './array-limits.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Checks of a body beyond its schema, each reported as a problem. */
export type BodyRules = (body: unknown) => Problem[];

/** Names the validated part in `error_str` when its schema has no title. */
const PART_SUBJECTS: Readonly<Record<string, string>> = {
  body: 'Request',
  params: 'PathParameters',
  querystring: 'QueryParameters',
  headers: 'Headers',
};

const COMMON_OPTIONS: Options = {
  allErrors: true,
  removeAdditional: false,
  // Fills in documented defaults such as an address's country_code (BE).
  useDefaults: true,
  // TypeBox and OpenAPI annotations (examples, ~kind) are not Ajv keywords.
  strict: false,
  // Errors carry their schema, whose annotation names the form expected (ajv-problems.ts).
  verbose: true,
};

/**
 * The target of a problem with the body as a whole (`[1,2]` where an object is expected):
 * named, so the message reads "Error for 'body'", not "Error for ''".
 */
export const BODY_ROOT_TARGET = 'body';

export type Validate = (data: unknown) => true | { error: ValidationError };

export interface AjvCompilers {
  /** Every route's compiler: the schema alone. */
  readonly validatorCompiler: FastifySchemaCompiler<unknown>;
  /** A route's compiler whose body is also checked by `rules`, in the same pass. */
  withBodyRules(rules: BodyRules): FastifySchemaCompiler<unknown>;
  /** Validates a document as a request body would be (the party after a patch, a batch's item), with `rules` if given. */
  compileBody(schema: object, rules?: BodyRules): Validate;
}

export function createAjvCompilers(): AjvCompilers {
  // A body is taken as sent: the string "5" is not an integer. Query strings and path
  // parameters only ever arrive as text, so those may be coerced (`?limit=20`).
  const bodyAjv = withFormats(new Ajv({ ...COMMON_OPTIONS, coerceTypes: false }));
  const textAjv = withFormats(new Ajv({ ...COMMON_OPTIONS, coerceTypes: 'array' }));

  const compile = (schema: unknown, httpPart: string | undefined, bodyRules: BodyRules | undefined): Validate => {
    const part = httpPart ?? 'body';
    const validateSchema = (part === 'body' ? bodyAjv : textAjv).compile(schema as object);
    const title = (schema as { title?: unknown }).title;
    const subject = typeof title === 'string' ? title : (PART_SUBJECTS[part] ?? 'Request');
    const payloadRules = part === 'body' ? bodyRules : undefined;

    /** The schema's problems and the payload rules' (which see the same cut lists). */
    const check = (data: unknown): Problem[] => [
      ...(validateSchema(data) ? [] : problemsFromAjv(validateSchema.errors)),
      ...(payloadRules ? payloadRules(data) : []),
    ];

    const validate: Validate = (data) => {
      // Text and numbers the body parser found unstorable come first (json-body.ts); a
      // list over its maxItems is reported for its length, and only its first maxItems
      // elements are checked (array-limits.ts).
      const problems = part === 'body' ? takeBodyProblems(data) : [];
      if (part === 'body') {
        const { result, oversized } = withListsCut(schema, data, () => check(data));
        problems.push(...oversized, ...result);
      } else {
        problems.push(...check(data));
      }
      if (problems.length === 0) return true;
      const named = part === 'body' ? problems.map(withRootNamed) : problems;
      return { error: new ValidationError(uniqueByTarget(named), subject) };
    };
    return validate;
  };
  return {
    validatorCompiler: ({ schema, httpPart }) => compile(schema, httpPart, undefined),
    withBodyRules:
      (rules) =>
      ({ schema, httpPart }) =>
        compile(schema, httpPart, rules),
    compileBody: (schema, rules) => compile(schema, 'body', rules),
  };
}

function withRootNamed(problem: Problem): Problem {
  return problem.target === '' ? { ...problem, target: BODY_ROOT_TARGET } : problem;
}

function withFormats(ajv: Ajv): Ajv {
  addFormats(ajv);
  // RFC 3339 allows a leap second (23:59:60), which no JavaScript Date (nor PostgreSQL)
  // can hold: such a timestamp is refused here, as invalid, instead of failing later.
  const rfc3339 = (fullFormats['date-time'] as { validate: (text: string) => boolean }).validate;
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (text: string) => rfc3339(text) && Number.isFinite(Date.parse(text)),
  });
  // An http(s) URI we will call (a callback) must also be one the WHATWG URL parser, which
  // the sender uses, accepts, with a usable port: RFC 3986 alone lets `http://host:99999/`
  // through, and the delivery could then never be attempted.
  const rfc3986 = fullFormats.uri as (text: string) => boolean;
  ajv.addFormat('uri', {
    type: 'string',
    validate: (text: string) => rfc3986(text) && (!/^https?:/i.test(text) || isCallableHttpUrl(text)),
  });
  return ajv;
}

/** Parsed by WHATWG URL rules with a host, and a port (if any) in 1-65535. */
function isCallableHttpUrl(text: string): boolean {
  const url = URL.parse(text);
  return url !== null && url.hostname !== '' && url.port !== '0';
}
