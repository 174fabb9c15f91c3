// Scopes are a typed union: a route that asks for a misspelt scope fails `tsc --noEmit`
// (run by `npm test`), rather than answering 403 to every caller at run time.
import { describe, expect, it } from 'vitest';
import { requireScope } from './authorize.ts';
import { API_TOKEN_SCOPES } from './caller.ts';

describe('requireScope', () => {
  it('takes every scope an API token may carry', () => {
    for (const scope of API_TOKEN_SCOPES) expect(typeof requireScope(scope)).toBe('function');
  });

  it('does not compile with a misspelt scope', () => {
    // If 'leads:wirte' were accepted, this directive would be unused and tsc would fail.
    // @ts-expect-error 'leads:wirte' is not an ApiTokenScope
    expect(typeof requireScope('leads:wirte')).toBe('function');
  });
});
