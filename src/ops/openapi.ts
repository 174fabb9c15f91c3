// PLACEHOLDER (to be completed): OpenAPI 3.1 document and /docs.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

export async function registerOpenApi(_app: FastifyInstance, _config: Config): Promise<void> {}
