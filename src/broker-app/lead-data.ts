// Everything the broker app reads or changes, through the services the API uses: the
// lead as the API represents it, the party's revision history, the push log, and webhook
// deliveries with their attempts. The one place the app touches the domain modules.
import { listApiTokens } from '../auth/api-token.service.ts';
import type { Clock } from '../clock.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type {
  InboxFilter,
  InboxReader,
  LeadHistoryReader,
  LeadResponse,
  PartyReader,
  PartyServices,
  PushLogReader,
} from '../party/index.ts';
import { showRoutingRules } from '../party/index.ts';
import { listClients, listUsers } from '../sso/index.ts';
import { listDeliveries, replayFailedDelivery } from '../webhooks/admin/delivery-admin.service.ts';

/** The party module's services (party/party.plugin.ts), and the database for the rest. */
export interface LeadServices extends PartyServices {
  readonly database: DatabaseHandle;
  /** What "today" is for the inbox's follow-up filters (tests move it). */
  readonly clock: Clock;
}

export type Lead = LeadResponse;
export type Revision = Awaited<ReturnType<PartyReader['revisions']>>[number];
export type InboxPage = Awaited<ReturnType<InboxReader['page']>>;
export type InboxItem = InboxPage['items'][number];
export type Delivery = Awaited<ReturnType<typeof listDeliveries>>[number];
export type Push = Awaited<ReturnType<PushLogReader['list']>>['items'][number];

/** The timeline shows this many pushes and deliveries; the rest stay in the API and CLI. */
export const TIMELINE_LIMIT = 200;

export function inbox(services: LeadServices, query: Parameters<InboxReader['page']>[0]): Promise<InboxPage> {
  return services.inbox.page(query);
}

/** How many leads the inbox's filter finds (counted up to a cap at large numbers). */
export function inboxCount(services: LeadServices, filter: InboxFilter) {
  return services.inbox.count(filter);
}

export function leadOfParty(services: LeadServices, distributionId: string, partyId: string): Promise<Lead> {
  return services.leads.getByParty(distributionId, partyId);
}

/** The lead and every risk object's revisions, oldest first. */
export async function partyWithHistory(services: LeadServices, distributionId: string, partyId: string) {
  const { lead, etag } = await services.leads.getByPartyWithEtag(distributionId, partyId);
  const objects = [...lead.risk_object_revisions.cars, ...lead.risk_object_revisions.residences];
  const histories = new Map<string, Revision[]>();
  for (const object of objects) {
    histories.set(
      object.risk_object_id,
      await services.parties.revisions(distributionId, partyId, object.risk_object_id),
    );
  }
  return { lead, histories, etag };
}

/** The lead's pushes and webhook deliveries, oldest first. */
export async function timeline(services: LeadServices, distributionId: string, partyId: string) {
  const lead = await leadOfParty(services, distributionId, partyId);
  const pushes: Push[] = [];
  let after: Parameters<PushLogReader['list']>[2];
  do {
    const page = await services.pushLog.list(distributionId, lead.id, after, 100);
    pushes.push(...page.items);
    after = page.next;
  } while (after && pushes.length < TIMELINE_LIMIT);
  const deliveries = await listDeliveries(services.database.db, {
    distributionId,
    leadId: lead.id,
    limit: TIMELINE_LIMIT,
  });
  const history = await services.history.of(distributionId, lead.id, TIMELINE_LIMIT);
  // Oldest first, like a timeline reads.
  return {
    lead,
    pushes,
    changes: history.changes,
    notes: history.notes,
    deliveries: deliveries.reverse(),
    callers: await callerNames(services, distributionId),
  };
}

/**
 * Who pushed, by name: the push log keeps `token:<id>` or `user:<id>` (describeCaller), and
 * a broker knows their tokens and colleagues by name. Only the distribution's own.
 */
export type CallerName = { readonly kind: 'token' | 'user' | 'client'; readonly name: string | null };

/** How the broker knows each sender of the sources page: tokens and users by name, SSO clients (partners' applications) by theirs. */
export async function senderNames(services: LeadServices, distributionId: string): Promise<Map<string, CallerName>> {
  const [names, clients] = await Promise.all([
    callerNames(services, distributionId),
    listClients(services.database.db),
  ]);
  for (const client of clients) names.set(`client:${client.client_id}`, { kind: 'client', name: client.name });
  return names;
}

async function callerNames(services: LeadServices, distributionId: string): Promise<Map<string, CallerName>> {
  const [tokens, users] = await Promise.all([
    listApiTokens(services.database.db, { distributionId }),
    listUsers(services.database.db, { distributionId }),
  ]);
  const names = new Map<string, CallerName>();
  for (const token of tokens) names.set(`token:${token.id}`, { kind: 'token', name: token.name });
  for (const user of users) names.set(`user:${user.id}`, { kind: 'user', name: user.username });
  return names;
}

export async function rawPush(services: LeadServices, distributionId: string, partyId: string, pushId: string) {
  const lead = await leadOfParty(services, distributionId, partyId);
  return { lead, push: await services.pushLog.get(distributionId, lead.id, pushId) };
}

export async function replayDelivery(
  services: LeadServices,
  distributionId: string,
  partyId: string,
  deliveryId: string,
): Promise<boolean> {
  const lead = await leadOfParty(services, distributionId, partyId);
  return replayFailedDelivery(services.database.db, { distributionId, leadId: lead.id, deliveryId });
}

/** The distribution's users by id, for names (assignees, note authors). */
export async function userNames(services: LeadServices, distributionId: string): Promise<Map<string, string>> {
  const users = await listUsers(services.database.db, { distributionId });
  return new Map(users.map((user) => [user.id, user.username]));
}

/** Who a lead may be assigned to: the distribution's active users, by name. */
export async function assignableUsers(services: LeadServices, distributionId: string) {
  const users = await listUsers(services.database.db, { distributionId });
  return users
    .filter((user) => user.disabled_at === null)
    .map((user) => ({ id: user.id, name: user.username }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function statusCounts(services: LeadServices, distributionId: string) {
  return services.inbox.countsByStatus(distributionId);
}

/** The party page: the lead, its revisions, its newest push (the sender), notes and who may work it. */
export async function leadPage(services: LeadServices, distributionId: string, partyId: string) {
  const { lead, histories, etag } = await partyWithHistory(services, distributionId, partyId);
  const [latestPush, history, users, names, duplicates] = await Promise.all([
    services.pushLog.latest(distributionId, lead.id),
    services.history.of(distributionId, lead.id, TIMELINE_LIMIT),
    assignableUsers(services, distributionId),
    userNames(services, distributionId),
    services.duplicates.list(distributionId, partyId),
  ]);
  return { lead, histories, latestPush, notes: history.notes, users, names, etag, duplicates };
}

export type LeadPageData = Awaited<ReturnType<typeof leadPage>>;
export type Note = LeadPageData['notes'][number];
export type Change = Awaited<ReturnType<LeadHistoryReader['of']>>['changes'][number];

/** The distribution's routing rules (read-only here: `lead-intake routing set` changes them) and who they name. */
export async function routingRules(services: LeadServices, distributionId: string) {
  const [rules, users] = await Promise.all([
    showRoutingRules(services.database.db, distributionId),
    listUsers(services.database.db, { distributionId }),
  ]);
  return {
    rules: rules.rules,
    users: new Map(
      users.map((user) => [user.id, { name: user.name ?? user.username, active: user.disabled_at === null }]),
    ),
  };
}
