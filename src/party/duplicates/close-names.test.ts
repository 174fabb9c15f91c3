// Close names: at most two edits apart, a swap of neighbouring letters one edit, first and
// last name in either order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closeNames, editsWithin, lettersWithin, MAX_NAME_EDITS } from './close-names.ts';

describe('closeNames', () => {
  it('takes a name within two edits as close', () => {
    expect(closeNames('jan peeters', 'jan peeters')).toBe(true);
    expect(closeNames('jan peeters', 'jan peters')).toBe(true);
    expect(closeNames('jan peeters', 'jean peters')).toBe(true);
    expect(closeNames('jan peeters', 'jna peetres')).toBe(true);
  });

  it('takes first and last name in either order', () => {
    expect(closeNames('jan peeters', 'peeters jan')).toBe(true);
    expect(closeNames('jan peeters', 'peters jan')).toBe(true);
  });

  it('refuses names three edits apart, and empty names', () => {
    expect(closeNames('jan peeters', 'jan janssens')).toBe(false);
    expect(closeNames('jan peeters', 'joe petrs')).toBe(false);
    expect(closeNames('', '')).toBe(false);
  });
});

describe('editsWithin', () => {
  it('counts additions, removals, replacements and neighbouring swaps', () => {
    expect(editsWithin('abc', 'abc', 0)).toBe(true);
    expect(editsWithin('abc', 'acb', 1)).toBe(true);
    expect(editsWithin('abc', 'xbcd', 1)).toBe(false);
    expect(editsWithin('abc', 'xbcd', 2)).toBe(true);
    expect(editsWithin('kitten', 'sitting', 2)).toBe(false);
    expect(editsWithin('kitten', 'sitting', 3)).toBe(true);
  });
});

describe('lettersWithin', () => {
  it('counts letters, not their order', () => {
    expect(lettersWithin('jan peeters', 'peeters jan', 0)).toBe(true);
    expect(lettersWithin('jan peeters', 'jan peters', 1)).toBe(true);
    expect(lettersWithin('jan peeters', 'jan peters', 0)).toBe(false);
    expect(lettersWithin('jan peeters', 'jan xkqwhrtz', 4)).toBe(false);
  });

  // The letters are a shortcut of closeNames, never a second rule: a pair the edits alone
  // would take as close is never refused by them (a few letters, so close pairs are common).
  it('never refuses names the edits take as close, either way round', () => {
    const name = fc.stringMatching(/^[abe ]{0,9}$/);
    fc.assert(
      fc.property(name, name, (a, b) => {
        const byEdits = editsWithin(a, b, MAX_NAME_EDITS);
        if (byEdits) expect(lettersWithin(a, b, 2 * MAX_NAME_EDITS)).toBe(true);
        const swappedB = b.includes(' ') ? `${b.slice(b.indexOf(' ') + 1)} ${b.slice(0, b.indexOf(' '))}` : b;
        const either = a !== '' && b !== '' && (byEdits || editsWithin(a, swappedB, MAX_NAME_EDITS));
        expect(closeNames(a, b)).toBe(either);
      }),
      { numRuns: 5000 },
    );
  });
});
