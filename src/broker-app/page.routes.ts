// The broker app's pages (docs/design.md section 7), each behind the session guard
// (sign-in/session-guard.ts), and the timeline's "send again". Ids that are not ids, and
// ids of another distribution, are 404 like ids that name nothing: the services say so.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { brusselsDay } from '../brussels-days.ts';
import { NotFoundError } from '../errors.ts';
import { decodeCursor, encodeCursor } from '../http/pagination.ts';
import type { FormBody } from '../http/form-body.ts';
import { PAGE_HEADERS } from './pages/layout.ts';
import { id } from './path-ids.ts';
import { bulkSummary, placeOf } from './bulk-params.ts';
import { inboxFilter, inboxSearchParams, parseInboxParams, queryText } from './inbox-filter.ts';
import {
  assignableUsers,
  inbox,
  inboxCount,
  type LeadServices,
  leadOfParty,
  leadPage,
  rawPush,
  replayDelivery,
  routingRules,
  statusCounts,
  timeline,
  userNames,
} from './lead-data.ts';
import { pageContext } from './pages/page-context.ts';
import { renderAdvisory } from './pages/advisory.page.ts';
import { renderInbox } from './pages/inbox.page.ts';
import { renderNotice } from './pages/notice.page.ts';
import { renderParty } from './pages/party.page.ts';
import { renderTimeline, renderRawPush } from './pages/timeline.page.ts';
import { renderRiskScan } from './pages/risk-scan.page.ts';
import { renderRouting } from './pages/routing.page.ts';
import { isValidCsrf } from './sign-in/session.ts';

export const INBOX_PAGE_SIZE = 25;

type PartyParams = { Params: { partyId: string } };

export const pageRoutes: FastifyPluginAsync<{ services: LeadServices }> = async (app, { services }) => {
  const session = (request: FastifyRequest) => request.appSession!;
  const did = (request: FastifyRequest) => session(request).user.distribution_id;
  const context = (request: FastifyRequest) => pageContext(request, session(request));
  const send = (reply: FastifyReply, body: string) => reply.headers(PAGE_HEADERS).send(body);

  app.get('/', async (request, reply) => {
    const params = parseInboxParams(request.query);
    const before = decodeCursor(queryText(request.query, 'cursor', 500));
    // Where the page starts in the filtered list, carried by the "older" link (keyset paging
    // does not know it); only what the count says, never what the page holds.
    const place = placeOf(queryText(request.query, 'start', 10));
    const start = before === undefined ? 1 : place;
    const user = session(request).user;
    const filter = inboxFilter(params, did(request), user.id, brusselsDay(services.clock.now()));
    const [page, counts, users, assignable, total] = await Promise.all([
      inbox(services, {
        ...filter,
        sort: params.sort,
        direction: params.direction,
        ...(before && { before }),
        limit: INBOX_PAGE_SIZE,
      }),
      statusCounts(services, did(request)),
      userNames(services, did(request)),
      assignableUsers(services, did(request)),
      inboxCount(services, filter),
    ]);
    const next = inboxSearchParams(params);
    if (page.next) {
      next.set('cursor', encodeCursor(page.next));
      next.set('start', String(start + page.items.length));
    }
    return send(
      reply,
      renderInbox(context(request), page, {
        params,
        counts,
        users,
        assignable,
        total,
        start,
        nextHref: page.next ? `/app?${next}` : undefined,
        isFirstPage: before === undefined,
        ...bulkSummary(request.query),
      }),
    );
  });

  app.get('/routing', async (request, reply) =>
    send(reply, renderRouting(context(request), await routingRules(services, did(request)))),
  );

  app.get<PartyParams>('/parties/:partyId', async (request, reply) => {
    const data = await leadPage(services, did(request), id(request.params.partyId, 'party_id'));
    const saved = queryText(request.query, 'saved', 10);
    return send(
      reply,
      renderParty(context(request), data, { saved: saved === 'work' || saved === 'note' ? saved : undefined }),
    );
  });

  app.get<PartyParams>('/proflow/parties/:partyId', async (request, reply) => {
    const data = await timeline(services, did(request), id(request.params.partyId, 'party_id'));
    return send(
      reply,
      renderTimeline(context(request), data, { replayed: queryText(request.query, 'replayed', 10) === '1' }),
    );
  });

  app.get<{ Params: { partyId: string; pushId: string } }>(
    '/proflow/parties/:partyId/pushes/:pushId',
    async (request, reply) => {
      const { lead, push } = await rawPush(
        services,
        did(request),
        id(request.params.partyId, 'party_id'),
        id(request.params.pushId, 'push_id'),
      );
      return send(reply, renderRawPush(context(request), lead, push));
    },
  );

  app.post<{ Params: { partyId: string; deliveryId: string }; Body: FormBody }>(
    '/proflow/parties/:partyId/deliveries/:deliveryId/replay',
    async (request, reply) => {
      const partyId = id(request.params.partyId, 'party_id');
      if (!isValidCsrf(session(request), request.body?.csrf)) {
        return send(
          reply.status(403),
          renderNotice(context(request), 'forbiddenTitle', 'formExpired', {
            href: `/app/proflow/parties/${partyId}`,
            label: 'backToTimeline',
          }),
        );
      }
      // Only a failed delivery of this lead, in the user's own distribution, is sent again.
      if (!(await replayDelivery(services, did(request), partyId, id(request.params.deliveryId, 'delivery_id'))))
        throw new NotFoundError('delivery_id');
      return reply.redirect(`/app/proflow/parties/${partyId}?replayed=1`, 303);
    },
  );

  app.get<PartyParams>('/risk-scan/parties/:partyId', async (request, reply) => {
    const lead = await leadOfParty(services, did(request), id(request.params.partyId, 'party_id'));
    return send(reply, renderRiskScan(context(request), lead));
  });

  app.get<PartyParams>('/advisory/parties/:partyId', async (request, reply) => {
    const lead = await leadOfParty(services, did(request), id(request.params.partyId, 'party_id'));
    return send(reply, renderAdvisory(context(request), lead));
  });
};
