// Reference data is shared, not per distribution (docs/design.md section 6): any API token or
// SSO user holding the scope may read it (`api` grants all). 401 and 403 as for leads.
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { ForbiddenError } from '../../errors.ts';
import { unauthenticated } from '../../auth/authorize.ts';
import { API_SCOPE } from '../../auth/caller.ts';
import { chooseLanguage, type Language } from '../../i18n/messages.ts';

export function requireReferenceScope(
  scope: 'vehicle:read' | 'address:read' | 'enterprise:read',
): onRequestHookHandler {
  return async function authorize(request: FastifyRequest): Promise<void> {
    const caller = await request.server.authenticate(request.headers.authorization);
    if (!caller) throw unauthenticated(request.headers.authorization);
    request.caller = caller;
    if (!caller.scopes.includes(scope) && !caller.scopes.includes(API_SCOPE)) {
      throw new ForbiddenError({ target: 'Authorization', code: 'forbidden_scope', params: { scope } });
    }
  };
}

/** The caller's language for names and descriptions: the SSO user's, else Accept-Language. */
export function callerLanguage(request: FastifyRequest): Language {
  const caller = request.caller;
  return chooseLanguage(caller?.kind === 'user' ? caller.language : undefined, request.headers['accept-language']);
}
