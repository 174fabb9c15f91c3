// Shapes of the party endpoints (README, "Reading and updating"). The patchable document reuses the push's
// component schemas, so a party update is validated exactly like a push.
import Type, { type Static } from 'typebox';
import { CompanyProspect, CustomerProspect, RiskObjects } from './lead.schema.ts';
import {
  CarRevisionOut,
  InsurancePolicyOut,
  PolicyPackageOut,
  ProspectOut,
  ResidenceRevisionOut,
  revisionFields,
} from './lead.response.ts';

const closed = { additionalProperties: false } as const;
const { first_name, last_name, birth, gender, email, telephonenr, language, address } = CustomerProspect.properties;
const { name, enterprise_nr, legal_form } = CompanyProspect.properties;

/** The prospect fields and risk objects of a customer, as PATCH sees them after the patch. */
export const CustomerPartyDocument = Type.Object(
  {
    first_name,
    last_name,
    birth,
    gender,
    email,
    telephonenr,
    language,
    address,
    risk_objects: Type.Optional(RiskObjects),
  },
  { ...closed, title: 'CustomerParty' },
);
export const CompanyPartyDocument = Type.Object(
  { name, enterprise_nr, legal_form, email, telephonenr, language, address, risk_objects: Type.Optional(RiskObjects) },
  { ...closed, title: 'CompanyParty' },
);

export const PartyPatch = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  title: 'PartyPatch',
  description:
    'A JSON Merge Patch (RFC 7396) over the prospect fields and `risk_objects`: a member present overwrites, ' +
    '`null` clears it, objects such as `address` merge member by member, and arrays (`risk_objects.cars`, ' +
    '`risk_objects.residences`) replace the stored list: an object left out is removed (its revisions stay ' +
    'stored), one whose data changed gets a new revision. Risk objects are named by their `id`.',
  examples: [{ telephonenr: '+32 9 123 45 67', email: null, address: { city: 'Gent' } }],
});

export const PartyResponse = Type.Object(
  {
    ...ProspectOut.properties,
    lead_id: Type.String({ format: 'uuid' }),
    risk_objects: Type.Object({ cars: Type.Array(CarRevisionOut), residences: Type.Array(ResidenceRevisionOut) }),
    policy_packages: Type.Array(PolicyPackageOut),
    insurance_policies: Type.Array(InsurancePolicyOut),
    self: Type.String({ format: 'uri' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Party' },
);
export type PartyResponse = Static<typeof PartyResponse>;

// Listed in the order the reply has always had: the serialiser writes them in this order.
const { self, risk_object_id, risk_object_revision_id, revision_nr, created_at } = revisionFields;
export const RevisionOut = Type.Object(
  {
    self,
    risk_object_id,
    risk_object_revision_id,
    risk_object_type: Type.String({ enum: ['CAR', 'RESIDENCE'] }),
    revision_nr,
    current: Type.Boolean({ description: 'True for the revision the party holds now.' }),
    created_at,
    data: Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      additionalProperties: true,
      description: 'The risk object as of this revision.',
    }),
  },
  { title: 'RiskObjectRevision' },
);
