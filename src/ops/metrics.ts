// Prometheus metrics (docs/design.md section 1, "Operational"). Each app owns its Registry:
// tests build several apps in one process, and prom-client's global default registry
// would make them share (and double-register) every metric.
import type { FastifyInstance } from 'fastify';
import type { StatementCount } from '../db/database.ts';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

type HttpLabels = 'method' | 'route' | 'status_code';

export interface Metrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<HttpLabels>;
  readonly httpRequestDuration: Histogram<HttpLabels>;
  /** Accepted pushes: `created` (201, a new lead) or `merged` (200, into an existing lead). */
  readonly leadsPushed: Counter<'outcome'>;
  /** Answers replayed to a retried Idempotency-Key (docs/design.md section 14). */
  readonly idempotentReplays: Counter;
  /** Retries refused 409 because their key's first request was still running. */
  readonly idempotencyConflicts: Counter;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** Label for requests that matched no route: raw URLs would let any caller create series. */
const UNMATCHED_ROUTE = 'unmatched';

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status_code'] as const;
  return {
    registry,
    httpRequests: new Counter({
      name: 'lead_intake_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code.',
      labelNames,
      registers: [registry],
    }),
    httpRequestDuration: new Histogram({
      name: 'lead_intake_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by method, route pattern and status code.',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    leadsPushed: new Counter({
      name: 'lead_intake_leads_pushed_total',
      help: 'Accepted lead pushes, by outcome: created (a new lead) or merged (into an existing lead).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    idempotentReplays: new Counter({
      name: 'lead_intake_idempotent_replays_total',
      help: 'Write requests answered from the answer kept for their Idempotency-Key, without running again.',
      registers: [registry],
    }),
    idempotencyConflicts: new Counter({
      name: 'lead_intake_idempotency_conflicts_total',
      help: 'Write requests refused 409 IdempotencyConflict: the first request with their key was still running.',
      registers: [registry],
    }),
  };
}

/** Decorates `app.metrics`, records every answered request and serves `GET /metrics`. */
export function registerMetrics(app: FastifyInstance, statements: StatementCount): void {
  const metrics = createMetrics();
  new Counter({
    name: 'lead_intake_database_statements_total',
    help: 'SQL statements run through the query builder, failed ones included (BEGIN and COMMIT are not counted).',
    registers: [metrics.registry],
    collect() {
      this.reset();
      this.inc(statements.count);
    },
  });
  app.decorate('metrics', metrics);

  // A callback hook, not an async one: it does no I/O, and every request pays for the promise.
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      // The route pattern (/v1/api/distributions/:distribution_id/...), never the raw URL.
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      status_code: String(reply.statusCode),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        description: 'Metrics in the Prometheus text exposition format.',
        tags: ['operations'],
        security: [],
        response: {
          200: { description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } },
        },
      },
    },
    async (_request, reply) => {
      const body = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(body);
    },
  );
}
