// Rules 7 and 8 give a party's cars one VIN each and its policies one insurance company +
// policy number each (the unique indexes risk_objects_vin and insurance_policies_number).
// A merge can still bring two of them together: a car pushed with its id and another
// car's VIN, a policy found by its external ref and given another policy's number. That
// is a problem of the push's data, reported as 422 `duplicate` on the pushed field (not
// 409, which docs/design.md section 3 keeps for a push matching two parties); nothing is written.
import type { Problem } from '../errors.ts';
import { refKey, type Document, type LeadAggregate } from './party.aggregate.ts';
import type { LeadPush } from './push.ts';

/** The pushed fields that would store a second car with one VIN or a second policy with one number (on the merged lead). */
export function duplicateProblems(merged: LeadAggregate, push: LeadPush): Problem[] {
  return [...duplicateVins(merged, push), ...duplicatePolicyNumbers(merged, push)];
}

function duplicateVins(merged: LeadAggregate, push: LeadPush): Problem[] {
  const cars = merged.riskObjects.filter((object) => object.type === 'CAR' && object.vin !== null);
  const holders = firstBy(cars, (object) => object.vin!);
  const problems: Problem[] = [];
  for (const car of push.riskObjects) {
    if (car.type !== 'CAR' || typeof car.data.vin !== 'string') continue;
    // A car without an id, or whose id is not stored, was matched by its VIN: it is the holder.
    const landed = cars.find((object) => object.id === car.clientId);
    const holder = holders.get(car.data.vin);
    if (landed && holder && landed.id !== holder.id) problems.push({ target: `${car.target}.vin`, code: 'duplicate' });
  }
  return problems;
}

function duplicatePolicyNumbers(merged: LeadAggregate, push: LeadPush): Problem[] {
  const numbered = merged.policies.filter((policy) => numberKey(policy.data) !== undefined);
  const holders = firstBy(numbered, (policy) => numberKey(policy.data)!);
  const problems: Problem[] = [];
  for (const pushed of push.policies) {
    const key = numberKey(pushed.data);
    if (key === undefined || pushed.refs.length === 0) continue;
    // Only a policy found by its external refs can land on a policy other than the number's.
    const pushedRef = refKey(pushed.refs[0]!.value);
    const landed = numbered.find((policy) => policy.refs.some((ref) => refKey(ref) === pushedRef));
    const holder = holders.get(key);
    if (landed && holder && landed.id !== holder.id)
      problems.push({ target: `${pushed.target}.policy_nr`, code: 'duplicate' });
  }
  return problems;
}

function numberKey(data: Document): string | undefined {
  const { insurance_company: company, policy_nr: number } = data;
  return typeof company === 'string' && typeof number === 'string' ? JSON.stringify([company, number]) : undefined;
}

function firstBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  const first = new Map<string, T>();
  for (const item of items) if (!first.has(key(item))) first.set(key(item), item);
  return first;
}
