// GET (or POST) /sso/userinfo (docs/design.md section 12): the user behind an access
// token, for `Authorization: bearer <token>` with the scheme in any case, when the token
// was granted `openid`. The same access token that calls the API works here, which
// oidc-provider's own userinfo endpoint does not allow for tokens with an audience, so
// this route answers instead. Errors follow RFC 6750 section 3 (OAuth clients read them
// from WWW-Authenticate and an `error` member), not the API's error body.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { parseAuthorization } from '../auth/authorize.ts';
import type { SsoRuntime } from './sso-runtime.ts';
import { acceptFormBodies } from '../http/form-body.ts';
import { Userinfo, userClaims } from './tokens/user-claims.ts';

export interface UserinfoRoutesOptions {
  readonly sso: SsoRuntime;
  readonly issuer: string;
}

const OAuthError = Type.Object(
  { error: Type.String(), error_description: Type.String() },
  { title: 'OAuthError', description: 'An OAuth 2.0 bearer token error (RFC 6750 section 3).' },
);

export const userinfoRoutes: FastifyPluginAsync<UserinfoRoutesOptions> = async (app, { sso, issuer }) => {
  // OpenID Connect allows a form POST; the token still comes from the header only.
  acceptFormBodies(app);
  const refuse = (reply: FastifyReply, status: 401 | 403, error: string, description: string, extra = '') =>
    reply
      .status(status)
      .header(
        'www-authenticate',
        `Bearer realm="${issuer}", error="${error}", error_description="${description}"${extra}`,
      )
      .header('cache-control', 'no-store')
      .send({ error, error_description: description });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const authorization = parseAuthorization(request.headers.authorization);
    if (authorization?.scheme !== 'bearer') return refuse(reply, 401, 'invalid_token', 'no access token provided');
    const verified = await (await sso()).accessTokens.verify(authorization.credentials);
    if (!verified) return refuse(reply, 401, 'invalid_token', 'invalid or expired access token');
    if (!verified.scopes.includes('openid')) {
      return refuse(reply, 403, 'insufficient_scope', 'access token missing openid scope', ', scope="openid"');
    }
    return reply.header('cache-control', 'no-store').send(userClaims(verified.user));
  };

  app.get(
    '/userinfo',
    {
      schema: {
        operationId: 'userinfo',
        summary: 'The signed-in user (OpenID Connect userinfo)',
        description:
          'Answers for an SSO access token granted the `openid` scope, sent as `Authorization: bearer <ACCESS_TOKEN>`. ' +
          'Errors follow RFC 6750: `WWW-Authenticate` and `{"error", "error_description"}`. POST works the same.',
        tags: ['sso'],
        security: [{ bearer: [] }],
        response: { 200: Userinfo, 401: OAuthError, 403: OAuthError },
      },
    },
    handler,
  );
  // OpenID Connect Core 1.0 section 5.3.1 allows POST too; one operation documents both.
  app.post('/userinfo', { schema: { hide: true } }, handler);
};
