// The login and consent challenges (docs/design.md section 12). oidc-provider sends the browser to
// GET /sso/interaction/{uid} whenever it needs the user; the forms post back here, and a
// finished step hands the result to the provider, which carries on with the
// authorization request. Server-rendered, in en/nl/fr/de, with a CSRF token per form.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { errors, type InteractionResults } from 'oidc-provider';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/database.ts';
import { isValidCsrfToken } from './csrf.ts';
import { acceptFormBodies, type FormBody } from '../../http/form-body.ts';
import { consentPageFor, languageOf, loginPageFor } from './interaction-pages.ts';
import type { Interaction } from './interaction.ts';
import { ApiError } from '../../errors.ts';
import { signIn } from './login.service.ts';
import { grantConsent } from './consent.ts';
import { pageLanguage } from '../pages/language.ts';
import type { RenderedPage } from '../pages/layout.ts';
import { renderErrorPage } from '../pages/notice.page.ts';
import type { Sso, SsoRuntime } from '../sso-runtime.ts';

export interface InteractionRoutesOptions {
  readonly sso: SsoRuntime;
  readonly db: Kysely<Database>;
  /** The failed sign-ins' window runs on it (src/clock.ts). */
  readonly clock: Clock;
}

/** The interaction is gone, expired, or not the one in the URL. */
class InteractionNotFound extends Error {}

const HIDDEN = { schema: { hide: true } } as const;

export const interactionRoutes: FastifyPluginAsync<InteractionRoutesOptions> = async (app, { sso, db, clock }) => {
  acceptFormBodies(app);

  const send = (reply: FastifyReply, status: number, page: RenderedPage) =>
    reply.status(status).headers(page.headers).send(page.html);

  app.setErrorHandler((error, request, reply) => {
    const language = pageLanguage(undefined, request.headers['accept-language']);
    if (error instanceof InteractionNotFound || error instanceof errors.SessionNotFound) {
      return send(reply, 400, renderErrorPage(language, 'sessionExpired'));
    }
    // The request's own fault, found before the route ran (a uid with a NUL, a form over
    // its size, too many requests): its status, on the page a browser can show.
    const status = error instanceof ApiError ? error.status : (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return send(
        reply.headers(error instanceof ApiError ? error.headers : {}),
        status,
        renderErrorPage(language, 'sessionExpired'),
      );
    }
    request.log.error({ err: error }, 'sign-in page failed');
    return send(reply, 500, renderErrorPage(language, undefined));
  });

  /** The interaction of this browser (its cookie), which must be the one in the URL. */
  async function interactionOf(
    { provider }: Sso,
    request: FastifyRequest<{ Params: { uid: string } }>,
    reply: FastifyReply,
  ): Promise<Interaction> {
    const interaction = await provider.interactionDetails(request.raw, reply.raw);
    if (interaction.uid !== request.params.uid) throw new InteractionNotFound();
    return interaction;
  }

  /** Hands the step's result to the provider and sends the browser back to it. */
  async function finish(
    { provider }: Sso,
    request: FastifyRequest,
    reply: FastifyReply,
    result: InteractionResults,
    merge: boolean,
  ) {
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result, {
      mergeWithLastSubmission: merge,
    });
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  }

  app.get<{ Params: { uid: string } }>('/interaction/:uid', HIDDEN, async (request, reply) => {
    const current = await sso();
    const interaction = await interactionOf(current, request, reply);
    const context = { sso: current, interaction, request };
    if (interaction.prompt.name === 'login') return send(reply, 200, await loginPageFor(context));
    if (interaction.prompt.name === 'consent') return send(reply, 200, await consentPageFor(context, db));
    throw new Error(`unexpected prompt ${interaction.prompt.name}`);
  });

  app.post<{ Params: { uid: string }; Body: FormBody }>('/interaction/:uid/login', HIDDEN, async (request, reply) => {
    const current = await sso();
    const interaction = await interactionOf(current, request, reply);
    if (interaction.prompt.name !== 'login') throw new InteractionNotFound();
    const context = { sso: current, interaction, request };
    const form = request.body ?? {};
    if (!isValidCsrfToken(current.csrfKey, interaction.jti, form.csrf)) {
      return send(reply, 403, await loginPageFor(context, { error: 'formExpired' }));
    }
    const login = form.login ?? '';
    const result = await signIn(
      db,
      { login, password: form.password ?? '', address: request.ip },
      new Date(clock.now()),
    );
    if (result.outcome === 'throttled')
      return send(reply, 429, await loginPageFor(context, { login, error: 'throttled' }));
    if (result.outcome === 'invalid')
      return send(reply, 401, await loginPageFor(context, { login, error: 'invalidCredentials' }));
    return finish(current, request, reply, { login: { accountId: result.user.id } }, false);
  });

  app.post<{ Params: { uid: string }; Body: FormBody }>('/interaction/:uid/consent', HIDDEN, async (request, reply) => {
    const current = await sso();
    const interaction = await interactionOf(current, request, reply);
    if (interaction.prompt.name !== 'consent') throw new InteractionNotFound();
    if (!isValidCsrfToken(current.csrfKey, interaction.jti, request.body?.csrf)) {
      return send(reply, 403, renderErrorPage(languageOf(interaction, request), 'formExpired'));
    }
    if (request.body?.decision !== 'allow') {
      return finish(
        current,
        request,
        reply,
        { error: 'access_denied', error_description: 'the user denied the request' },
        false,
      );
    }
    const grantId = await grantConsent(current.provider, interaction);
    return finish(current, request, reply, { consent: { grantId } }, true);
  });

  app.post<{ Params: { uid: string }; Body: FormBody }>('/interaction/:uid/abort', HIDDEN, async (request, reply) => {
    const current = await sso();
    const interaction = await interactionOf(current, request, reply);
    if (!isValidCsrfToken(current.csrfKey, interaction.jti, request.body?.csrf)) {
      return send(reply, 403, renderErrorPage(languageOf(interaction, request), 'formExpired'));
    }
    return finish(
      current,
      request,
      reply,
      { error: 'access_denied', error_description: 'the user cancelled the sign-in' },
      false,
    );
  });
};
