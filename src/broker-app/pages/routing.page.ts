// The distribution's routing rules, read-only (docs/design.md section 15): each rule in the
// order it is tried, what it asks of a new lead and whom it assigns. An administrator
// changes them with `lead-intake routing set`; the page says so.
import { html, type Html } from '../../html/html.ts';
import type { PageContext } from './layout.ts';
import { renderPage } from './layout.ts';

type Rule = {
  readonly when: {
    readonly origin?: readonly string[];
    readonly kind?: 'CUSTOMER' | 'COMPANY';
    readonly postcodes?: readonly string[];
    readonly language?: readonly string[];
  };
  readonly assign: { readonly user?: string; readonly round_robin?: readonly string[] };
};
type Users = ReadonlyMap<string, { readonly name: string; readonly active: boolean }>;

function userName(context: PageContext, users: Users, id: string): string {
  const user = users.get(id);
  if (!user) return id;
  return user.active ? user.name : context.t('routingUserDisabled', { name: user.name });
}

function conditions(context: PageContext, rule: Rule): Html {
  const { t } = context;
  const { origin, kind, postcodes, language } = rule.when;
  const items = [
    origin && html`<li>${t('origin')}: ${origin.join(', ')}</li>`,
    kind && html`<li>${t('routingKind')}: ${t(kind === 'CUSTOMER' ? 'kindCUSTOMER' : 'kindCOMPANY')}</li>`,
    postcodes && html`<li>${t('routingPostcodes')}: ${postcodes.join(', ')}</li>`,
    language && html`<li>${t('field_language')}: ${language.join(', ')}</li>`,
  ].filter((item) => item !== undefined);
  return items.length === 0 ? html`${t('routingAnyLead')}` : html`<ul class="parts">${items}</ul>`;
}

function assignment(context: PageContext, users: Users, rule: Rule): string {
  const { user, round_robin } = rule.assign;
  if (user !== undefined) return userName(context, users, user);
  const names = (round_robin ?? []).map((id) => userName(context, users, id)).join(', ');
  return context.t('routingRoundRobin', { users: names });
}

export function renderRouting(context: PageContext, data: { rules: readonly Rule[]; users: Users }): string {
  const { t } = context;
  const table = html`<table>
<caption>${t('routingCaption')}</caption>
<thead><tr><th scope="col">${t('routingRule')}</th><th scope="col">${t('routingWhen')}</th><th scope="col">${t('routingAssigns')}</th></tr></thead>
<tbody>${data.rules.map(
    (rule, i) =>
      html`<tr><th scope="row">${i + 1}</th><td>${conditions(context, rule)}</td><td>${assignment(context, data.users, rule)}</td></tr>`,
  )}</tbody>
</table>`;
  return renderPage(context, {
    title: t('routingTitle'),
    routingCurrent: true,
    body: html`<p>${t('routingIntro')}</p>
${data.rules.length === 0 ? html`<p role="status">${t('routingNone')}</p>` : table}`,
  });
}
