// docs/design.md section 2, rule 9, applied to every identity the merge matches on: two
// entries of one push that the merge treats as one object, or that would leave two of the
// party's objects with one value that must be unique (a car's VIN, a policy's insurance
// company + policy number, a policy's external ref), are a problem of the push's data.
// Each is a 422 `duplicate` on the later entry's field (409 is kept for a push matching two
// parties); nothing is written, so nothing a partner sent is dropped or overwritten by a
// sibling in the same body. Pure: it reads the merged lead and where each entry landed.
import type { Problem } from '../../errors.ts';
import type { Landing } from './merge.ts';
import { refKey, type Document, type LeadAggregate } from '../model/party.aggregate.ts';
import type { LeadPush } from './push.ts';

export function duplicateProblems(merged: LeadAggregate, push: LeadPush, landings: readonly Landing[]): Problem[] {
  const landedOn = new Map(landings.map((landing) => [landing.entry, landing.objectId]));
  const objectOf = (entry: string) => landedOn.get(entry)!;
  return [
    ...sameObjectTwice(landings),
    ...claimsOfUniqueValues(
      merged.riskObjects.map((object) => ({ id: object.id, values: object.vin === null ? [] : [object.vin] })),
      push.riskObjects.flatMap((car) => {
        const vin = merged.riskObjects.find((object) => object.id === objectOf(car.target))?.vin;
        return car.data.vin === undefined || vin == null
          ? []
          : [{ objectId: objectOf(car.target), value: vin, target: `${car.target}.vin` }];
      }),
    ),
    ...claimsOfUniqueValues(
      merged.policies.map((policy) => ({ id: policy.id, values: numberOf(policy.data) })),
      push.policies.flatMap((pushed) => {
        const policy = merged.policies.find((own) => own.id === objectOf(pushed.target))!;
        const sets = pushed.data.insurance_company !== undefined || pushed.data.policy_nr !== undefined;
        return sets
          ? numberOf(policy.data).map((value) => ({ objectId: policy.id, value, target: `${pushed.target}.policy_nr` }))
          : [];
      }),
    ),
    ...claimsOfUniqueValues(
      merged.policies.map((policy) => ({ id: policy.id, values: policy.refs.map(refKey) })),
      push.policies.flatMap((pushed) =>
        pushed.refs.map((ref) => ({ objectId: objectOf(pushed.target), value: refKey(ref.value), target: ref.target })),
      ),
    ),
  ];
}

/** A later entry landing on an object an earlier entry of the push landed on (or added). */
function sameObjectTwice(landings: readonly Landing[]): Problem[] {
  const landed = new Set<string>();
  const problems: Problem[] = [];
  for (const { table, objectId, matchedBy } of landings) {
    const object = `${table}:${objectId}`;
    if (landed.has(object)) problems.push({ target: matchedBy, code: 'duplicate' });
    landed.add(object);
  }
  return problems;
}

/**
 * A unique value is held by the objects the push did not give it to, then claimed by the
 * pushed entries in their order: an entry claiming a value another object holds is the
 * problem. Values that move between objects (two cars swapping VINs) are no problem: every
 * object that gives up a value is one the push gave another value to.
 */
function claimsOfUniqueValues(
  objects: ReadonlyArray<{ id: string; values: readonly string[] }>,
  claims: ReadonlyArray<{ objectId: string; value: string; target: string }>,
): Problem[] {
  const claimed = new Set(claims.map((claim) => `${claim.objectId}\u0000${claim.value}`));
  const holder = new Map<string, string>();
  for (const object of objects)
    for (const value of object.values) if (!claimed.has(`${object.id}\u0000${value}`)) holder.set(value, object.id);
  const problems: Problem[] = [];
  for (const { objectId, value, target } of claims) {
    const current = holder.get(value);
    if (current !== undefined && current !== objectId) problems.push({ target, code: 'duplicate' });
    else holder.set(value, objectId);
  }
  return problems;
}

/** The value of the unique index insurance_policies_number, when the policy has one. */
function numberOf(data: Document): string[] {
  const { insurance_company: company, policy_nr: number } = data;
  return typeof company === 'string' && typeof number === 'string' ? [JSON.stringify([company, number])] : [];
}
