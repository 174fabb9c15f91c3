// The shapes of the address database's answers (address.routes.ts).
import Type from 'typebox';
import { Nullable } from '../routes/reference.schemas.ts';

export const Address = Type.Object(
  {
    id: Type.String({ examples: ['1000000'], description: 'The BeST address_id' }),
    street: Nullable(Type.String({ examples: ['Wetstraat'] })),
    housenr: Nullable(Type.String({ examples: ['16'] })),
    boxnr: Nullable(Type.String()),
    zipcode: Nullable(Type.String({ examples: ['1000'] })),
    municipality: Nullable(Type.String({ examples: ['Brussel'] })),
    postname: Nullable(Type.String({ examples: ['Brussel'] })),
    language: Type.String({
      enum: ['nl', 'fr', 'de'],
      description:
        "The language street, municipality and postname are shown in: the one the query was typed in, else the caller's, else the region's.",
    }),
    lat: Nullable(Type.Number({ examples: [50.8466] })),
    lon: Nullable(Type.Number({ examples: [4.3528] })),
    street_names: Type.Object({
      nl: Nullable(Type.String({ examples: ['Wetstraat'] })),
      fr: Nullable(Type.String({ examples: ['Rue de la Loi'] })),
      de: Nullable(Type.String()),
    }),
  },
  { title: 'BestAddress' },
);

export const PostalCode = Type.Object(
  {
    zipcode: Type.String({ examples: ['1000'] }),
    municipality: Type.Object({
      nl: Nullable(Type.String({ examples: ['Brussel'] })),
      fr: Nullable(Type.String({ examples: ['Bruxelles'] })),
      de: Nullable(Type.String()),
    }),
    postname: Type.Object({
      nl: Nullable(Type.String({ examples: ['Brussel'] })),
      fr: Nullable(Type.String({ examples: ['Bruxelles'] })),
    }),
    addresses: Type.Integer({ description: 'Current addresses with this postcode and names.' }),
  },
  { title: 'PostalCode' },
);
