// What a PATCH changed, as the change log keeps it (docs/design.md section 13): each field
// with its value before and after, so the broker app's timeline can say who changed the
// telephone number, or moved the lead to `won`. A pure function of the stored and the
// changed lead, for a lead PATCH (status, lost reason, assignee) and a party PATCH (the
// prospect's fields, and each risk object added, revised or removed) alike.
import { isDeepStrictEqual } from 'node:util';
import type { LeadAggregate, LeadWork, RiskObject } from '../model/party.aggregate.ts';

/**
 * One changed field: `status`, `assignee`, a prospect field (`telephonenr`), or a risk
 * object (`car`, `residence`) whose before/after are `{id, revision_nr, vin?}`. A field
 * that was absent has no `before`; one cleared or removed has no `after`.
 */
export interface FieldChange {
  readonly field: string;
  readonly before?: unknown;
  readonly after?: unknown;
}

const change = (field: string, before: unknown, after: unknown): FieldChange => ({
  field,
  ...(before !== undefined && before !== null && { before }),
  ...(after !== undefined && after !== null && { after }),
});

/** The lead's work fields that differ, by their API names. */
export function workChanges(before: LeadWork, after: LeadWork): FieldChange[] {
  const pairs: Array<[string, unknown, unknown]> = [
    ['status', before.status, after.status],
    ['lost_reason', before.lostReason, after.lostReason],
    ['assignee', before.assigneeId, after.assigneeId],
    ['follow_up_on', before.followUpOn, after.followUpOn],
  ];
  return pairs.filter(([, a, b]) => a !== b).map(([field, a, b]) => change(field, a, b));
}

/** The prospect fields and risk objects a party PATCH changed. */
export function partyChanges(before: LeadAggregate, after: LeadAggregate): FieldChange[] {
  const keys = [...new Set([...Object.keys(before.fields), ...Object.keys(after.fields)])];
  const fields = keys
    .filter((key) => !isDeepStrictEqual(before.fields[key], after.fields[key]))
    .map((key) => change(key, before.fields[key], after.fields[key]));
  const stored = new Map(before.riskObjects.map((object) => [object.id, object]));
  const kept = new Set(after.riskObjects.map((object) => object.id));
  const objects = [
    ...after.riskObjects
      .filter((object) => stored.get(object.id)?.current !== object.current)
      .map((object) => {
        const old = stored.get(object.id);
        return change(objectField(object), old && objectVersion(old), objectVersion(object));
      }),
    ...before.riskObjects
      .filter((object) => !kept.has(object.id))
      .map((object) => change(objectField(object), objectVersion(object), undefined)),
  ];
  return [...fields, ...objects];
}

const objectField = (object: RiskObject) => (object.type === 'CAR' ? 'car' : 'residence');

function objectVersion(object: RiskObject) {
  return { id: object.id, revision_nr: object.current.revision_nr, ...(object.vin !== null && { vin: object.vin }) };
}
