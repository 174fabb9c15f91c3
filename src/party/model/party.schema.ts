// Shapes of the party endpoints (docs/api.md, "Reading and updating"). The patchable
// document reuses the push's component schemas, so a party update is validated exactly
// like a push.
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

/**
 * The body of a party PATCH: a JSON Merge Patch (RFC 7396) of the party document, derived
 * from the schemas that check the patched document (mergePatchOf), so a generated client
 * types each member. Any member may be null (it clears the field); objects merge member by
 * member, so their members are optional too; arrays replace, so their items keep their
 * full schema.
 */
export const PartyPatch = Type.Unsafe<Record<string, unknown>>({
  ...mergePatchOf({
    ...CompanyPartyDocument,
    properties: { ...CustomerPartyDocument.properties, ...CompanyPartyDocument.properties },
  }),
  title: 'PartyPatch',
  description:
    'A JSON Merge Patch (RFC 7396) over the prospect fields and `risk_objects`: a member present overwrites, ' +
    '`null` clears it, objects such as `address` merge member by member, and arrays (`risk_objects.cars`, ' +
    '`risk_objects.residences`) replace the stored list: an object left out is removed (its revisions stay ' +
    'stored), one whose data changed gets a new revision. Risk objects are named by their `id`. The patched ' +
    'party is checked as a push would be: `first_name` of a customer or `name` of a company cannot be cleared, and ' +
    'the customer fields do not apply to a company, nor the company fields to a customer.',
  examples: [{ telephonenr: '+32 9 123 45 67', email: null, address: { city: 'Gent' } }],
});

/**
 * The schema of a merge patch whose result must match `schema` (RFC 7396 section 2). Defaults
 * are dropped: a member left out of a patch keeps its stored value, it is not filled in.
 */
function mergePatchOf(schema: Record<string, unknown>): Record<string, unknown> {
  const { properties, required: _required, title, type, default: _default, ...rest } = schema;
  if (type === 'object' || (Array.isArray(type) && type.includes('object'))) {
    const members = Object.entries((properties ?? {}) as Record<string, Record<string, unknown>>);
    return {
      ...rest,
      type: 'object',
      ...(typeof title === 'string' && { title: `${title}Patch` }),
      properties: Object.fromEntries(members.map(([name, member]) => [name, nullable(mergePatchOf(member))])),
    };
  }
  return { ...rest, ...(type !== undefined && { type }) };
}

function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  const { type, enum: values } = schema;
  if (type === undefined || (Array.isArray(type) && type.includes('null')) || type === 'null') return schema;
  return {
    ...schema,
    type: Array.isArray(type) ? [...type, 'null'] : [type, 'null'],
    ...(Array.isArray(values) && { enum: [...values, null] }),
  };
}

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
