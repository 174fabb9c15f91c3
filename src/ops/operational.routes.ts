// GET /healthz, /readyz and /metrics (docs/design.md section 1, "Operational"). A load
// balancer restarts a process whose /healthz fails and stops routing to one whose
// /readyz fails, so /healthz must never depend on the database and /readyz must.
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { DatabaseHandle } from '../db/database.ts';
import { errorBody } from '../http/error-body.ts';
import { ErrorBody } from '../http/error-body.schema.ts';
import { registerMetrics } from './metrics.ts';
import { selectOne } from './readiness.repository.ts';

/** A probe that waits longer than this for the database reports it unreachable. */
const READINESS_TIMEOUT_MS = 2_000;

const StatusOk = Type.Object({ status: Type.Literal('ok') }, { title: 'Status' });

export function registerOperationalRoutes(app: FastifyInstance, database: DatabaseHandle): void {
  registerMetrics(app, database.statements);

  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness: the process is up',
        tags: ['operations'],
        security: [],
        response: { 200: StatusOk },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness: the database answers',
        description: `200 when \`select 1\` succeeds within ${READINESS_TIMEOUT_MS} ms, 503 otherwise.`,
        tags: ['operations'],
        security: [],
        response: { 200: StatusOk, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      try {
        await withTimeout(selectOne(database.db), READINESS_TIMEOUT_MS);
        return { status: 'ok' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness probe: database unreachable');
        // Answered here rather than thrown: "the service is unavailable" is no client error
        // to localise, and the cause (driver message) must not reach the body.
        return reply
          .status(503)
          .send(
            errorBody('ServiceUnavailable', 'Readiness', [
              { target: 'database', message: 'The database is not reachable.' },
            ]),
          );
      }
    },
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
