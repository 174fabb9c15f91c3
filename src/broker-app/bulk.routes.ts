// The inbox's bulk change (docs/design.md section 13): the leads ticked on the inbox page
// assigned to someone (or to nobody) and/or moved to a status, each lead in a transaction of
// its own through the same use case as the lead page and the API's PATCH (its change log, its
// webhook), so one lead erased or moved meanwhile refuses only itself. The inbox comes back
// with its filters and a summary of what was done and refused.
import type { FastifyPluginAsync } from 'fastify';
import { ApiError, ValidationError } from '../errors.ts';
import type { FormBody } from '../http/form-body.ts';
import { LEAD_STATUSES } from '../party/index.ts';
import { bulkSearchParam } from './bulk-params.ts';
import { inboxSearchParams, parseInboxParams, type Status } from './inbox-filter.ts';
import { assignableUsers, type LeadServices } from './lead-data.ts';
import { PAGE_HEADERS } from './pages/layout.ts';
import { renderNotice } from './pages/notice.page.ts';
import { pageContext } from './pages/page-context.ts';
import { isValidCsrf } from './sign-in/session.ts';

/** A page shows 25 leads; more ticked than this is not a form of ours. */
export const MAX_BULK_LEADS = 100;
const LEAD_FIELD = /^lead:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export const bulkRoutes: FastifyPluginAsync<{ services: LeadServices }> = async (app, { services }) => {
  app.post<{ Body: FormBody }>('/bulk', async (request, reply) => {
    const session = request.appSession!;
    if (!isValidCsrf(session, request.body?.csrf))
      return reply
        .status(403)
        .headers(PAGE_HEADERS)
        .send(
          renderNotice(pageContext(request, session), 'forbiddenTitle', 'formExpired', {
            href: '/app',
            label: 'inbox',
          }),
        );
    const body = request.body ?? {};
    const { distribution_id: distributionId, id: userId } = session.user;
    // The inbox as it was, its filters checked as the inbox checks them (no open redirect).
    const back = inboxSearchParams(parseInboxParams(Object.fromEntries(new URLSearchParams(body.back ?? ''))));
    const leadIds = Object.keys(body).flatMap((key) => LEAD_FIELD.exec(key.toLowerCase())?.[1] ?? []);
    const patch = await bulkPatch(services, distributionId, body);
    if (leadIds.length > MAX_BULK_LEADS) throw new ValidationError([{ target: 'lead', code: 'invalid' }]);
    let result: { done: number; refused: number } | 'nothing' = 'nothing';
    if (leadIds.length > 0 && Object.keys(patch).length > 0) {
      result = { done: 0, refused: 0 };
      for (const leadId of leadIds) {
        try {
          await services.leadWork.patch({
            distributionId,
            leadId,
            patch,
            ifMatch: undefined,
            caller: `user:${userId}`,
          });
          result.done += 1;
        } catch (error) {
          if (!(error instanceof ApiError) || error.status >= 500) throw error;
          result.refused += 1;
        }
      }
    }
    back.set('bulk', bulkSearchParam(result));
    return reply.redirect(`/app?${back}`, 303);
  });
};

/** The change the form asks for: a status of the five, an active user or nobody; 422 otherwise. */
async function bulkPatch(services: LeadServices, distributionId: string, body: FormBody) {
  const status = body.status ?? '';
  const assignee = (body.assignee ?? '').toLowerCase();
  if (status !== '' && !(LEAD_STATUSES as readonly string[]).includes(status))
    throw new ValidationError([{ target: 'status', code: 'invalid' }]);
  if (
    assignee !== '' &&
    assignee !== 'none' &&
    !(await assignableUsers(services, distributionId)).some((user) => user.id === assignee)
  )
    throw new ValidationError([{ target: 'assignee', code: 'invalid' }]);
  return {
    ...(status !== '' && { status: status as Status }),
    ...(assignee !== '' && { assignee: assignee === 'none' ? null : assignee }),
  };
}
