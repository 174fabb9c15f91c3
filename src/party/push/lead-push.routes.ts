// POST /v1/api/distributions/{distribution_id}/leads/customers|companies (docs/design.md
// section 2; docs/api.md, "Pushing a lead"). Thin: authorize, hand the validated body to the
// use case, shape the reply.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { requireScope } from '../../auth/authorize.ts';
import { ValidationError } from '../../errors.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';
import type { AjvCompilers } from '../../http/validation.ts';
import { leadExamples } from '../model/lead.examples.ts';
import { LeadResponse } from '../model/lead.response.ts';
import { CompanyLeadBody, CustomerLeadBody } from '../model/lead.schema.ts';
import type { PartyType } from '../model/party.table.ts';
import { checkPayloadRules } from '../model/payload-rules.ts';
import type { LeadPushService, PushResult } from './lead-push.service.ts';
import { JSON_CONTENT_TYPE, keepAnswerInWrite, type WrittenAnswer } from '../../idempotency/idempotent-write.ts';

/** The answer to a push as Fastify would send it: the response schema's serialiser, its JSON type. */
function serialisedAnswer(reply: FastifyReply, pushed: PushResult): WrittenAnswer {
  const status = pushed.created ? 201 : 200;
  return {
    status,
    headers: {
      'content-type': JSON_CONTENT_TYPE,
      ...(pushed.created && { location: pushed.lead.self }),
    },
    // The route's serialiser for this status, as `send` would run it; it gives JSON text.
    body: reply.code(status).serialize(pushed.lead) as string,
    partyIds: [pushed.lead.party_id],
  };
}

export interface LeadPushRoutesOptions {
  readonly leadPush: LeadPushService;
  readonly validation: AjvCompilers;
}

const DistributionParams = Type.Object({
  distribution_id: Type.String({ format: 'uuid', description: 'The distribution the lead is pushed into.' }),
});

const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  422: ErrorBody,
  500: ErrorBody,
};

export const leadPushRoutes: FastifyPluginAsync<LeadPushRoutesOptions> = async (fastify, { leadPush, validation }) => {
  // The push's rules beyond its schema run with it, so one 422 reports both (docs/design.md section 3).
  const validatorCompiler = validation.withBodyRules(checkPayloadRules);
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const kinds: Array<{ path: string; kind: PartyType; body: typeof CustomerLeadBody | typeof CompanyLeadBody }> = [
    { path: 'customers', kind: 'CUSTOMER', body: CustomerLeadBody },
    { path: 'companies', kind: 'COMPANY', body: CompanyLeadBody },
  ];
  for (const { path, kind, body } of kinds) {
    app.post(
      `/distributions/:distribution_id/leads/${path}`,
      {
        schema: {
          operationId: kind === 'CUSTOMER' ? 'pushCustomerLead' : 'pushCompanyLead',
          summary: `Push a ${kind === 'CUSTOMER' ? 'customer (person)' : 'company'} lead`,
          description:
            'Creates the lead, or merges it into the lead it matches (prospect id, external refs, ' +
            'or email + birth + address): 201 with Location for a new lead, 200 for a merge.',
          tags: ['leads'],
          security: [{ apikey: [] }, { bearer: [] }],
          params: DistributionParams,
          body: { ...body, examples: [leadExamples[kind]] },
          response: { 200: LeadResponse, 201: LeadResponse, ...errorResponses },
        },
        // onRequest: credentials are checked before the body is even read, so an anonymous
        // caller learns nothing about validation.
        onRequest: requireScope('leads:write'),
        // An Idempotency-Key's answer is kept by the push's own transaction (below), and a
        // token this process knows live is read by that transaction's lookup instead of
        // before it (auth/token-check-in-write.ts; an answer that comes out of no write, a
        // refusal or a replay, waits for a read of the token in onSend).
        config: { idempotencyInWrite: true, tokenCheckedInWrite: true },
        validatorCompiler,
        // A body that fails its schema reaches the handler, which adds the references that
        // certainly dangle to the same 422 (docs/design.md section 3).
        attachValidation: true,
      },
      async (request, reply) => {
        const invalid = request.validationError;
        if (invalid) {
          const inBody = invalid instanceof ValidationError && invalid.validationContext === 'body';
          throw inBody ? await leadPush.refusal(invalid, request.body) : invalid;
        }
        // With an Idempotency-Key, the answer is serialised in the push's transaction and kept
        // with it (docs/api.md, "Retrying safely"), then sent as those very bytes.
        const idempotent = keepAnswerInWrite(request, reply as FastifyReply, (pushed: PushResult) =>
          serialisedAnswer(reply as FastifyReply, pushed),
        );
        const result = await leadPush.push({
          distributionId: request.params.distribution_id,
          kind,
          body: request.body,
          rawBody: request.rawBody ?? JSON.stringify(request.body),
          caller: request.caller!,
          ...(request.tokenCheck && { tokenCheck: request.tokenCheck }),
          ...(idempotent && { keptAnswer: idempotent.inWrite }),
        });
        request.server.metrics.leadsPushed.inc({ outcome: result.created ? 'created' : 'merged' });
        const kept = idempotent?.send();
        if (kept) return kept;
        if (result.created) reply.header('location', result.lead.self);
        return reply.status(result.created ? 201 : 200).send(result.lead);
      },
    );
  }
};
