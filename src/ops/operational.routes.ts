// PLACEHOLDER (to be completed): /healthz, /readyz, /metrics.
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/database.ts';

export function registerOperationalRoutes(app: FastifyInstance, _database: DatabaseHandle): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
}
