// Where leads come from in the broker app (docs/design.md section 13): `/app/sources` for a
// period (the last twelve weeks until today unless asked otherwise) and the same figures as
// CSV, read through the API's own service (party/stats/).
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { addDays, brusselsDay } from '../brussels-days.ts';
import { sourceStatsCsv } from '../party/index.ts';
import { queryText } from './inbox-filter.ts';
import { type LeadServices, senderNames } from './lead-data.ts';
import { PAGE_HEADERS } from './pages/layout.ts';
import { pageContext } from './pages/page-context.ts';
import { renderSources } from './pages/sources/sources.page.ts';

/** The period shown first: this many days until today. */
export const DEFAULT_PERIOD_DAYS = 84;

export const sourcesRoutes: FastifyPluginAsync<{ services: LeadServices }> = async (app, { services }) => {
  const period = (request: FastifyRequest) => {
    // Brussels days, as the inbox's and the statistics' own.
    const today = brusselsDay(services.clock.now());
    return {
      from: queryText(request.query, 'from', 10) ?? addDays(today, -(DEFAULT_PERIOD_DAYS - 1)),
      to: queryText(request.query, 'to', 10) ?? today,
    };
  };

  app.get('/sources', async (request, reply) => {
    const { distribution_id: distributionId } = request.appSession!.user;
    const { from, to } = period(request);
    const [stats, senders] = await Promise.all([
      services.sourceStats.read(distributionId, from, to),
      senderNames(services, distributionId),
    ]);
    return reply
      .headers(PAGE_HEADERS)
      .send(renderSources(pageContext(request, request.appSession), { stats, senders }));
  });

  app.get('/sources.csv', async (request, reply) => {
    const { from, to } = period(request);
    const stats = await services.sourceStats.read(request.appSession!.user.distribution_id, from, to);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="sources-${from}-${to}.csv"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(sourceStatsCsv(stats));
  });
};
