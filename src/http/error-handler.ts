// PLACEHOLDER (to be completed): maps every error to the documented body.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).headers(error.headers).send({
        detail: { type: error.type, errors: error.problems.map((p) => ({ type: error.type, target: p.target, message: p.code })), error_str: `${error.problems.length} errors` },
      });
    }
    const err = error as { statusCode?: number; validation?: unknown };
    if (err.validation) {
      return reply.status(422).send({ detail: { type: 'ValidationError', errors: err.validation, error_str: 'x' } });
    }
    request.log.error(error);
    return reply.status(err.statusCode ?? 500).send({ detail: { type: 'InternalError', errors: [], error_str: '1 error' } });
  });
}
