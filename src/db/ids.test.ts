import { describe, expect, it } from 'vitest';
import { canonicalId, isUuid } from './ids.ts';

describe('canonicalId', () => {
  it('lower-cases a UUID in any case', () => {
    expect(canonicalId('0190F3A2-7C1B-7D4E-9A0B-1C2D3E4F5A6B')).toBe('0190f3a2-7c1b-7d4e-9a0b-1c2d3e4f5a6b');
    expect(canonicalId('0190f3a2-7C1B-7d4e-9A0B-1c2d3e4f5a6b')).toBe('0190f3a2-7c1b-7d4e-9a0b-1c2d3e4f5a6b');
  });

  it('leaves what is not a UUID as it is', () => {
    expect(canonicalId('Lead-A')).toBe('Lead-A');
    expect(canonicalId('0190F3A2-7C1B-7D4E-9A0B-1C2D3E4F5A6')).toBe('0190F3A2-7C1B-7D4E-9A0B-1C2D3E4F5A6');
    expect(isUuid('0190F3A2-7C1B-7D4E-9A0B-1C2D3E4F5A6B ')).toBe(false);
  });
});
