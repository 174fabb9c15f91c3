// Where leads come from (docs/design.md section 13; docs/api.md, "Where leads come from"):
//   GET /distributions/{did}/stats/sources?from=&to=[&format=csv]   leads:read
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { requireScope } from '../../auth/authorize.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';
import { sourceStatsCsv } from './source-stats-csv.ts';
import { SourceStatsQuery, SourceStatsResponse } from './source-stats.schema.ts';
import type { SourceStatsReader } from './source-stats.service.ts';

const security: Array<Record<string, string[]>> = [{ apikey: [] }, { bearer: [] }];

export const sourceStatsRoutes: FastifyPluginAsync<{ sourceStats: SourceStatsReader }> = async (
  fastify,
  { sourceStats },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/distributions/:distribution_id/stats/sources',
    {
      schema: {
        operationId: 'getSourceStats',
        summary: 'Where leads come from, and what became of them',
        tags: ['leads'],
        security,
        description:
          'For a period of days in Brussels time (both included, at most 366), per origin and per sender (API token or SSO client): ' +
          'pushes received, created and merged; of the leads created then, how many are contacted, quoted, won and ' +
          'lost now; the win rate (won of created) and the median hours to the first status change; and per week the ' +
          'pushes received and the leads created then that are won now. `format=csv` gives the origins and senders ' +
          'as CSV.',
        params: Type.Object({ distribution_id: Type.String() }),
        querystring: SourceStatsQuery,
        response: { 200: SourceStatsResponse, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody },
      },
      onRequest: requireScope('leads:read'),
    },
    async (request, reply) => {
      const { from, to, format } = request.query;
      const stats = await sourceStats.read(request.params.distribution_id, from, to);
      if (format !== 'csv') return reply.send(stats);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="sources-${from}-${to}.csv"`)
        .serializer((payload: unknown) => payload as string)
        .send(sourceStatsCsv(stats) as never);
    },
  );
};
