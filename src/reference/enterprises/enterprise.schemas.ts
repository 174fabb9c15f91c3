// The shapes of the company database's answers (enterprise.routes.ts).
import Type from 'typebox';
import { Nullable } from '../routes/reference.schemas.ts';

const EnterpriseAddress = Type.Object({
  type: Type.String({ examples: ['registered_office'], description: 'registered_office, establishment or branch' }),
  street: Nullable(Type.String({ examples: ['Rue de la Loi'] })),
  housenr: Nullable(Type.String({ examples: ['16'] })),
  boxnr: Nullable(Type.String()),
  zipcode: Nullable(Type.String({ examples: ['1000'] })),
  city: Nullable(Type.String({ examples: ['Bruxelles'] })),
  country_code: Nullable(Type.String({ examples: ['BE'], description: 'BE, or null for an address abroad' })),
});

const JuridicalForm = Nullable(
  Type.Object({
    code: Type.String({ examples: ['416'] }),
    description: Nullable(Type.String({ examples: ['Intercommunale'] })),
  }),
);

const common = {
  enterprise_number: Type.String({ examples: ['0200.065.765'] }),
  vat_number: Type.String({ examples: ['BE0200065765'] }),
  name: Nullable(
    Type.String({
      examples: ['Intergemeentelijke Vereniging Veneco'],
      description: "The official name (denomination 001), in the caller's language when it has several.",
    }),
  ),
  status: Nullable(Type.String({ examples: ['active'] })),
  type: Type.String({ enum: ['legal_person', 'natural_person'] }),
  juridical_form: JuridicalForm,
  start_date: Nullable(Type.String({ format: 'date', examples: ['1961-03-29'] })),
};

export const EnterpriseSummary = Type.Object(
  {
    ...common,
    abbreviation: Nullable(Type.String({ examples: ['Veneco'] })),
    address: Nullable(EnterpriseAddress),
  },
  { title: 'EnterpriseSummary' },
);

export const Enterprise = Type.Object(
  {
    ...common,
    denominations: Type.Array(
      Type.Object({
        type: Type.String({ examples: ['name'], description: 'name, abbreviation, commercial_name or branch_name' }),
        language: Nullable(Type.String({ examples: ['nl'] })),
        name: Type.String({ examples: ['Intergemeentelijke Vereniging Veneco'] }),
      }),
    ),
    addresses: Type.Array(EnterpriseAddress),
    contacts: Type.Array(
      Type.Object({ type: Type.String({ examples: ['email'] }), value: Type.String({ examples: ['info@veneco.be'] }) }),
    ),
    activities: Type.Array(
      Type.Object({
        nace_version: Type.String({ examples: ['2008'] }),
        nace_code: Type.String({ examples: ['84130'] }),
        classification: Type.String({ examples: ['main'], description: 'main, secondary or ancillary' }),
        description: Nullable(Type.String()),
      }),
    ),
    establishment_count: Type.Integer({ examples: [2] }),
  },
  { title: 'Enterprise' },
);
