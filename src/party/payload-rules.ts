// Rules of the push payload that JSON Schema cannot express. They run in the same
// validation pass as the schema (src/http/validation.ts), so their problems join the
// schema's in one 422 answer; the body may therefore be partly malformed, and every
// rule looks only at values of the expected type (the schema reports the others).
//
// References (policy_package_id, risk_object_id) are not checked here: they may point at
// data the matched party already has, which only the lead service can know.
//
// A party update (PATCH) checks its patched document, a prospect at the top level, by the
// same rules, and its cars' VINs too.
import type { Problem } from '../errors.ts';

/** Postal code formats by country (ISO 3166-1 alpha-2); the address's country defaults to BE. */
const ZIPCODE_FORMATS: Readonly<Record<string, RegExp>> = {
  BE: /^[1-9][0-9]{3}$/,
  NL: /^[1-9][0-9]{3} ?[A-Z]{2}$/,
};
const OTHER_COUNTRY_ZIPCODE = /^(?=.*[A-Za-z0-9])[A-Za-z0-9 -]{2,10}$/;

export function checkPayloadRules(body: unknown): Problem[] {
  return isRecord(body) ? checkProspect(body.prospect, 'prospect.') : [];
}

/** The patched document of a party update; its targets have no `prospect.` in front. */
export function checkPartyDocument(document: unknown): Problem[] {
  const riskObjects = isRecord(document) && isRecord(document.risk_objects) ? document.risk_objects : {};
  return [...checkProspect(document, ''), ...duplicates(entries(riskObjects.cars, 'risk_objects.cars'), 'vin')];
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
  return problems;
}

function checkZipcode(address: unknown, target: string): Problem[] {
  if (!isRecord(address) || typeof address.zipcode !== 'string') return [];
  const country = address.country_code ?? 'BE';
  // An invalid country_code is the schema's problem; without a country there is no format.
  if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) return [];
  const format = ZIPCODE_FORMATS[country] ?? OTHER_COUNTRY_ZIPCODE;
  return format.test(address.zipcode) ? [] : [{ target: `${target}.zipcode`, code: 'invalid' }];
}

/** A client-chosen id used again later in the same collection: the later use is the problem. */
function duplicateIds(items: ReadonlyArray<{ target: string; value: Record<string, unknown> }>): Problem[] {
  // UUIDs compare case-insensitively (RFC 9562 section 4).
  return duplicates(items, 'id', (id) => id.toLowerCase());
}

/** A `field` value used again later in the same collection: the later use is the problem. */
function duplicates(
  items: ReadonlyArray<{ target: string; value: Record<string, unknown> }>,
  field: string,
  normalise: (value: string) => string = (value) => value,
): Problem[] {
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const { target, value } of items) {
    const raw = value[field];
    if (typeof raw !== 'string') continue;
    const key = normalise(raw);
    if (seen.has(key)) problems.push({ target: `${target}.${field}`, code: 'duplicate' });
    seen.add(key);
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
