import { describe, expect, it } from 'vitest';
import { revisionChanges } from './revision-changes.ts';

describe('what changed between two revisions', () => {
  it('lists changed, added and removed fields, and nothing that stayed', () => {
    const before = { brand: 'Volkswagen', model: 'Golf', kw: 85, address: { city: 'Gent', zipcode: '9000' } };
    const after = {
      brand: 'Volkswagen',
      model: 'Golf Variant',
      license_plate: '1-ABC-123',
      address: { zipcode: '9000', city: 'Gent' },
    };
    expect(revisionChanges(before, after)).toEqual([
      { field: 'model', before: 'Golf', after: 'Golf Variant' },
      { field: 'kw', before: 85, after: undefined },
      { field: 'license_plate', before: undefined, after: '1-ABC-123' },
    ]);
  });

  it('finds no change between equal revisions', () => {
    expect(revisionChanges({ vin: 'WVWZZZ1JZXW000001' }, { vin: 'WVWZZZ1JZXW000001' })).toEqual([]);
  });
});
