// A routing rules file read and checked (docs/design.md section 15): the JSON, the schema
// (routing-rules.schema.ts) and what it cannot say (one of `user` and `round_robin`; a
// range that starts at or below its end). A malformed rule is refused with its path
// (`/rules/1/when/postcodes/0`), every problem at once. Whether the users exist is the
// database's question: routing.service.ts asks it.
import { Compile } from 'typebox/compile';
import { POSTCODE_PATTERN, type RoutingRules, RoutingRules as RulesSchema } from './routing-rules.schema.ts';

/** A problem with the file: where (a JSON Pointer) and what. */
export interface RoutingFileProblem {
  readonly path: string;
  readonly message: string;
}

export type RoutingFileReading =
  | { readonly rules: RoutingRules; readonly problems?: undefined }
  | { readonly rules?: undefined; readonly problems: readonly RoutingFileProblem[] };

const checker = Compile(RulesSchema);

interface SchemaError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly message: string;
}

function describe(error: SchemaError): RoutingFileProblem | undefined {
  const path = error.instancePath || '/';
  const { params } = error;
  switch (error.keyword) {
    case 'boolean': // the additionalProperties error below says it with the key's name
      return undefined;
    case 'additionalProperties':
      return {
        path,
        message: `unknown key ${(params.additionalProperties as string[]).map((key) => JSON.stringify(key)).join(', ')}`,
      };
    case 'required':
      return {
        path,
        message: `${(params.requiredProperties as string[]).map((key) => JSON.stringify(key)).join(', ')} required`,
      };
    case 'enum':
      return { path, message: `must be one of ${(params.allowedValues as string[]).join(', ')}` };
    case 'pattern':
      if (params.pattern === POSTCODE_PATTERN)
        return { path, message: 'must be a postcode (1000) or an inclusive range of postcodes (1000-1299)' };
      if (/\/language\/\d+$/.test(path)) return { path, message: 'must be a two-letter language code such as nl' };
      return { path, message: 'must be a user id (a UUID)' };
    default:
      return { path, message: error.message };
  }
}

/** Problems the schema cannot state. */
function ruleProblems(rules: RoutingRules): RoutingFileProblem[] {
  return rules.rules.flatMap((rule, i) => {
    const problems: RoutingFileProblem[] = [];
    const { user, round_robin } = rule.assign;
    if ((user === undefined) === (round_robin === undefined))
      problems.push({ path: `/rules/${i}/assign`, message: 'give either "user" or "round_robin"' });
    rule.when.postcodes?.forEach((spec, j) => {
      const range = /^(\d+)-(\d+)$/.exec(spec);
      if (range && Number(range[1]) > Number(range[2]))
        problems.push({ path: `/rules/${i}/when/postcodes/${j}`, message: 'a range must not end before it starts' });
    });
    return problems;
  });
}

export function readRoutingFile(text: string): RoutingFileReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problems: [{ path: '/', message: `not JSON: ${(error as Error).message}` }] };
  }
  if (!checker.Check(value)) {
    const described = [...checker.Errors(value)].flatMap((error) => describe(error as SchemaError) ?? []);
    const seen = new Set<string>();
    const problems = described.filter((p) => !seen.has(`${p.path} ${p.message}`) && seen.add(`${p.path} ${p.message}`));
    return { problems };
  }
  const problems = ruleProblems(value);
  return problems.length > 0 ? { problems } : { rules: value };
}
