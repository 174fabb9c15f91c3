// A push that failed its schema: the references in it that certainly name nothing, so that
// one 422 lists them with the schema's problems (docs/design.md section 3). Without a valid
// body the party cannot be matched, so only what is certain is reported: a
// policy_package_id or risk_object_id that names nothing in the push and nothing stored
// at all. A reference to a stored object is left for the push that passes its schema
// (matching then decides whose it is). Lists are read up to their schema's maxItems, as
// the validation reads them.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Problem } from '../../errors.ts';
import { findStoredClientIds } from './push-candidates.repository.ts';
import { canonicalId } from './push.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function certainlyDanglingReferences(db: Kysely<Database>, body: unknown): Promise<Problem[]> {
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

  const wanted: Array<{ table: 'policy_packages' | 'risk_objects'; id: string; target: string }> = [];
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
  if (wanted.length === 0) return [];
  const wantedIn = (table: string) => [...new Set(wanted.filter((w) => w.table === table).map((w) => w.id))];
  const stored = await findStoredClientIds(db, wantedIn('risk_objects'), wantedIn('policy_packages'));
  return wanted
    .filter((w) => !stored.has(`${w.table}:${w.id}`))
    .map((w) => ({ target: w.target, code: 'unknown_reference' as const }));
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
