// The broker's work on a lead (docs/design.md section 13; docs/api.md, "Reading and updating"):
//   PATCH /distributions/{did}/leads/{lead_id}   parties:update
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import Type from 'typebox';
import { requireScope } from '../../auth/authorize.ts';
import { describeCaller } from '../../auth/caller.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';
import { LeadResponse } from '../model/lead.response.ts';
import { LeadPatch } from './lead-patch.schema.ts';
import type { LeadPatchResult, LeadWorkService } from './lead-work.service.ts';
import { JSON_CONTENT_TYPE, keepAnswerInWrite } from '../../idempotency/idempotent-write.ts';

export interface LeadWorkRoutesOptions {
  readonly leadWork: LeadWorkService;
}

const security: Array<Record<string, string[]>> = [{ apikey: [] }, { bearer: [] }];

export const leadWorkRoutes: FastifyPluginAsync<LeadWorkRoutesOptions> = async (fastify, { leadWork }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.patch(
    '/distributions/:distribution_id/leads/:lead_id',
    {
      schema: {
        operationId: 'updateLead',
        summary: "Set a lead's status, lost reason or assignee",
        tags: ['leads'],
        security,
        description:
          'JSON Merge Patch (RFC 7396) of `status` (new, contacted, quoted, won, lost), `lost_reason` (only with ' +
          '`lost`; moving away from `lost` clears it) and `assignee` (the user id of an active user of the ' +
          'distribution, or null). A change moves the lead in the change listing; a new status or lost reason ' +
          "sends `lead.status_changed` to the lead's callbacks. Send `If-Match` with the ETag of your last read: " +
          '412 when the lead changed since. Pushes never change these fields.',
        params: Type.Object({ distribution_id: Type.String(), lead_id: Type.String() }),
        headers: Type.Object({ 'if-match': Type.Optional(Type.String()) }),
        body: LeadPatch,
        response: {
          200: LeadResponse,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          410: ErrorBody,
          412: ErrorBody,
          415: ErrorBody,
          422: ErrorBody,
        },
      },
      onRequest: requireScope('parties:update'),
      // An Idempotency-Key's answer is kept by the patch's own transaction (below).
      config: { idempotencyInWrite: true },
    },
    async (request, reply) => {
      // With an Idempotency-Key, the answer is serialised in the patch's transaction and kept
      // with it (docs/api.md, "Retrying safely"), then sent as those very bytes.
      const idempotent = keepAnswerInWrite(request, reply as FastifyReply, (result: LeadPatchResult) => ({
        status: 200,
        headers: { 'content-type': JSON_CONTENT_TYPE, etag: result.etag },
        body: reply.code(200).serialize(result.lead) as string,
        partyIds: [result.lead.party_id],
      }));
      const result = await leadWork.patch({
        distributionId: request.params.distribution_id,
        leadId: request.params.lead_id,
        patch: request.body,
        ifMatch: request.headers['if-match'],
        caller: describeCaller(request.caller!),
        ...(idempotent && { keptAnswer: idempotent.inWrite }),
      });
      return idempotent?.send() ?? reply.header('etag', result.etag).send(result.lead);
    },
  );
};
