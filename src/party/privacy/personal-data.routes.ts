// A person's data (docs/design.md section 15; docs/personal-data.md, "Personal data"):
//   DELETE /distributions/{did}/parties/{party_id}          parties:erase
//   GET    /distributions/{did}/parties/{party_id}/export   parties:read
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { requireScope } from '../../auth/authorize.ts';
import { describeCaller } from '../../auth/caller.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';
import type { ErasureService } from './erasure.service.ts';
import { LeadResponse } from '../model/lead.response.ts';
import type { PartyExportService } from './party-export.service.ts';

export interface PersonalDataRoutesOptions {
  readonly erasure: ErasureService;
  readonly partyExport: PartyExportService;
}

const security: Array<Record<string, string[]>> = [{ apikey: [] }, { bearer: [] }];
const PartyParams = Type.Object({ distribution_id: Type.String(), party_id: Type.String() });

export const ErasureReceipt = Type.Object(
  {
    party_id: Type.String({ format: 'uuid' }),
    erased_at: Type.String({ format: 'date-time' }),
    lead_ids: Type.Array(Type.String({ format: 'uuid' })),
    counts: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: 'Rows deleted per kind (parties, leads, push_log, webhook_events, notes, ...).',
    }),
  },
  { title: 'ErasureReceipt' },
);

export const PartyExport = Type.Object(
  {
    exported_at: Type.String({ format: 'date-time' }),
    distribution_id: Type.String({ format: 'uuid' }),
    party_id: Type.String({ format: 'uuid' }),
    lead: LeadResponse,
    records: Type.Record(Type.String(), Type.Array(Type.Object({}, { additionalProperties: true })), {
      description:
        'Every stored row about the person, by kind (parties, leads, external_refs, callbacks, risk_objects, ' +
        'risk_object_revisions, policy_packages, insurance_policies, coverages, push_log, webhook_events, ' +
        'webhook_deliveries, webhook_attempts, changes, notes). Push-log `payload` is the body exactly as received.',
    }),
  },
  { title: 'PartyExport' },
);

export const personalDataRoutes: FastifyPluginAsync<PersonalDataRoutesOptions> = async (
  fastify,
  { erasure, partyExport },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.delete(
    '/distributions/:distribution_id/parties/:party_id',
    {
      schema: {
        operationId: 'eraseParty',
        summary: 'Erase a person and everything kept about them',
        tags: ['parties'],
        security,
        description:
          'GDPR art. 17. Deletes the party, its lead, refs, callbacks, risk objects with every revision, packages, ' +
          'policies, coverages, the push log, webhook events with their deliveries, notes and status history, in one ' +
          'transaction. A tombstone stays: reads of the party or its lead answer 410 `Erased`, a push carrying one of ' +
          "its external refs 409 `Erased`, the change listing shows the lead as erased, and the prospect's callbacks " +
          'get a `lead.erased` event. The receipt holds no personal data.',
        params: PartyParams,
        response: { 200: ErasureReceipt, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody },
      },
      onRequest: requireScope('parties:erase'),
      // Its Idempotency-Key keeps the receipt, which names the party but shows no one.
      config: { idempotencyShowsNoOne: true },
    },
    async (request) =>
      erasure.erase({
        distributionId: request.params.distribution_id,
        partyId: request.params.party_id,
        actor: describeCaller(request.caller!),
      }),
  );

  app.get(
    '/distributions/:distribution_id/parties/:party_id/export',
    {
      schema: {
        operationId: 'exportParty',
        summary: 'Everything kept about a person, in one document',
        tags: ['parties'],
        security,
        description:
          'GDPR art. 15 and 20: the lead as the API shows it and every stored row about the person (every revision, ' +
          'the push log with each body as received, webhook events with their delivery status, notes and status ' +
          'history), as a JSON attachment. Recorded in the audit log.',
        params: PartyParams,
        response: { 200: PartyExport, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody },
      },
      onRequest: requireScope('parties:read'),
    },
    async (request, reply) => {
      const { distribution_id, party_id } = request.params;
      const document = await partyExport.export({
        distributionId: distribution_id,
        partyId: party_id,
        actor: describeCaller(request.caller!),
      });
      // Serialised here, indented for the person who opens the file: the rows are as stored,
      // which the response schema only outlines. Fastify sends a JSON string as it is.
      const body = JSON.stringify(document, null, 2);
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="party-${party_id}.json"`)
        .send(body as unknown as typeof document);
    },
  );
};
