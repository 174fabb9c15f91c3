// Possible duplicates (docs/api.md, "Possible duplicates"), with `parties:read`:
//   GET /distributions/{did}/parties/{party_id}/duplicates
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { requireScope } from '../../auth/authorize.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';
import type { DuplicatesReader } from './duplicates-read.service.ts';
import { PossibleDuplicateList } from './duplicates.schema.ts';

export interface DuplicatesRoutesOptions {
  readonly duplicates: DuplicatesReader;
}

const security: Array<Record<string, string[]>> = [{ apikey: [] }, { bearer: [] }];

export const duplicatesRoutes: FastifyPluginAsync<DuplicatesRoutesOptions> = async (fastify, { duplicates }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/distributions/:distribution_id/parties/:party_id/duplicates',
    {
      schema: {
        operationId: 'listPossibleDuplicates',
        summary: 'Possible duplicates of a party',
        tags: ['parties'],
        security,
        description:
          'Other parties of the distribution that share a strong signal with this one: the same e-mail (in any case), ' +
          'the same telephone number (compared in E.164, a number without country code read as Belgian), the same ' +
          'VIN, the same enterprise number, or the same birth date with a close name. Strongest first, at most ' +
          '50. Matching never joins them by itself: `POST …/merge` does, when a broker decides they are one.',
        params: Type.Object({ distribution_id: Type.String(), party_id: Type.String() }),
        response: {
          200: PossibleDuplicateList,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          410: ErrorBody,
        },
      },
      onRequest: requireScope('parties:read'),
    },
    async (request) => ({
      items: (await duplicates.list(request.params.distribution_id, request.params.party_id)).map(
        ({ name: _name, ...item }) => item,
      ),
    }),
  );
};
