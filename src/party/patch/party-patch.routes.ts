// Updating a party (docs/api.md, "Reading and updating"):
//   PATCH /distributions/{did}/parties/{party_id}                               parties:update
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { requireScope } from '../../auth/authorize.ts';
import { describeCaller } from '../../auth/caller.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';
import type { AjvCompilers } from '../../http/validation.ts';
import { PartyPatch, PartyResponse } from '../model/party.schema.ts';
import type { PartyPatchService, PatchResult } from './party-patch.service.ts';
import { JSON_CONTENT_TYPE, keepAnswerInWrite } from '../../idempotency/idempotent-write.ts';

export interface PartyPatchRoutesOptions {
  readonly partyPatch: PartyPatchService;
  readonly validation: AjvCompilers;
}

/** What the PATCH route itself demands of its body; the patched party is checked after. */
const AnyPatch = Type.Object({}, { additionalProperties: true, title: 'PartyPatch' });

const security: Array<Record<string, string[]>> = [{ apikey: [] }, { bearer: [] }];
const PartyParams = Type.Object({ distribution_id: Type.String(), party_id: Type.String() });
// 410: the person was erased (docs/design.md section 15).
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody };

export const partyPatchRoutes: FastifyPluginAsync<PartyPatchRoutesOptions> = async (
  fastify,
  { partyPatch, validation },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.patch(
    '/distributions/:distribution_id/parties/:party_id',
    {
      schema: {
        operationId: 'updateParty',
        summary: 'Update a prospect and its risk objects',
        tags: ['parties'],
        security,
        description:
          'JSON Merge Patch (RFC 7396), validated like a push. Send `If-Match` with the ETag of your last read to ' +
          'guard against lost updates: 412 when the party changed since.',
        params: PartyParams,
        headers: Type.Object({ 'if-match': Type.Optional(Type.String()) }),
        body: PartyPatch,
        response: { 200: PartyResponse, ...errors, 409: ErrorBody, 412: ErrorBody, 415: ErrorBody, 422: ErrorBody },
      },
      onRequest: requireScope('parties:update'),
      // An Idempotency-Key's answer is kept by the patch's own transaction (below).
      config: { idempotencyInWrite: true },
      // The patch is checked as the party it produces, which reports every problem of the
      // patch at once (docs/api.md, "Reading and updating"): here the body need only be an
      // object, with what the body parser checks of any body (storable text, depth).
      // PartyPatch, derived from the party's schemas, describes its members to clients.
      validatorCompiler: ({ schema, httpPart, ...rest }) =>
        validation.validatorCompiler({ ...rest, httpPart, schema: httpPart === 'body' ? AnyPatch : schema } as never),
    },
    async (request, reply) => {
      // With an Idempotency-Key, the answer is serialised in the patch's transaction and kept
      // with it (docs/api.md, "Retrying safely"), then sent as those very bytes.
      const idempotent = keepAnswerInWrite(request, reply as FastifyReply, (result: PatchResult) => ({
        status: 200,
        headers: { 'content-type': JSON_CONTENT_TYPE, etag: result.etag },
        body: reply.code(200).serialize(result.party) as string,
        partyIds: [result.lead.party_id],
      }));
      const result = await partyPatch.patch({
        distributionId: request.params.distribution_id,
        partyId: request.params.party_id,
        patch: request.body,
        ifMatch: request.headers['if-match'],
        caller: describeCaller(request.caller!),
        ...(idempotent && { keptAnswer: idempotent.inWrite }),
      });
      return idempotent?.send() ?? reply.header('etag', result.etag).send(result.party);
    },
  );
};
