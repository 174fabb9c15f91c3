import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { refHasher } from './ref-hash.ts';

// The hashes erasure stored (with createHmac) must still be recognised: the same HMAC.
describe('refHasher', () => {
  const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('hex');

  it('is HMAC-SHA256 of the party ref under the key, for keys shorter and longer than a block', () => {
    for (const key of [randomBytes(32), randomBytes(64), randomBytes(100), Buffer.alloc(0)]) {
      const hasher = refHasher(key);
      for (const ref of [
        { company: '', ref: 'CRM-1' },
        { company: 'ACME', ref: 'é/ü 42' },
        { company: 'x'.repeat(200), ref: '' },
      ])
        expect(hasher(ref)).toBe(hmac(key, `party\u0000${ref.company}\u0000${ref.ref}`));
    }
  });

  it('tells refs apart by company and by ref', () => {
    const hasher = refHasher(randomBytes(32));
    expect(hasher({ company: 'a', ref: 'b' })).not.toBe(hasher({ company: 'ab', ref: '' }));
    expect(hasher({ company: '', ref: 'x' })).not.toBe(hasher({ company: '', ref: 'y' }));
  });
});
