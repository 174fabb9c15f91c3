// The lead representation returned by a push (docs/api.md, "Response (201 and 200)"), and by
// reads and webhooks alike (docs/design.md section 2). The schema also serialises the
// reply, so a field missing here never reaches a client.
import Type, { type Static } from 'typebox';
import {
  Car,
  CompanyProspect,
  Coverage,
  CustomerProspect,
  InsurancePolicy,
  PolicyPackage,
  Residence,
  StoredAddress,
} from './lead.schema.ts';
import { LEAD_STATUSES } from './enumerations.ts';
import { Nullable } from './schema-primitives.ts';

const Opt = Type.Optional;
const NullableString = Type.Unsafe<string | null>({ type: ['string', 'null'] });
const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-20T10:15:00.000Z'] });

const ExternalRefOut = Type.Object({ ref: Type.String(), company: NullableString }, { title: 'ExternalRef' });

const { first_name, last_name, birth, gender } = CustomerProspect.properties;
const { name, enterprise_nr, legal_form } = CompanyProspect.properties;
const { email, telephonenr, language } = CustomerProspect.properties;

export const ProspectOut = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    type: Type.Unsafe<'CUSTOMER' | 'COMPANY'>({ type: 'string', enum: ['CUSTOMER', 'COMPANY'] }),
    first_name: Opt(first_name),
    last_name: Opt(last_name),
    birth: Opt(birth),
    gender: Opt(gender),
    name: Opt(name),
    enterprise_nr: Opt(enterprise_nr),
    legal_form: Opt(legal_form),
    email: Opt(email),
    telephonenr: Opt(telephonenr),
    language: Opt(language),
    address: Opt(Nullable(StoredAddress)),
    external_refs: Type.Array(ExternalRefOut),
    callbacks: Type.Array(Type.String()),
  },
  { title: 'Prospect' },
);

/** What every risk object revision shows, in a lead and in a party's revision list. */
export const revisionFields = {
  self: Type.String({ format: 'uri' }),
  risk_object_id: Type.String({ format: 'uuid' }),
  risk_object_revision_id: Type.String({ format: 'uuid' }),
  revision_nr: Type.Integer({ minimum: 1 }),
  created_at: Timestamp,
};
const { id: _carId, ...carFields } = Car.properties;
const { id: _residenceId, ...residenceFields } = Residence.properties;

export const CarRevisionOut = Type.Object(
  {
    ...revisionFields,
    risk_object_type: Type.Unsafe<'CAR'>({ type: 'string', enum: ['CAR'] }),
    ...carFields,
  },
  { title: 'CarRevision' },
);
export const ResidenceRevisionOut = Type.Object(
  {
    ...revisionFields,
    risk_object_type: Type.Unsafe<'RESIDENCE'>({ type: 'string', enum: ['RESIDENCE'] }),
    ...residenceFields,
    address: StoredAddress,
  },
  { title: 'ResidenceRevision' },
);

const { id: _packageId, ...packageFields } = PolicyPackage.properties;
export const PolicyPackageOut = Type.Object(
  { id: Type.String({ format: 'uuid' }), ...packageFields },
  { title: 'StoredPolicyPackage' },
);

const CoverageOut = Type.Object(
  { id: Type.String({ format: 'uuid' }), ...Coverage.properties },
  { title: 'StoredCoverage' },
);

const { external_refs: _refs, coverages: _coverages, ...policyFields } = InsurancePolicy.properties;
export const InsurancePolicyOut = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    ...policyFields,
    external_refs: Type.Array(ExternalRefOut),
    coverages: Type.Array(CoverageOut),
  },
  { title: 'StoredInsurancePolicy' },
);

/** docs/design.md section 13: `new` on creation, then any move a broker makes. */
export const LeadStatus = Type.Unsafe<(typeof LEAD_STATUSES)[number]>({
  type: 'string',
  enum: [...LEAD_STATUSES],
  title: 'LeadStatus',
  description: 'Where the broker stands with the lead; a push never changes it.',
});

export const LeadResponse = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Lead identifier.' }),
    origin: NullableString,
    backref: NullableString,
    source: NullableString,
    status: LeadStatus,
    lost_reason: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      description: 'Why the lead was lost; only with status `lost`.',
    }),
    assignee: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The user id of the broker the lead is assigned to, or null.',
    }),
    status_changed_at: Type.String({
      format: 'date-time',
      description: 'When the status was last set (its creation for `new`).',
      examples: ['2026-11-20T10:15:00.000Z'],
    }),
    follow_up_on: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      format: 'date',
      description: 'The day the broker means to come back to the lead (YYYY-MM-DD), or null.',
      examples: ['2026-12-01'],
    }),
    prospect: ProspectOut,
    risk_object_revisions: Type.Object({
      cars: Type.Array(CarRevisionOut),
      residences: Type.Array(ResidenceRevisionOut),
    }),
    policy_packages: Type.Array(PolicyPackageOut),
    insurance_policies: Type.Array(InsurancePolicyOut),
    party_id: Type.String({ format: 'uuid', description: 'Equals prospect.id.' }),
    self: Type.String({ format: 'uri' }),
    href: Type.String({ format: 'uri' }),
    href_to_proflow: Type.String({ format: 'uri' }),
    href_to_risk_scan: Type.String({ format: 'uri' }),
    href_to_advisory_flow: Type.String({ format: 'uri' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Lead' },
);

export type LeadResponse = Static<typeof LeadResponse>;
