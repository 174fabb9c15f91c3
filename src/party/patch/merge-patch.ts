// A party update (PATCH .../parties/{id}, docs/design.md section 2): a JSON Merge Patch
// (RFC 7396) of the party as GET shows it, merged by the push's own building blocks. Its
// rules for arrays differ from a push's: an array replaces the stored list, so a risk
// object left out is removed (its revisions stay stored), while a push never removes one.
import { isDeepStrictEqual } from 'node:util';
import type { Problem } from '../../errors.ts';
import { diffAggregates } from '../store/aggregate-diff.ts';
import type { MergeResult } from '../store/changeset.ts';
import { RevisionMaker, type MergeContext } from '../push/merge.ts';
import {
  nextPosition,
  withoutNulls,
  type Document,
  type LeadAggregate,
  type RiskObject,
} from '../model/party.aggregate.ts';
import type { RiskObjectType } from '../model/party.table.ts';
import { canonicalId, withCanonicalVin } from '../push/push.ts';

/** RFC 7396 section 2: objects merge member by member, null removes, anything else replaces. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

/** The party as a patch applies to it: its fields and its risk objects with their ids. */
export function documentOf(lead: LeadAggregate): Document {
  const list = (type: RiskObjectType) =>
    lead.riskObjects.filter((o) => o.type === type).map((o) => ({ id: o.id, ...o.current.data }));
  return { ...lead.fields, risk_objects: { cars: list('CAR'), residences: list('RESIDENCE') } };
}

/** A risk object of the patched document, with the target of its id. */
export interface PatchedRiskObject {
  readonly type: RiskObjectType;
  readonly item: Document;
  readonly target: string;
}

export function patchedRiskObjects(document: Document): PatchedRiskObject[] {
  const lists = (document.risk_objects ?? {}) as { cars?: Document[]; residences?: Document[] };
  return [
    ...(lists.cars ?? []).map((item, i) => ({
      type: 'CAR' as const,
      item: withCanonicalVin(withCanonicalId(item)),
      target: `risk_objects.cars.${i}.id`,
    })),
    ...(lists.residences ?? []).map((item, i) => ({
      type: 'RESIDENCE' as const,
      item: withCanonicalId(item),
      target: `risk_objects.residences.${i}.id`,
    })),
  ];
}

function withCanonicalId(item: Document): Document {
  return typeof item.id === 'string' ? { ...item, id: canonicalId(item.id) } : item;
}

/** A stored car's id listed among the residences (or the other way round) names the wrong kind. */
export function misplacedRiskObjects(lead: LeadAggregate, document: Document): Problem[] {
  const stored = new Map(lead.riskObjects.map((object) => [object.id, object]));
  return patchedRiskObjects(document)
    .filter(
      ({ type, item }) => typeof item.id === 'string' && stored.has(item.id) && stored.get(item.id)!.type !== type,
    )
    .map(({ target }) => ({ target, code: 'invalid' as const }));
}

/** The patched (and validated) document merged into the stored party. */
export function mergePartyDocument(stored: LeadAggregate, document: Document, context: MergeContext): MergeResult {
  const { risk_objects: _lists, ...documentFields } = document;
  const fields = withoutNulls(documentFields);
  const revisions = new RevisionMaker(context);
  const storedObjects = new Map(stored.riskObjects.map((object) => [object.id, object]));
  const riskObjects: RiskObject[] = [];
  for (const { type, item } of patchedRiskObjects(document)) {
    const { id, ...rawData } = item as Document & { id?: string };
    const data = withoutNulls(rawData);
    const existing = id === undefined ? undefined : storedObjects.get(id);
    if (existing)
      riskObjects.push(isDeepStrictEqual(existing.current.data, data) ? existing : revisions.revise(existing, data));
    // A new object goes after every stored one and every one added before it.
    else
      riskObjects.push(
        revisions.add(
          type,
          id ?? context.ids.clientFacing(),
          nextPosition([...stored.riskObjects, ...riskObjects]),
          data,
        ),
      );
  }
  // In the order a read shows them (lead-load.repository.ts loads by position), whatever the patch's order.
  riskObjects.sort((a, b) => a.position - b.position);
  const merged = { ...stored, fields: isDeepStrictEqual(fields, stored.fields) ? stored.fields : fields, riskObjects };
  return diffAggregates(stored, merged, context.now);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
