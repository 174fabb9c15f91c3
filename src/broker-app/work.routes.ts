// The broker's work on a lead from its page (docs/design.md section 13): the work form
// (status, lost reason, assignee) and the note form. Both are POSTs carrying the session's
// CSRF token; the work form also carries the ETag the page was shown with, so a change
// made meanwhile by someone else is not overwritten unseen (the API's If-Match). A refusal
// shows the page again with what was typed and a message per field; success goes back to
// the page (303), which says it saved.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { PAGE_HEADERS } from './pages/layout.ts';
import { type LeadServices, leadOfParty, leadPage } from './lead-data.ts';
import { pageContext } from './pages/page-context.ts';
import { id } from './path-ids.ts';
import { renderNotice } from './pages/notice.page.ts';
import { renderParty } from './pages/party.page.ts';
import type { WorkForm } from './pages/work-forms.ts';
import { isValidCsrf } from './sign-in/session.ts';
import type { FormBody } from '../http/form-body.ts';
import type { Status } from './inbox-filter.ts';

type FormRoute = { Params: { partyId: string }; Body: FormBody };

export const workRoutes: FastifyPluginAsync<{ services: LeadServices }> = async (app, { services }) => {
  const context = (request: FastifyRequest) => pageContext(request, request.appSession);

  /** The CSRF check of every form: a 403 page when it fails. */
  const refusedForm = (request: FastifyRequest<FormRoute>, reply: FastifyReply, partyId: string) => {
    if (isValidCsrf(request.appSession!, request.body?.csrf)) return false;
    reply
      .status(403)
      .headers(PAGE_HEADERS)
      .send(
        renderNotice(context(request), 'forbiddenTitle', 'formExpired', {
          href: `/app/parties/${partyId}`,
          label: 'backToLead',
        }),
      );
    return true;
  };

  /** The page again with the form as typed and the refusal's messages. */
  const showRefusal = async (
    request: FastifyRequest<FormRoute>,
    reply: FastifyReply,
    partyId: string,
    form: WorkForm,
  ) => {
    const user = request.appSession!.user;
    const data = await leadPage(services, user.distribution_id, partyId);
    return reply
      .status(form.status)
      .headers(PAGE_HEADERS)
      .send(renderParty(context(request), data, { form }));
  };

  app.post<FormRoute>('/parties/:partyId/work', async (request, reply) => {
    const partyId = id(request.params.partyId, 'party_id');
    if (refusedForm(request, reply, partyId)) return reply;
    const user = request.appSession!.user;
    const body = request.body ?? {};
    const status = (body.status ?? '') as Status;
    const typed = {
      status,
      lost_reason: body.lost_reason ?? '',
      assignee: body.assignee ?? '',
      follow_up_on: (body.follow_up_on ?? '').trim(),
    };
    const lead = await leadOfParty(services, user.distribution_id, partyId);
    try {
      await services.leadWork.patch({
        distributionId: user.distribution_id,
        leadId: lead.id,
        patch: {
          status,
          // The reason belongs to `lost`: with another status the box is left out, as its hint says.
          lost_reason: status === 'lost' && typed.lost_reason.trim() !== '' ? typed.lost_reason.trim() : null,
          assignee: typed.assignee === '' ? null : typed.assignee,
          // Left out when the form has no such field (a page shown before it had one): kept as is.
          ...(body.follow_up_on !== undefined && {
            follow_up_on: typed.follow_up_on === '' ? null : typed.follow_up_on,
          }),
        },
        ifMatch: body.etag || undefined,
        caller: `user:${user.id}`,
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return showRefusal(request, reply, partyId, {
        kind: 'work',
        status: error.status === 412 ? 409 : error.status,
        targets: error.status === 412 ? ['etag'] : error.problems.map((problem) => problem.target),
        values: typed,
      });
    }
    return reply.redirect(`/app/parties/${partyId}?saved=work#work`, 303);
  });

  app.post<FormRoute>('/parties/:partyId/notes', async (request, reply) => {
    const partyId = id(request.params.partyId, 'party_id');
    if (refusedForm(request, reply, partyId)) return reply;
    const user = request.appSession!.user;
    const text = request.body?.body ?? '';
    try {
      await services.leadWork.addNote({ distributionId: user.distribution_id, partyId, authorId: user.id, body: text });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 422) throw error;
      return showRefusal(request, reply, partyId, {
        kind: 'note',
        status: 422,
        targets: error.problems.map((problem) => `note_${problem.code}`),
        values: { body: text },
      });
    }
    return reply.redirect(`/app/parties/${partyId}?saved=note#notes`, 303);
  });
};
