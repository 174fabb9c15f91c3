// Parties (docs/api.md, "Reading and updating"):
//   GET   /distributions/{did}/parties/{party_id}                               parties:read
//   GET   /distributions/{did}/parties/{party_id}/risk_objects/{id}/revisions    parties:read
//   GET   /distributions/{did}/parties/{party_id}/risk_objects/{id}/revisions/{revision_id}
//   PATCH /distributions/{did}/parties/{party_id}                               parties:update
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { requireScope } from '../../auth/authorize.ts';
import { describeCaller } from '../../auth/caller.ts';
import { NotFoundError } from '../../errors.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';
import type { AjvCompilers } from '../../http/validation.ts';
import type { PartyPatchService } from '../party-patch.service.ts';
import type { PartyReader } from '../party-read.service.ts';
import { PartyPatch, PartyResponse, RevisionOut } from '../party.schema.ts';

export interface PartyRoutesOptions {
  readonly parties: PartyReader;
  readonly partyPatch: PartyPatchService;
  readonly validation: AjvCompilers;
}

/** What the PATCH route itself demands of its body; the patched party is checked after. */
const AnyPatch = Type.Object({}, { additionalProperties: true, title: 'PartyPatch' });

const security: Array<Record<string, string[]>> = [{ apikey: [] }, { bearer: [] }];
const PartyParams = Type.Object({ distribution_id: Type.String(), party_id: Type.String() });
const RevisionParams = Type.Object({
  distribution_id: Type.String(),
  party_id: Type.String(),
  risk_object_id: Type.String(),
});
// 410: the person was erased (docs/design.md section 15).
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody };

export const partyRoutes: FastifyPluginAsync<PartyRoutesOptions> = async (
  fastify,
  { parties, partyPatch, validation },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const read = requireScope('parties:read');

  app.get(
    '/distributions/:distribution_id/parties/:party_id',
    {
      schema: {
        operationId: 'getParty',
        summary: 'Read a party',
        tags: ['parties'],
        security,
        description:
          'The party with its current risk objects, policy packages, policies and coverages. Returns an ETag for If-Match.',
        params: PartyParams,
        response: { 200: PartyResponse, ...errors },
      },
      onRequest: read,
    },
    async (request, reply) => {
      const { party, etag } = await parties.get(request.params.distribution_id, request.params.party_id);
      return reply.header('etag', etag).send(party);
    },
  );

  app.get(
    '/distributions/:distribution_id/parties/:party_id/risk_objects/:risk_object_id/revisions',
    {
      schema: {
        operationId: 'listRiskObjectRevisions',
        summary: 'The revisions of a risk object',
        tags: ['parties'],
        security,
        description: 'Every revision, oldest first; `current` marks the one the party holds now.',
        params: RevisionParams,
        response: {
          200: Type.Object({ items: Type.Array(RevisionOut) }, { title: 'RiskObjectRevisionList' }),
          ...errors,
        },
      },
      onRequest: read,
    },
    async (request) => {
      const { distribution_id, party_id, risk_object_id } = request.params;
      return { items: await parties.revisions(distribution_id, party_id, risk_object_id) };
    },
  );

  app.get(
    '/distributions/:distribution_id/parties/:party_id/risk_objects/:risk_object_id/revisions/:revision_id',
    {
      schema: {
        operationId: 'getRiskObjectRevision',
        summary: 'One revision of a risk object',
        tags: ['parties'],
        security,
        description: 'The address in `self` of every risk object revision.',
        params: Type.Object({ ...RevisionParams.properties, revision_id: Type.String() }),
        response: { 200: RevisionOut, ...errors },
      },
      onRequest: read,
    },
    async (request) => {
      const { distribution_id, party_id, risk_object_id, revision_id } = request.params;
      const revision = (await parties.revisions(distribution_id, party_id, risk_object_id)).find(
        (r) => r.risk_object_revision_id === revision_id,
      );
      if (!revision) throw new NotFoundError('revision_id');
      return revision;
    },
  );

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
      // The patch is checked as the party it produces, which reports every problem of the
      // patch at once (docs/api.md, "Reading and updating"): here the body need only be an
      // object, with what the body parser checks of any body (storable text, depth).
      // PartyPatch, derived from the party's schemas, describes its members to clients.
      validatorCompiler: ({ schema, httpPart, ...rest }) =>
        validation.validatorCompiler({ ...rest, httpPart, schema: httpPart === 'body' ? AnyPatch : schema } as never),
    },
    async (request, reply) => {
      const result = await partyPatch.patch({
        distributionId: request.params.distribution_id,
        partyId: request.params.party_id,
        patch: request.body,
        ifMatch: request.headers['if-match'],
        caller: describeCaller(request.caller!),
      });
      return reply.header('etag', result.etag).send(result.party);
    },
  );
};
