// Every allowed-value list of the lead payload lives here (docs/design.md section 2), so the
// schema, the OpenAPI document and the error messages can never disagree.
export const PAYMENT_INTERVALS = ['ANNUAL', 'SEMI_ANNUAL', 'QUARTERLY', 'MONTHLY'] as const;
export const POLICY_TYPES = ['ACTIVE', 'OFFER', 'TERMINATED'] as const;
export const EXTERNAL_LABEL_TYPES = ['AFD'] as const;
export const GENDERS = ['MALE', 'FEMALE', 'OTHER'] as const;
export const FUEL_TYPES = [
  'PETROL',
  'DIESEL',
  'ELECTRIC',
  'HYBRID',
  'PLUG_IN_HYBRID',
  'LPG',
  'CNG',
  'HYDROGEN',
  'OTHER',
] as const;
export const RESIDENCE_TYPES = ['HOUSE', 'APARTMENT', 'STUDIO', 'OTHER'] as const;
/** A lead's status (docs/design.md section 13): `new` on creation, then any move. */
export const LEAD_STATUSES = ['new', 'contacted', 'quoted', 'won', 'lost'] as const;
