// Scopes are a typed union: a route that asks for a misspelt scope fails `tsc --noEmit`
// (run by `npm test`), rather than answering 403 to every caller at run time.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ForbiddenError } from '../errors.ts';
import { requireScope } from './authorize.ts';
import { API_TOKEN_SCOPES, type Caller } from './caller.ts';

const DISTRIBUTION = '00000000-0000-4000-8000-000000000001';

/** What the hook `requireScope(scope)` hands to `done` for a request of `scopes` to its own distribution. */
function refusalFor(scope: string, scopes: readonly string[]): Promise<Error | undefined> {
  const caller: Caller = { kind: 'token', id: 'token-1', distributionId: DISTRIBUTION, scopes };
  const request = {
    server: { authenticate: async () => caller },
    headers: { authorization: 'apikey li_test' },
    params: { distribution_id: DISTRIBUTION },
    routeOptions: { config: {} },
  } as unknown as FastifyRequest;
  return new Promise((resolve) => {
    // The scope is checked by tsc where routes call requireScope; here any text is handed over at run time.
    requireScope(scope as never).call({} as FastifyInstance, request, {} as FastifyReply, (error?: Error) =>
      resolve(error),
    );
  });
}

describe('requireScope', () => {
  it('takes every scope an API token may carry: a caller with it passes, a caller with all the others does not', async () => {
    for (const scope of API_TOKEN_SCOPES) {
      expect(await refusalFor(scope, [scope]), scope).toBeUndefined();
      const others = API_TOKEN_SCOPES.filter((other) => other !== scope);
      expect(await refusalFor(scope, others), scope).toBeInstanceOf(ForbiddenError);
    }
  });

  it('does not compile with a misspelt scope, and refuses every token caller at run time', async () => {
    // If 'leads:wirte' were accepted, this directive would be unused and tsc would fail.
    // @ts-expect-error 'leads:wirte' is not an ApiTokenScope
    const hook = requireScope('leads:wirte');
    expect(hook).toBeTypeOf('function');
    expect(await refusalFor('leads:wirte', API_TOKEN_SCOPES)).toBeInstanceOf(ForbiddenError);
  });
});
