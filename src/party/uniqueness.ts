// Rules 7 and 8 give a party's cars one VIN each and its policies one insurance company +
// policy number each (the unique indexes risk_objects_vin and insurance_policies_number).
// A merge can still bring two of them together: a car pushed with its id and another
// car's VIN, a policy found by its external ref and given another policy's number. That
// is a problem of the push's data, reported as 422 `duplicate` on the pushed field (not
// 409, which docs/design.md section 3 keeps for a push matching two parties); nothing is written.
import type { Problem } from '../errors.ts';
import type { LeadPush } from './merge.ts';
import { refKey, type Fields, type InsurancePolicy, type LeadAggregate, type RiskObject } from './party.aggregate.ts';

/** The pushed fields that would store a second car with one VIN or a second policy with one number. */
export function duplicateProblems(lead: LeadAggregate, push: LeadPush): Problem[] {
  return [...duplicateVins(lead, push.cars), ...duplicatePolicyNumbers(lead, push)];
}

function duplicateVins(lead: LeadAggregate, cars: readonly Fields[]): Problem[] {
  const active = lead.riskObjects.filter((object) => object.type === 'CAR' && !object.removed && object.vin !== null);
  const holders = firstBy(active, (object) => object.vin!);
  const problems: Problem[] = [];
  cars.forEach((car, i) => {
    if (typeof car.vin !== 'string') return;
    // A car without an id, or whose id is not stored, was matched by its VIN: it is the holder.
    const landed = active.find((object) => object.id === car.id);
    const holder = holders.get(car.vin);
    if (landed && holder && landed !== holder) problems.push({ target: `prospect.risk_objects.cars.${i}.vin`, code: 'duplicate' });
  });
  return problems;
}

function duplicatePolicyNumbers(lead: LeadAggregate, push: LeadPush): Problem[] {
  const numbered = lead.policies.filter((policy) => numberKey(policy.data) !== undefined);
  const holders = firstBy(numbered, (policy) => numberKey(policy.data)!);
  const problems: Problem[] = [];
  push.policies.forEach((pushed, i) => {
    const key = numberKey(pushed.fields);
    if (key === undefined || pushed.refs.length === 0) return;
    // Only a policy found by its external refs can land on a policy other than the number's.
    const pushedRef = refKey(pushed.refs[0]!);
    const landed: InsurancePolicy | undefined = numbered.find((policy) => policy.refs.some((ref) => refKey(ref) === pushedRef));
    const holder = holders.get(key);
    if (landed && holder && landed !== holder) problems.push({ target: `prospect.insurance_policies.${i}.policy_nr`, code: 'duplicate' });
  });
  return problems;
}

function numberKey(data: Fields): string | undefined {
  const { insurance_company: company, policy_nr: number } = data;
  return typeof company === 'string' && typeof number === 'string' ? JSON.stringify([company, number]) : undefined;
}

function firstBy<T extends RiskObject | InsurancePolicy>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  const first = new Map<string, T>();
  for (const item of items) if (!first.has(key(item))) first.set(key(item), item);
  return first;
}
