// A list over its maxItems is found however deep it lies, and only there: the walk skips the
// parts of a schema that hold no list with a limit (array-limits.ts), never one that does.
import Type from 'typebox';
import { expect, it } from 'vitest';
import { withListsCut } from './array-limits.ts';

// Shaped as a push is (lead.schema.ts): lists of objects holding lists, some behind a
// nullable union (anyOf), beside fields that hold none.
const Ref = Type.Object({ ref: Type.Optional(Type.String()) });
const Coverage = Type.Object({ name: Type.Optional(Type.String()), amount: Type.Optional(Type.Number()) });
const Policy = Type.Object({
  name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  external_refs: Type.Optional(Type.Array(Ref, { maxItems: 20 })),
  coverages: Type.Optional(Type.Array(Coverage, { maxItems: 100 })),
});
const schema = Type.Object({
  prospect: Type.Object({
    name: Type.Optional(Type.String()),
    risk_objects: Type.Optional(Type.Union([Type.Object({ cars: Type.Array(Ref, { maxItems: 50 }) }), Type.Null()])),
    insurance_policies: Type.Optional(Type.Array(Policy, { maxItems: 100 })),
  }),
});

it('reports each list over its limit, at any depth, once, and cuts it for the validation', () => {
  const coverages = Array.from({ length: 101 }, () => ({}));
  const refs = Array.from({ length: 21 }, () => ({}));
  const body = {
    prospect: {
      name: 'x',
      risk_objects: { cars: Array.from({ length: 51 }, () => ({})) },
      insurance_policies: [{ coverages: [] }, { coverages, external_refs: refs }],
    },
  };
  let seenLengths: number[] = [];
  const { oversized } = withListsCut(schema, body, () => {
    seenLengths = [
      body.prospect.risk_objects.cars.length,
      (body.prospect.insurance_policies[1]!.coverages as unknown[]).length,
      (body.prospect.insurance_policies[1]!.external_refs as unknown[]).length,
    ];
  });
  expect(oversized).toEqual([
    { target: 'prospect.risk_objects.cars', code: 'max_items', params: { limit: 50 } },
    { target: 'prospect.insurance_policies.1.external_refs', code: 'max_items', params: { limit: 20 } },
    { target: 'prospect.insurance_policies.1.coverages', code: 'max_items', params: { limit: 100 } },
  ]);
  expect(seenLengths).toEqual([50, 100, 20]);
  // Restored as sent once validated.
  expect(body.prospect.risk_objects.cars).toHaveLength(51);
  expect(body.prospect.insurance_policies[1]!.coverages).toBe(coverages);
});

it('finds nothing in lists within their limits', () => {
  const body = { prospect: { insurance_policies: [{ coverages: [{}, {}] }], risk_objects: { cars: [{}] } } };
  expect(withListsCut(schema, body, () => undefined).oversized).toEqual([]);
});
