// The aggregate as clients see it (docs/api.md, "Response (201 and 200)"): one representation
// for the push reply, reads and webhook payloads (docs/design.md section 2), and the party
// reply built from it.
import type { Config } from '../../config.ts';
import type { ExternalRef, LeadAggregate, RiskObject } from './party.aggregate.ts';
import type { LeadResponse } from './lead.response.ts';
import type { PartyResponse } from './party.schema.ts';

type Links = Pick<Config, 'publicUrl' | 'appUrl'>;

export function leadUrl(config: Pick<Config, 'publicUrl'>, distributionId: string, leadId: string): string {
  return `${config.publicUrl}/v1/api/distributions/${distributionId}/leads/${leadId}`;
}

export function partyUrl(config: Pick<Config, 'publicUrl'>, distributionId: string, partyId: string): string {
  return `${config.publicUrl}/v1/api/distributions/${distributionId}/parties/${partyId}`;
}

export function representLead(lead: LeadAggregate, config: Links): LeadResponse {
  const party = `${config.appUrl}/app/parties/${lead.partyId}`;
  const revisions = (type: RiskObject['type']) =>
    lead.riskObjects.filter((object) => object.type === type).map((object) => representRevision(lead, object, config));
  return {
    id: lead.leadId,
    origin: (lead.meta.origin as string | undefined) ?? null,
    backref: (lead.meta.backref as string | undefined) ?? null,
    source: (lead.meta.source as string | undefined) ?? null,
    status: lead.work.status,
    lost_reason: lead.work.lostReason,
    assignee: lead.work.assigneeId,
    status_changed_at: lead.work.statusChangedAt,
    follow_up_on: lead.work.followUpOn,
    prospect: {
      ...lead.fields,
      id: lead.partyId,
      type: lead.type,
      external_refs: lead.refs.map(representRef),
      callbacks: lead.callbacks,
    } as LeadResponse['prospect'],
    risk_object_revisions: { cars: revisions('CAR') as never, residences: revisions('RESIDENCE') as never },
    policy_packages: lead.packages.map((pkg) => ({ ...pkg.data, id: pkg.id })),
    insurance_policies: lead.policies.map((policy) => ({
      ...policy.data,
      id: policy.id,
      policy_package_id: policy.policy_package_id,
      external_refs: policy.refs.map(representRef),
      coverages: policy.coverages.map((coverage) => ({
        ...coverage.data,
        id: coverage.id,
        ...(coverage.risk_object_id !== null ? { risk_object_id: coverage.risk_object_id } : {}),
      })),
    })),
    party_id: lead.partyId,
    self: leadUrl(config, lead.distributionId, lead.leadId),
    href: party,
    href_to_proflow: `${config.appUrl}/app/proflow/parties/${lead.partyId}`,
    href_to_risk_scan: `${config.appUrl}/app/risk-scan/parties/${lead.partyId}`,
    href_to_advisory_flow: `${config.appUrl}/app/advisory/parties/${lead.partyId}`,
    created_at: lead.created_at,
    updated_at: lead.updated_at,
  };
}

/** The party as GET and PATCH .../parties/{id} answer it, from the lead's representation. */
export function representParty(
  lead: LeadAggregate,
  represented: LeadResponse,
  config: Pick<Config, 'publicUrl'>,
): PartyResponse {
  const { prospect, risk_object_revisions, policy_packages, insurance_policies, created_at, updated_at } = represented;
  return {
    ...prospect,
    lead_id: lead.leadId,
    risk_objects: risk_object_revisions,
    policy_packages,
    insurance_policies,
    self: partyUrl(config, lead.distributionId, lead.partyId),
    created_at,
    updated_at,
  };
}

function representRef(ref: ExternalRef): { ref: string; company: string | null } {
  return { ref: ref.ref, company: ref.company === '' ? null : ref.company };
}

function representRevision(lead: LeadAggregate, object: RiskObject, config: Links) {
  return {
    ...object.current.data,
    self: `${partyUrl(config, lead.distributionId, lead.partyId)}/risk_objects/${object.id}/revisions/${object.current.id}`,
    risk_object_id: object.id,
    risk_object_revision_id: object.current.id,
    risk_object_type: object.type,
    revision_nr: object.current.revision_nr,
    created_at: object.current.created_at,
  };
}
