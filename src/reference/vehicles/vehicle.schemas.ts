// The shapes of the car database's answers (vehicle.routes.ts).
import Type from 'typebox';
import { Nullable } from '../routes/reference.schemas.ts';

export const Count = (title: string, example: string) =>
  Type.Object({ name: Type.String({ examples: [example] }), versions: Type.Integer({ examples: [42] }) }, { title });

export const VehicleVersion = Type.Object(
  {
    id: Type.String({
      examples: ['q3YkQk1c0m5GZ9xJ'],
      description: 'Stable across imports: derived from the fields that make the version.',
    }),
    brand: Type.String({ examples: ['VOLKSWAGEN'] }),
    model: Type.String({ examples: ['GOLF'] }),
    type: Nullable(Type.String({ examples: ['CD'] })),
    variant: Nullable(Type.String({ examples: ['CDA'] })),
    version: Nullable(Type.String({ examples: ['CDA110'] })),
    fuel: Nullable(Type.String({ examples: ['petrol'] })),
    fuel_mode: Nullable(Type.String({ examples: ['M'] })),
    engine_cc: Nullable(Type.Integer({ examples: [1498] })),
    power_kw: Nullable(Type.Integer({ examples: [110] })),
    mass_kg: Nullable(Type.Integer({ examples: [1380] })),
    co2_wltp: Nullable(Type.Number({ examples: [128] })),
    electric_range_km: Nullable(Type.Integer()),
    years: Type.Array(Type.Integer(), { examples: [[2019, 2023]] }),
    registrations: Type.Integer({ examples: [1834], description: 'Registrations in the imported EEA files.' }),
  },
  { title: 'VehicleVersion' },
);

export const DecodedVin = Type.Object(
  {
    vin: Type.String({ examples: ['WVWZZZ1KZAW000001'] }),
    valid: Type.Boolean({ description: 'The structure is valid and, where it applies, so is the check digit.' }),
    wmi: Type.String({ examples: ['WVW'] }),
    manufacturer: Nullable(Type.String({ examples: ['Volkswagen'] })),
    country: Nullable(Type.String({ examples: ['Germany'] })),
    region: Nullable(Type.String({ examples: ['Europe'] })),
    model_year: Type.Array(Type.Integer(), {
      examples: [[1980, 2010]],
      description: 'Position 10 repeats every 30 years: both candidates.',
    }),
    check_digit: Type.Object({
      applies: Type.Boolean({ description: 'Position 9 is a check digit on North American VINs only.' }),
      valid: Nullable(Type.Boolean()),
    }),
    brand: Nullable(
      Type.String({
        examples: ['VOLKSWAGEN'],
        description: "The catalogue's make for this manufacturer, when it has one.",
      }),
    ),
  },
  { title: 'DecodedVin' },
);
