// Rules of the push payload that JSON Schema cannot express. They run in the same
// validation pass as the schema (src/http/validation.ts), so their problems join the
// schema's in one 422 answer; the body may therefore be partly malformed, and every
// rule looks only at values of the expected type (the schema reports the others).
//
// References (policy_package_id, risk_object_id) are not checked here: they may point at
// data the matched party already has, which only the push use case can know
// (push/push-references.ts, called by push/lead-push.service.ts).
//
// A party update (PATCH) checks its patched document, a prospect at the top level, by the
// same rules, and its cars' VINs too.
import type { ExpectedForm, Problem } from '../../errors.ts';
import { ENTERPRISE_NR_PATTERN } from './lead.schema.ts';
import { parseEnterpriseNumber } from '../../reference/enterprises/enterprise-number.ts';

/** Postal code formats by country (ISO 3166-1 alpha-2); the address's country defaults to BE. */
const ZIPCODE_FORMATS: Readonly<Record<string, { pattern: RegExp; expected: ExpectedForm }>> = {
  BE: { pattern: /^[1-9][0-9]{3}$/, expected: 'zipcode_be' },
  NL: { pattern: /^[1-9][0-9]{3} ?[A-Z]{2}$/, expected: 'zipcode_nl' },
};
const OTHER_COUNTRY_ZIPCODE = { pattern: /^(?=.*[A-Za-z0-9])[A-Za-z0-9 -]{2,10}$/, expected: 'zipcode_other' } as const;

export function checkPayloadRules(body: unknown): Problem[] {
  if (!isRecord(body)) return [];
  return [...checkProspect(body.prospect, 'prospect.'), ...checkEnterpriseNumber(body.prospect, 'prospect.')];
}

/**
 * A company's `enterprise_nr` is read as the enterprise lookup reads a number, check digit
 * included (docs/design.md section 16; docs/api.md, "Pushing a lead"): a
 * Belgian number, with or without `BE`, must pass mod 97, so a number mistyped in the
 * partner's CRM is refused at the push instead of naming no company, or another one, later.
 * A number that starts with another country's two letters (`NL…B01`, `DE…`) is a foreign
 * VAT number with rules of its own, and only the schema's pattern applies to it. A party
 * update checks the number its patch sets (party-patch.service.ts), not one stored before.
 */
const ENTERPRISE_NR = new RegExp(ENTERPRISE_NR_PATTERN);

export function checkEnterpriseNumber(prospect: unknown, path: string): Problem[] {
  if (!isRecord(prospect) || typeof prospect.enterprise_nr !== 'string') return [];
  const number = prospect.enterprise_nr;
  // Text the pattern refuses is the schema's problem, named once by it.
  if (!ENTERPRISE_NR.test(number)) return [];
  if (/^[A-Z]{2}/.test(number) && !number.startsWith('BE')) return [];
  return parseEnterpriseNumber(number) === undefined
    ? [{ target: `${path}enterprise_nr`, code: 'invalid', expected: 'enterprise_number' }]
    : [];
}

/** The patched document of a party update; its targets have no `prospect.` in front. */
export function checkPartyDocument(document: unknown): Problem[] {
  const riskObjects = isRecord(document) && isRecord(document.risk_objects) ? document.risk_objects : {};
  return [
    ...checkProspect(document, ''),
    ...duplicates(entries(riskObjects.cars, 'risk_objects.cars'), 'vin', (vin) => vin.toUpperCase()),
  ];
}

/** `path` is what the targets start with: where the prospect is in the checked document. */
function checkProspect(prospect: unknown, path: string): Problem[] {
  if (!isRecord(prospect)) return [];
  const riskObjects = isRecord(prospect.risk_objects) ? prospect.risk_objects : {};
  const cars = entries(riskObjects.cars, `${path}risk_objects.cars`);
  const residences = entries(riskObjects.residences, `${path}risk_objects.residences`);

  const problems: Problem[] = [];
  problems.push(...checkZipcode(prospect.address, `${path}address`));
  for (const residence of residences)
    problems.push(...checkZipcode(residence.value.address, `${residence.target}.address`));
  // Cars and residences are both risk objects, which coverages refer to by id: one namespace.
  problems.push(...duplicateIds([...cars, ...residences]));
  problems.push(...duplicateIds(entries(prospect.policy_packages, `${path}policy_packages`)));
  // Values that name one object whatever else an entry says (docs/design.md section 2, rule
  // 9): two entries carrying one would be merged into one object or break a unique index.
  // The merge finds the rest (uniqueness.ts); these can be told from the body alone, so they
  // join the schema's problems in one answer. A ref is named by its entry, as in a 409.
  // A VIN in any case is one car (push.ts canonicalVin).
  problems.push(...duplicates(cars, 'vin', (vin) => vin.toUpperCase()));
  const policies = entries(prospect.insurance_policies, `${path}insurance_policies`);
  problems.push(...duplicates(policies, 'policy_nr', (number, policy) => companyAnd(policy, number)));
  problems.push(
    ...duplicates(
      policies.flatMap((policy) => entries(policy.value.external_refs, `${policy.target}.external_refs`)),
      'ref',
      (ref, entry) => companyAnd(entry, ref, 'company'),
      '',
    ),
  );
  problems.push(
    ...duplicates(
      [
        ...entries(prospect.external_refs, `${path}external_refs`),
        ...(isRecord(prospect.external_ref) ? [{ target: `${path}external_ref`, value: prospect.external_ref }] : []),
      ],
      'external_ref',
      (ref, entry) => companyAnd(entry, ref, 'external_ref_company'),
      '',
    ),
  );
  problems.push(...duplicateItems(prospect.callbacks, `${path}callbacks`));
  return problems;
}

/**
 * The key of a value qualified by a company (a policy number by its insurance company, a
 * ref by its company; no company is a company of its own): undefined for an unqualified
 * policy number, which no unique index holds.
 */
function companyAnd(
  entry: { value: Record<string, unknown> },
  value: string,
  companyField = 'insurance_company',
): string | undefined {
  const company = entry.value[companyField];
  if (company === undefined || company === null)
    return companyField === 'insurance_company' ? undefined : `\u0000${value}`;
  return typeof company === 'string' ? `${company}\u0000${value}` : undefined;
}

/** A string used again later in a list (a callback URL): the later element is the problem. */
function duplicateItems(list: unknown, target: string): Problem[] {
  if (!Array.isArray(list)) return [];
  const seen = new Set<string>();
  return list.flatMap((item: unknown, index) => {
    if (typeof item !== 'string') return [];
    if (seen.has(item)) return [{ target: `${target}.${index}`, code: 'duplicate' as const }];
    seen.add(item);
    return [];
  });
}

function checkZipcode(address: unknown, target: string): Problem[] {
  if (!isRecord(address) || typeof address.zipcode !== 'string') return [];
  const country = address.country_code ?? 'BE';
  // An invalid country_code is the schema's problem; without a country there is no format.
  if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) return [];
  const format = ZIPCODE_FORMATS[country] ?? OTHER_COUNTRY_ZIPCODE;
  return format.pattern.test(address.zipcode)
    ? []
    : [{ target: `${target}.zipcode`, code: 'invalid', expected: format.expected }];
}

/** A client-chosen id used again later in the same collection: the later use is the problem. */
function duplicateIds(items: ReadonlyArray<{ target: string; value: Record<string, unknown> }>): Problem[] {
  // UUIDs compare case-insensitively (RFC 9562 section 4).
  return duplicates(items, 'id', (id) => id.toLowerCase());
}

/**
 * A `field` value used again later in the same collection: the later use is the problem,
 * named on `field` (or on `at`, '' for the entry itself). `key` says which values are the
 * same; undefined leaves a value out.
 */
function duplicates(
  items: ReadonlyArray<{ target: string; value: Record<string, unknown> }>,
  field: string,
  key: (value: string, entry: { target: string; value: Record<string, unknown> }) => string | undefined = (value) =>
    value,
  at = `.${field}`,
): Problem[] {
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const entry of items) {
    const raw = entry.value[field];
    if (typeof raw !== 'string') continue;
    const same = key(raw, entry);
    if (same === undefined) continue;
    if (seen.has(same)) problems.push({ target: `${entry.target}${at}`, code: 'duplicate' });
    seen.add(same);
  }
  return problems;
}

/** The object elements of an array, with their targets; nothing when it is not an array. */
function entries(list: unknown, target: string): Array<{ target: string; value: Record<string, unknown> }> {
  if (!Array.isArray(list)) return [];
  return list.flatMap((value: unknown, index) => (isRecord(value) ? [{ target: `${target}.${index}`, value }] : []));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
