// The body of every non-2xx answer (docs/design.md section 3; docs/errors.md, "Errors").
import Type from 'typebox';

export const ErrorEntry = Type.Object(
  {
    type: Type.String({ examples: ['ValidationError'] }),
    target: Type.String({ examples: ['prospect.risk_objects.residences.0.address.zipcode'] }),
    message: Type.String({
      examples: [
        "Error for 'zipcode'. The specified value is invalid: a Belgian postcode of 4 digits from 1000 to 9999 is expected.",
      ],
    }),
  },
  { title: 'ErrorEntry' },
);

export const ErrorBody = Type.Object(
  {
    detail: Type.Object({
      type: Type.String({ examples: ['ValidationError'] }),
      errors: Type.Array(ErrorEntry),
      error_str: Type.String({
        examples: [
          "1 validation error for CustomerLead\nprospect.risk_objects.residences.0.address.zipcode\n  Error for 'zipcode'. The specified value is invalid: a Belgian postcode of 4 digits from 1000 to 9999 is expected.",
        ],
      }),
      merged_into: Type.Optional(
        Type.Object(
          { party_id: Type.String({ format: 'uuid' }), lead_id: Type.String({ format: 'uuid' }) },
          { description: 'With type `Merged`: the party and lead this one was merged into.' },
        ),
      ),
    }),
  },
  { title: 'ErrorBody' },
);
