// Merging two parties (docs/api.md, "Merging two parties"):
//   POST /distributions/{did}/parties/{party_id}/merge   {"from": "<party id>"}   parties:update
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { requireScope } from '../../auth/authorize.ts';
import { describeCaller } from '../../auth/caller.ts';
import { canonicalId } from '../../db/ids.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';
import { PartyResponse } from '../model/party.schema.ts';
import type { PartyMergeService } from './party-merge.service.ts';

export interface PartyMergeRoutesOptions {
  readonly partyMerge: PartyMergeService;
}

export const PartyMergeRequest = Type.Object(
  {
    from: Type.String({
      format: 'uuid',
      description: 'The party merged into this one: it and its lead are gone afterwards (410 `Merged`).',
    }),
  },
  { additionalProperties: false, title: 'PartyMergeRequest' },
);

const security: Array<Record<string, string[]>> = [{ apikey: [] }, { bearer: [] }];

export const partyMergeRoutes: FastifyPluginAsync<PartyMergeRoutesOptions> = async (fastify, { partyMerge }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/distributions/:distribution_id/parties/:party_id/merge',
    {
      schema: {
        operationId: 'mergeParties',
        summary: 'Merge another party into this one',
        tags: ['parties'],
        security,
        description:
          'Joins the party `from` into this one in one transaction: external refs, callbacks, risk objects (one car ' +
          'per VIN and one home per address, revisions kept), packages (one per insurance company and package ' +
          'number, the two joined, the other’s id still naming it), policies (one per insurance company and ' +
          'number, the two joined), coverages, push log, notes and history. This party’s field ' +
          'values win; the other’s fill the fields it lacks. Both must be of one kind (else 422). Refused (409) when ' +
          'the filled fields would give this party the e-mail, birth date and address of a third party: merge that ' +
          'one too. Afterwards the merged party and ' +
          'its lead answer 410 `Merged` with `merged_into`, a push carrying its ref or id updates this party, and both ' +
          'parties’ callbacks get `party.merged`. Send `If-Match` with this party’s ETag to refuse the merge (412) when ' +
          'it changed since you read it. Answers this party as `GET` does.',
        params: Type.Object({ distribution_id: Type.String(), party_id: Type.String() }),
        headers: Type.Object({ 'if-match': Type.Optional(Type.String()) }),
        body: PartyMergeRequest,
        response: {
          200: PartyResponse,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          410: ErrorBody,
          412: ErrorBody,
          415: ErrorBody,
          422: ErrorBody,
        },
      },
      onRequest: requireScope('parties:update'),
    },
    async (request, reply) => {
      const result = await partyMerge.merge({
        distributionId: request.params.distribution_id,
        partyId: request.params.party_id,
        from: canonicalId(request.body.from),
        ifMatch: request.headers['if-match'],
        caller: describeCaller(request.caller!),
      });
      return reply.header('etag', result.etag).send(result.party);
    },
  );
};
