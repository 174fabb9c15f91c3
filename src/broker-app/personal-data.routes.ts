// A person's data from the lead's page (docs/design.md section 15; docs/personal-data.md,
// "Personal data"): "Download data" (the API's export, as an attachment) and "Erase",
// behind a confirmation page whose form carries the session's CSRF token. Both are in the
// audit log under the signed-in user.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { PAGE_HEADERS } from './pages/layout.ts';
import { type LeadServices, leadOfParty } from './lead-data.ts';
import { pageContext } from './pages/page-context.ts';
import { id } from './path-ids.ts';
import { renderEraseConfirmation } from './pages/erase.page.ts';
import { renderNotice } from './pages/notice.page.ts';
import { isValidCsrf } from './sign-in/session.ts';
import type { FormBody } from '../http/form-body.ts';

type PartyRoute = { Params: { partyId: string } };

export const personalDataRoutes: FastifyPluginAsync<{ services: LeadServices }> = async (app, { services }) => {
  const context = (request: FastifyRequest) => pageContext(request, request.appSession);

  app.get<PartyRoute>('/parties/:partyId/export.json', async (request, reply) => {
    const partyId = id(request.params.partyId, 'party_id');
    const user = request.appSession!.user;
    const document = await services.partyExport.export({
      distributionId: user.distribution_id,
      partyId,
      actor: `user:${user.id}`,
    });
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="party-${partyId}.json"`)
      .header('cache-control', 'no-store')
      .send(JSON.stringify(document, null, 2));
  });

  app.get<PartyRoute>('/parties/:partyId/erase', async (request, reply) => {
    const user = request.appSession!.user;
    const lead = await leadOfParty(services, user.distribution_id, id(request.params.partyId, 'party_id'));
    return reply.headers(PAGE_HEADERS).send(renderEraseConfirmation(context(request), lead));
  });

  app.post<PartyRoute & { Body: FormBody }>('/parties/:partyId/erase', async (request, reply) => {
    const partyId = id(request.params.partyId, 'party_id');
    const back = { href: `/app/parties/${partyId}`, label: 'backToLead' } as const;
    if (!isValidCsrf(request.appSession!, request.body?.csrf)) {
      return reply
        .status(403)
        .headers(PAGE_HEADERS)
        .send(renderNotice(context(request), 'forbiddenTitle', 'formExpired', back));
    }
    const user = request.appSession!.user;
    const receipt = await services.erasure.erase({
      distributionId: user.distribution_id,
      partyId,
      actor: `user:${user.id}`,
    });
    const rows = Object.values(receipt.counts).reduce((sum, n) => sum + n, 0);
    return reply
      .headers(PAGE_HEADERS)
      .send(renderNotice(context(request), 'erasedTitle', 'erasedDone', { href: '/app', label: 'inbox' }, { rows }));
  });
};
