// Pages that only say something: not found, not allowed, signed out, sign-in failed.
import { ownHref } from '../../html/href.ts';
import { html } from '../../html/html.ts';
import { type PageContext, renderPage } from './layout.ts';
import type { TextKey } from '../texts/index.ts';

export function renderNotice(
  context: PageContext,
  title: TextKey,
  message: TextKey,
  link?: { href: string; label: TextKey },
  values?: Readonly<Record<string, string | number>>,
): string {
  const { t } = context;
  return renderPage(context, {
    title: t(title),
    body: html`<p role="status">${t(message, values)}</p>${link ? html`<p><a href="${ownHref(link.href)}">${t(link.label)}</a></p>` : ''}`,
  });
}
