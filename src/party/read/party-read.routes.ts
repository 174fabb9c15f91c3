// Reading parties (docs/api.md, "Reading and updating"), all with `parties:read`; the PATCH of
// a party is patch/party-patch.routes.ts:
//   GET   /distributions/{did}/parties/{party_id}
//   GET   /distributions/{did}/parties/{party_id}/risk_objects/{id}/revisions
//   GET   /distributions/{did}/parties/{party_id}/risk_objects/{id}/revisions/{revision_id}
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { requireScope } from '../../auth/authorize.ts';
import { NotFoundError } from '../../errors.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';
import type { PartyReader } from './party-read.service.ts';
import { PartyResponse, RevisionOut } from '../model/party.schema.ts';

export interface PartyReadRoutesOptions {
  readonly parties: PartyReader;
}

const security: Array<Record<string, string[]>> = [{ apikey: [] }, { bearer: [] }];
const PartyParams = Type.Object({ distribution_id: Type.String(), party_id: Type.String() });
const RevisionParams = Type.Object({
  distribution_id: Type.String(),
  party_id: Type.String(),
  risk_object_id: Type.String(),
});
// 410: the person was erased (docs/design.md section 15).
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody };

export const partyReadRoutes: FastifyPluginAsync<PartyReadRoutesOptions> = async (fastify, { parties }) => {
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
};
