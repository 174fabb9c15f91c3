// Merging two parties from the lead page (docs/api.md, "Merging two parties"): a possible
// duplicate's "Merge into this lead" opens a confirmation page, whose form (the session's CSRF
// token) merges through the API's service; the survivor's history names the signed-in user.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FormBody } from '../http/form-body.ts';
import { type LeadServices, leadOfParty } from './lead-data.ts';
import { PAGE_HEADERS } from './pages/layout.ts';
import { renderMergeConfirmation } from './pages/merge.page.ts';
import { renderNotice } from './pages/notice.page.ts';
import { pageContext } from './pages/page-context.ts';
import { id } from './path-ids.ts';
import { isValidCsrf } from './sign-in/session.ts';

type PartyRoute = { Params: { partyId: string } };

export const mergeRoutes: FastifyPluginAsync<{ services: LeadServices }> = async (app, { services }) => {
  const context = (request: FastifyRequest) => pageContext(request, request.appSession);

  app.get<PartyRoute & { Querystring: { from?: string } }>('/parties/:partyId/merge', async (request, reply) => {
    const did = request.appSession!.user.distribution_id;
    const survivor = await leadOfParty(services, did, id(request.params.partyId, 'party_id'));
    const merged = await leadOfParty(services, did, id(String(request.query.from ?? ''), 'from'));
    return reply.headers(PAGE_HEADERS).send(renderMergeConfirmation(context(request), survivor, merged));
  });

  app.post<PartyRoute & { Body: FormBody }>('/parties/:partyId/merge', async (request, reply) => {
    const partyId = id(request.params.partyId, 'party_id');
    if (!isValidCsrf(request.appSession!, request.body?.csrf)) {
      return reply
        .status(403)
        .headers(PAGE_HEADERS)
        .send(
          renderNotice(context(request), 'forbiddenTitle', 'formExpired', {
            href: `/app/parties/${partyId}`,
            label: 'backToLead',
          }),
        );
    }
    const user = request.appSession!.user;
    await services.partyMerge.merge({
      distributionId: user.distribution_id,
      partyId,
      from: id(String(request.body?.from ?? ''), 'from'),
      ifMatch: undefined,
      caller: `user:${user.id}`,
    });
    return reply.redirect(`/app/parties/${partyId}`, 303);
  });
};
