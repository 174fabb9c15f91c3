// The push payloads (docs/design.md section 2; docs/api.md, "Pushing a lead"). These schemas
// validate the request, type the handlers and feed the OpenAPI document. Unknown fields
// are refused everywhere (additionalProperties: false).
import Type, { type Static } from 'typebox';
import {
  EXTERNAL_LABEL_TYPES,
  FUEL_TYPES,
  GENDERS,
  PAYMENT_INTERVALS,
  POLICY_TYPES,
  RESIDENCE_TYPES,
} from './enumerations.ts';
import { Expected } from '../../http/ajv-problems.ts';
import { Enum, HttpUrl, IsoDate, Nullable, NumericText, Text, Uuid, Uuid4 } from './schema-primitives.ts';

const closed = { additionalProperties: false } as const;

/** The text a push's `enterprise_nr` may be; a Belgian number also passes its check digit (payload-rules.ts). */
export const ENTERPRISE_NR_PATTERN = '^[0-9A-Z .-]{4,20}$';
const Opt = Type.Optional;

/**
 * A country as ISO 3166-1 alpha-2, BE when a request leaves it out (Ajv fills it in,
 * src/http/validation.ts). A named schema, so the OpenAPI document holds the default here and
 * not on a request's member: openapi-typescript types a member carrying its own default as
 * always present, and a partner's typed push without `country_code` would not compile.
 */
export const CountryCode = Type.String({
  pattern: '^[A-Z]{2}$',
  ...Expected('country_code'),
  default: 'BE',
  examples: ['BE'],
  title: 'CountryCode',
});

/** An address as a request sends it: `country_code` may be left out. */
export const Address = Type.Object(
  {
    street: Opt(Nullable(Text(200))),
    housenr: Text(20),
    boxnr: Opt(Nullable(Text(20))),
    // The format depends on country_code; checked after the schema (payload-rules.ts).
    zipcode: Type.String({ maxLength: 10, examples: ['9000'] }),
    city: Text(100),
    country_code: Opt(CountryCode),
  },
  { ...closed, title: 'Address' },
);

/** An address as an answer shows it: stored with its country, defaulted or sent. */
export const StoredAddress = Type.Object(
  { ...Address.properties, country_code: CountryCode },
  { title: 'StoredAddress' },
);

/** The request form of an external reference (docs/api.md, "Pushing a lead": `external_refs`). */
export const ProspectExternalRef = Type.Object(
  { external_ref: Text(255), external_ref_company: Opt(Nullable(Text(255))) },
  { ...closed, title: 'ProspectExternalRef' },
);

/** The policy form of an external reference. */
export const PolicyExternalRef = Type.Object(
  { ref: Text(255), company: Opt(Nullable(Text(255))) },
  { ...closed, title: 'PolicyExternalRef' },
);

export const Car = Type.Object(
  {
    id: Opt(Uuid4()),
    // ISO 3779: 17 characters of 0-9 and A-Z without I, O and Q, in either case; kept in
    // capitals (push.ts canonicalVin), as the VIN decoder reads it (docs/api.md, "Pushing a lead").
    vin: Opt(
      Nullable(
        Type.String({
          pattern: '^[A-HJ-NPR-Za-hj-npr-z0-9]{17}$',
          ...Expected('vin'),
          examples: ['WVWZZZ1JZXW000001'],
        }),
      ),
    ),
    brand: Opt(Nullable(Text(100))),
    model: Opt(Nullable(Text(100))),
    version: Opt(Nullable(Text(200))),
    license_plate: Opt(Nullable(Text(20))),
    first_registration: Opt(Nullable(IsoDate())),
    fuel_type: Opt(Nullable(Enum(FUEL_TYPES))),
    kw: Opt(Nullable(Type.Integer({ minimum: 0, maximum: 2000 }))),
    mileage: Opt(Nullable(Type.Integer({ minimum: 0 }))),
    value: Opt(Nullable(NumericText())),
  },
  { ...closed, title: 'Car' },
);

export const Residence = Type.Object(
  {
    id: Opt(Uuid4()),
    address: Address,
    type: Opt(Nullable(Enum(RESIDENCE_TYPES))),
    construction_year: Opt(Nullable(Type.Integer({ minimum: 1000, maximum: 2100 }))),
    rooms: Opt(Nullable(Type.Integer({ minimum: 0, maximum: 1000 }))),
    value: Opt(Nullable(NumericText())),
  },
  { ...closed, title: 'Residence' },
);

export const RiskObjects = Type.Object(
  { cars: Opt(Type.Array(Car, { maxItems: 50 })), residences: Opt(Type.Array(Residence, { maxItems: 50 })) },
  { ...closed, title: 'RiskObjects' },
);

export const PolicyPackage = Type.Object(
  {
    id: Opt(Uuid4()),
    name: Opt(Nullable(Text(200))),
    package_nr: Opt(Nullable(Text(100))),
    insurance_company: Opt(Nullable(Text(200))),
    premium: Opt(Nullable(NumericText())),
    payment_interval: Opt(Nullable(Enum(PAYMENT_INTERVALS))),
  },
  { ...closed, title: 'PolicyPackage' },
);

export const ExternalLabel = Type.Object(
  { label: Text(100), type: Enum(EXTERNAL_LABEL_TYPES) },
  { ...closed, title: 'ExternalLabel' },
);

export const Coverage = Type.Object(
  {
    name: Opt(Text(200)),
    risk_object_id: Opt(Uuid4()),
    insured_value: Opt(Type.Number({ minimum: 0 })),
    premium: Opt(NumericText()),
    payment_interval: Opt(Enum(PAYMENT_INTERVALS)),
    external_label: Opt(ExternalLabel),
  },
  { ...closed, title: 'Coverage' },
);

export const InsurancePolicy = Type.Object(
  {
    name: Opt(Nullable(Text(200))),
    policy_nr: Opt(Nullable(Text(100))),
    policy_package_id: Opt(Nullable(Uuid4())),
    type: Opt(Nullable(Enum(POLICY_TYPES))),
    insurance_company: Opt(Nullable(Text(200))),
    premium: Opt(Nullable(NumericText())),
    payment_interval: Opt(Nullable(Enum(PAYMENT_INTERVALS))),
    external_refs: Opt(Type.Array(PolicyExternalRef, { maxItems: 20 })),
    coverages: Opt(Type.Array(Coverage, { maxItems: 100 })),
  },
  { ...closed, title: 'InsurancePolicy' },
);

/** Fields every prospect shares, customer or company. */
const prospectCommon = {
  id: Opt(Uuid({ description: 'Party id of an existing lead: the push is merged into it.' })),
  email: Opt(
    Nullable(
      Type.String({ format: 'email', maxLength: 254, ...Expected('email'), examples: ['jan.peeters@example.be'] }),
    ),
  ),
  telephonenr: Opt(
    Nullable(
      Type.String({ pattern: '^\\+?[0-9 ()./-]{6,20}$', ...Expected('telephone'), examples: ['+32 9 123 45 67'] }),
    ),
  ),
  language: Opt(Nullable(Type.String({ pattern: '^[a-z]{2}$', ...Expected('language_code'), examples: ['nl'] }))),
  address: Opt(Nullable(Address)),
  callbacks: Opt(
    Type.Array(HttpUrl(), {
      maxItems: 10,
      description:
        'Absolute http(s) URLs that receive signed webhooks (Standard Webhooks: lead.created, lead.updated, party.updated) ' +
        'about this lead. Added to those already stored, never removed by a push.',
    }),
  ),
  external_refs: Opt(Type.Array(ProspectExternalRef, { maxItems: 20 })),
  external_ref: Opt(ProspectExternalRef),
  risk_objects: Opt(RiskObjects),
  policy_packages: Opt(Type.Array(PolicyPackage, { maxItems: 50 })),
  insurance_policies: Opt(Type.Array(InsurancePolicy, { maxItems: 100 })),
};

export const CustomerProspect = Type.Object(
  {
    first_name: Text(100),
    last_name: Text(100),
    birth: Opt(Nullable(IsoDate())),
    gender: Opt(Nullable(Enum(GENDERS))),
    ...prospectCommon,
  },
  { ...closed, title: 'CustomerProspect' },
);

export const CompanyProspect = Type.Object(
  {
    name: Text(200),
    enterprise_nr: Opt(
      Nullable(
        Type.String({ pattern: ENTERPRISE_NR_PATTERN, ...Expected('enterprise_nr'), examples: ['BE0123.456.749'] }),
      ),
    ),
    legal_form: Opt(Nullable(Text(50))),
    ...prospectCommon,
  },
  { ...closed, title: 'CompanyProspect' },
);

const leadCommon = {
  origin: Opt(Nullable(Text(255, { examples: ['acme-crm'] }))),
  backref: Opt(Nullable(HttpUrl({ examples: ['https://crm.example.com/contacts/4711'] }))),
  source: Opt(Nullable(Text(255, { examples: ['website-quote-form'] }))),
};

export const CustomerLeadBody = Type.Object(
  { ...leadCommon, prospect: CustomerProspect },
  {
    ...closed,
    title: 'CustomerLead',
  },
);
export const CompanyLeadBody = Type.Object(
  { ...leadCommon, prospect: CompanyProspect },
  {
    ...closed,
    title: 'CompanyLead',
  },
);

export type CustomerLeadBody = Static<typeof CustomerLeadBody>;
export type CompanyLeadBody = Static<typeof CompanyLeadBody>;
export type LeadBody = CustomerLeadBody | CompanyLeadBody;
