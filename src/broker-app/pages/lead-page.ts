// What every page of one lead shares (docs/design.md section 7): its heading, the prospect's
// name; its tabs (the lead, the timeline, the risk scan, the advisory); and its risk
// objects, each named by what identifies it.
import { ownHref } from '../../html/href.ts';
import { type Html, html } from '../../html/html.ts';
import { displayName, formatValue } from './field-values.ts';
import type { Lead } from '../lead-data.ts';
import { type PageContext, renderPage } from './layout.ts';

export type LeadTab = 'party' | 'timeline' | 'risk-scan' | 'advisory';

const TAB_PATHS: Record<LeadTab, string> = {
  party: '/app/parties/',
  // The path is the specification's (href_to_proflow); the page shows the lead's timeline.
  timeline: '/app/proflow/parties/',
  'risk-scan': '/app/risk-scan/parties/',
  advisory: '/app/advisory/parties/',
};
const TAB_LABELS = {
  party: 'tabParty',
  timeline: 'tabTimeline',
  'risk-scan': 'tabRiskScan',
  advisory: 'tabAdvisory',
} as const;

function leadTabs(context: PageContext, partyId: string, current: LeadTab): Html {
  const tabs = (Object.keys(TAB_PATHS) as LeadTab[]).map(
    (tab) =>
      html`<li><a href="${ownHref(`${TAB_PATHS[tab]}${partyId}`)}"${current === tab ? html` aria-current="page"` : ''}>${context.t(TAB_LABELS[tab])}</a></li>`,
  );
  return html`<nav class="tabs" aria-label="${context.t('leadSections')}"><ul>${tabs}</ul></nav>`;
}

export type RiskObject =
  | Lead['risk_object_revisions']['cars'][number]
  | Lead['risk_object_revisions']['residences'][number];

/** The fields of a risk object revision that are its data, not its identity. */
export function objectData(object: RiskObject): Record<string, unknown> {
  const {
    self: _self,
    risk_object_id: _id,
    risk_object_revision_id: _revision,
    risk_object_type: _type,
    revision_nr: _nr,
    created_at: _at,
    ...data
  } = object;
  return data;
}

export function riskObjects(lead: Lead): RiskObject[] {
  return [...lead.risk_object_revisions.cars, ...lead.risk_object_revisions.residences];
}

export function objectTitle(context: PageContext, object: RiskObject): string {
  const data = objectData(object) as Record<string, unknown>;
  const detail =
    object.risk_object_type === 'CAR'
      ? [data.brand, data.model, data.license_plate ?? data.vin].filter((part) => typeof part === 'string').join(' ')
      : formatValue(context, 'address', data.address);
  return `${context.t(object.risk_object_type)}${detail ? `: ${detail}` : ''}`;
}

/** The page heading of every lead page: the prospect's name. */
export function leadTitle(context: PageContext, lead: Lead): string {
  return displayName(lead.prospect.type, lead.prospect as Record<string, unknown>) || context.t('notGiven');
}

export function renderLeadPage(context: PageContext, lead: Lead, tab: LeadTab, body: Html, heading?: string): string {
  return renderPage(context, {
    title: heading ?? leadTitle(context, lead),
    body: html`${leadTabs(context, lead.party_id, tab)}${body}`,
  });
}
