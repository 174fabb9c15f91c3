// Close names: at most two edits apart, a swap of neighbouring letters one edit, first and
// last name in either order.
import { describe, expect, it } from 'vitest';
import { closeNames, editsWithin } from './close-names.ts';

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
