// Turns a validated push body into what the merge works with: prospect fields apart from
// the collections, external refs in one form (the array form and the older single-object
// form alike), coverages split from their risk object reference.
import type { ExternalRef, Fields } from './party.aggregate.ts';
import type { LeadPush, PolicyPush } from './merge.ts';
import type { LeadBody } from './lead.schema.ts';

const COLLECTIONS = ['id', 'callbacks', 'external_refs', 'external_ref', 'risk_objects', 'policy_packages', 'insurance_policies'];

export function toLeadPush(body: LeadBody): LeadPush {
  const prospect = body.prospect as Fields & LeadBody['prospect'];
  const fields: Fields = {};
  for (const [key, value] of Object.entries(prospect)) if (!COLLECTIONS.includes(key)) fields[key] = value;
  const meta: Fields = {};
  for (const key of ['origin', 'backref', 'source'] as const) if (body[key] !== undefined) meta[key] = body[key];

  return {
    meta,
    fields,
    refs: prospectRefs(prospect),
    callbacks: prospect.callbacks ?? [],
    cars: (prospect.risk_objects?.cars ?? []) as Fields[],
    residences: (prospect.risk_objects?.residences ?? []) as Fields[],
    packages: (prospect.policy_packages ?? []) as Fields[],
    policies: (prospect.insurance_policies ?? []).map((policy): PolicyPush => {
      const { external_refs, coverages, policy_package_id, ...policyFields } = policy;
      return {
        fields: policyFields,
        policy_package_id,
        refs: (external_refs ?? []).map((r) => ({ company: r.company ?? '', ref: r.ref })),
        coverages: coverages?.map(({ risk_object_id, ...data }) => ({ risk_object_id: risk_object_id ?? null, data })),
      };
    }),
  };
}

/** Each ref with the dot path it came from, for error targets. */
export function prospectRefsWithTargets(prospect: LeadBody['prospect']): Array<{ ref: ExternalRef; target: string }> {
  const listed = (prospect.external_refs ?? []).map((r, i) => ({
    ref: { company: r.external_ref_company ?? '', ref: r.external_ref },
    target: `prospect.external_refs.${i}`,
  }));
  const single = prospect.external_ref
    ? [{ ref: { company: prospect.external_ref.external_ref_company ?? '', ref: prospect.external_ref.external_ref }, target: 'prospect.external_ref' }]
    : [];
  return [...listed, ...single];
}

function prospectRefs(prospect: LeadBody['prospect']): ExternalRef[] {
  return prospectRefsWithTargets(prospect).map((entry) => entry.ref);
}
