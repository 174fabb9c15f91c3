// A push that failed its schema: the references in it that certainly name nothing, so that
// one 422 lists them with the schema's problems (docs/design.md section 3). Without a valid
// body the party cannot be matched, so only what is certain is reported: a
// policy_package_id or risk_object_id that names nothing in the push and nothing stored
// at all. A reference to a stored object is left for the push that passes its schema
// (matching then decides whose it is). Lists are read up to their schema's maxItems, as
// the validation reads them. Pure: the push's use case asks the database which of the
// ids are stored (key-owners.repository.ts).
import type { Problem } from '../../errors.ts';
import { canonicalId } from './push.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A reference of a refused push to an id the push does not hold: where it is, and which table would hold the id. */
export interface OutsideReference {
  readonly table: 'policy_packages' | 'risk_objects';
  readonly id: string;
  readonly target: string;
}

/** The references of a refused body to ids that are not in it (ids compare in lower case). */
export function referencesOutsidePush(body: unknown): OutsideReference[] {
  const prospect = field(body, 'prospect');
  const riskObjects = field(prospect, 'risk_objects');
  const ids = (list: unknown[]) =>
    new Set(
      list
        .map((item) => field(item, 'id'))
        .filter((id): id is string => typeof id === 'string')
        .map(canonicalId),
    );
  const pushedRiskObjects = new Set([
    ...ids(list(riskObjects, 'cars', 50)),
    ...ids(list(riskObjects, 'residences', 50)),
  ]);
  const pushedPackages = ids(list(prospect, 'policy_packages', 50));

  const wanted: OutsideReference[] = [];
  list(prospect, 'insurance_policies', 100).forEach((policy, p) => {
    const packageId = lowerCase(field(policy, 'policy_package_id'));
    if (typeof packageId === 'string' && UUID.test(packageId) && !pushedPackages.has(packageId)) {
      wanted.push({
        table: 'policy_packages',
        id: packageId,
        target: `prospect.insurance_policies.${p}.policy_package_id`,
      });
    }
    list(policy, 'coverages', 100).forEach((coverage, c) => {
      const riskObjectId = lowerCase(field(coverage, 'risk_object_id'));
      if (typeof riskObjectId === 'string' && UUID.test(riskObjectId) && !pushedRiskObjects.has(riskObjectId)) {
        wanted.push({
          table: 'risk_objects',
          id: riskObjectId,
          target: `prospect.insurance_policies.${p}.coverages.${c}.risk_object_id`,
        });
      }
    });
  });
  return wanted;
}

/** The ids the database is asked about, per table, each once. */
export function idsToLookUp(references: readonly OutsideReference[]) {
  const of = (table: OutsideReference['table']) => [
    ...new Set(references.filter((reference) => reference.table === table).map((reference) => reference.id)),
  ];
  return { riskObjectIds: of('risk_objects'), packageIds: of('policy_packages') };
}

/** 422 `unknown_reference` on every reference whose id is stored nowhere (`stored`: `table:id`). */
export function danglingReferences(references: readonly OutsideReference[], stored: ReadonlySet<string>): Problem[] {
  return references
    .filter((reference) => !stored.has(`${reference.table}:${reference.id}`))
    .map((reference) => ({ target: reference.target, code: 'unknown_reference' as const }));
}

/** Ids compare in lower case, as a push keeps them (push.ts). */
function lowerCase(value: unknown): unknown {
  return typeof value === 'string' ? canonicalId(value) : value;
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

function list(value: unknown, name: string, maxItems: number): unknown[] {
  const items = field(value, name);
  return Array.isArray(items) ? items.slice(0, maxItems) : [];
}
