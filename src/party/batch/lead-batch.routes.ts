// POST /v1/api/distributions/{distribution_id}/leads/batch (docs/design.md section 14;
// docs/api.md, "Pushing many leads at once"). Thin: authorize, check the envelope, hand the items
// to the use case, shape the reply: 200 when every item succeeded, 207 when one was refused.
import type { FastifyPluginAsync, FastifySchemaCompiler } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { requireScope } from '../../auth/authorize.ts';
import { ValidationError, type Problem } from '../../errors.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';
import { renderErrorBody } from '../../http/error-body.ts';
import { requestLanguage } from '../../http/error-handler.ts';
import { takeBodyProblems } from '../../http/json-body.ts';
import { arrayElementTexts } from '../../http/json-spans.ts';
import type { AjvCompilers } from '../../http/validation.ts';
import { checkEnvelope, LeadBatch, LeadBatchResult, problemsByItem, type BatchItem } from './lead-batch.schema.ts';
import type { LeadBatchService } from './lead-batch.service.ts';

export interface LeadBatchRoutesOptions {
  readonly leadBatch: LeadBatchService;
  readonly validation: AjvCompilers;
  /** BATCH_BODY_LIMIT: a batch is up to 100 pushes, so it gets its own body limit. */
  readonly bodyLimit: number;
}

const DistributionParams = Type.Object({
  distribution_id: Type.String({ format: 'uuid', description: 'The distribution the leads are pushed into.' }),
});

/** What the envelope check found, for the handler: the items and the parser's problems by item. */
interface CheckedBatch {
  readonly items: BatchItem[];
  readonly parserProblems: Map<number, Problem[]>;
}
const checkedBatches = new WeakMap<object, CheckedBatch>();

/** Each item's text as sent (docs/design.md section 2, rule 11), when it can be told apart. */
function itemTextsOf(rawBody: string | undefined, count: number): string[] | undefined {
  const texts = rawBody === undefined ? undefined : arrayElementTexts(rawBody, 'leads');
  return texts?.length === count ? texts : undefined;
}

export const leadBatchRoutes: FastifyPluginAsync<LeadBatchRoutesOptions> = async (
  fastify,
  { leadBatch, validation, bodyLimit },
) => {
  // The body's declared schema documents the items; only the envelope is checked before the
  // handler, so that each item's problems are that item's result, not the request's 422.
  const validatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
    if (route.httpPart !== 'body') return validation.validatorCompiler(route);
    return (body: unknown) => {
      const parsed = takeBodyProblems(body);
      try {
        const items = checkEnvelope(body);
        const parserProblems = problemsByItem(parsed);
        if (parserProblems === undefined) return { error: new ValidationError(parsed, 'LeadBatch') };
        checkedBatches.set(body as object, { items, parserProblems });
        return true;
      } catch (error) {
        return { error: error as ValidationError };
      }
    };
  };
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/distributions/:distribution_id/leads/batch',
    {
      bodyLimit,
      schema: {
        operationId: 'pushLeadBatch',
        summary: 'Push up to 100 leads at once',
        description:
          'Each item is applied in order exactly as the single push of its `type`, in its own ' +
          'transaction: 200 when every item succeeded, 207 when one or more was refused; one ' +
          'result per item. A wrong envelope is one 422 and writes nothing.',
        tags: ['leads'],
        security: [{ apikey: [] }, { bearer: [] }],
        params: DistributionParams,
        body: LeadBatch,
        response: {
          200: LeadBatchResult,
          207: LeadBatchResult,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          422: ErrorBody,
          429: ErrorBody,
          500: ErrorBody,
        },
      },
      onRequest: requireScope('leads:write'),
      validatorCompiler,
    },
    async (request, reply) => {
      const checked = checkedBatches.get(request.body as object)!;
      const language = requestLanguage(request);
      const result = await leadBatch.push({
        distributionId: request.params.distribution_id,
        items: checked.items,
        parserProblems: checked.parserProblems,
        itemTexts: itemTextsOf(request.rawBody, checked.items.length),
        caller: request.caller!,
        renderError: (error) => renderErrorBody(error, language),
      });
      return reply.status(result.failed > 0 ? 207 : 200).send(result);
    },
  );
};
