// withoutNulls is the copy every stored document goes through: it must keep exactly the
// fields fromEntries(entries().filter()) kept, in the same order, `__proto__` as a field.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { withoutNulls } from './party.aggregate.ts';

const reference = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined));

it('keeps every field that is not null, in order, and no other', () => {
  const keys = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', '0', '10', '2', 'toString'));
  const values = fc.oneof(fc.constant(null), fc.constant(undefined), fc.jsonValue());
  fc.assert(
    fc.property(fc.array(fc.tuple(keys, values)), (pairs) => {
      const fields = Object.fromEntries(pairs);
      const kept = withoutNulls(fields);
      expect(Object.keys(kept)).toEqual(Object.keys(reference(fields)));
      expect(kept).toStrictEqual(reference(fields));
      expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
    }),
  );
});

it('keeps a field named __proto__ as a field, as JSON.parse gives it', () => {
  const kept = withoutNulls(JSON.parse('{"__proto__": {"polluted": true}, "a": null, "b": 1}'));
  expect(Object.keys(kept)).toEqual(['__proto__', 'b']);
  expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
  expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
});
