// A new API token's secret: li_ and 43 base64url characters, the first never `-`, so its
// prefix typed without li_ is never read as a command-line option (`token revoke <prefix>`).
import { describe, expect, it } from 'vitest';
import { newTokenSecret } from './api-token.service.ts';

describe('newTokenSecret', () => {
  it('gives li_ and 43 base64url characters, never starting with -, all different', () => {
    const secrets = Array.from({ length: 5_000 }, newTokenSecret);
    for (const secret of secrets) expect(secret).toMatch(/^li_[A-Za-z0-9_][A-Za-z0-9_-]{42}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
  });
});
