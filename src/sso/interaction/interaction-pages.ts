// The login and consent pages of one interaction: what they show (client name, requested
// scopes, the signed-in user), where their forms post, their CSRF token and language.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Language } from '../../i18n/messages.ts';
import { csrfToken } from './csrf.ts';
import type { ConsentDetails, Interaction } from './interaction.ts';
import { renderConsentPage } from '../pages/consent.page.ts';
import { pageLanguage } from '../pages/language.ts';
import { originOf, type RenderedPage } from '../pages/layout.ts';
import { renderLoginPage, type LoginPage } from '../pages/login.page.ts';
import { interactionPathOf } from '../provider/provider-urls.ts';
import type { Sso } from '../sso-runtime.ts';
import { findUserById } from '../users/user.repository.ts';

export interface PageContext {
  readonly sso: Sso;
  readonly interaction: Interaction;
  readonly request: FastifyRequest;
}

export function languageOf(interaction: Interaction, request: FastifyRequest): Language {
  return pageLanguage(interaction.params.ui_locales, request.headers['accept-language']);
}

export async function loginPageFor(
  { sso, interaction, request }: PageContext,
  extra: Pick<LoginPage, 'login' | 'error'> = {},
): Promise<RenderedPage> {
  const path = interactionPathOf(interaction.uid);
  return renderLoginPage({
    language: languageOf(interaction, request),
    clientName: await clientNameOf(sso, interaction),
    action: `${path}/login`,
    cancelAction: `${path}/abort`,
    csrfToken: csrfToken(sso.csrfKey, interaction.jti),
    formTargets: formTargetsOf(interaction),
    ...extra,
  });
}

export async function consentPageFor(
  { sso, interaction, request }: PageContext,
  db: Kysely<Database>,
): Promise<RenderedPage> {
  const user = await findUserById(db, interaction.session?.accountId ?? '');
  const details = interaction.prompt.details as ConsentDetails;
  return renderConsentPage({
    language: languageOf(interaction, request),
    clientName: await clientNameOf(sso, interaction),
    username: user?.username ?? '',
    scopes: [...(details.missingOIDCScope ?? []), ...Object.values(details.missingResourceScopes ?? {}).flat()],
    action: `${interactionPathOf(interaction.uid)}/consent`,
    csrfToken: csrfToken(sso.csrfKey, interaction.jti),
    formTargets: formTargetsOf(interaction),
  });
}

async function clientNameOf({ provider }: Sso, interaction: Interaction): Promise<string> {
  const client = await provider.Client.find(String(interaction.params.client_id));
  return client?.clientName ?? String(interaction.params.client_id);
}

/** Where a submitted form may end up: this service, then the client's redirect URI. */
function formTargetsOf(interaction: Interaction): string[] {
  const origin = originOf(interaction.params.redirect_uri);
  return origin ? [origin] : [];
}
