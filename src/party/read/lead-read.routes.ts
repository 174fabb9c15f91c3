// Reading leads back (docs/api.md, "Reading and updating"), all with `leads:read`:
//   GET /distributions/{did}/leads/{lead_id}          the push's representation (`self`)
//   GET /distributions/{did}/leads?external_ref=...    find a lead again / sync changes
//   GET /distributions/{did}/leads/{lead_id}/pushes   the append-only push log
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { Config } from '../../config.ts';
import { requireScope } from '../../auth/authorize.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';
import { decodeCursor, nextLink, PageQuery } from '../../http/pagination.ts';
import { LeadResponse } from '../model/lead.response.ts';
import type { LeadReader } from './lead-read.service.ts';
import type { PushLogReader } from './push-log-read.service.ts';

export interface LeadReadRoutesOptions {
  readonly leads: LeadReader;
  readonly pushLog: PushLogReader;
  readonly config: Config;
}

const LeadParams = Type.Object({ distribution_id: Type.String(), lead_id: Type.String() });
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const security: Array<Record<string, string[]>> = [{ apikey: [] }, { bearer: [] }];
const NextLink = Type.Unsafe<string | null>({
  type: ['string', 'null'],
  format: 'uri',
  description: 'The next page; null on the last.',
});

/** An erased lead, once more in the change listing after its last change (docs/design.md section 15). */
export const ErasedLead = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    party_id: Type.String({ format: 'uuid' }),
    erased: Type.Literal(true),
    updated_at: Type.String({ format: 'date-time', description: 'When it was erased.' }),
  },
  {
    title: 'ErasedLead',
    description: 'The lead was erased (GDPR art. 17): delete your copy. Reads of it answer 410.',
  },
);

export const MergedLead = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    party_id: Type.String({ format: 'uuid' }),
    merged_into: Type.Object(
      { party_id: Type.String({ format: 'uuid' }), lead_id: Type.String({ format: 'uuid' }) },
      { description: 'The party and lead it was merged into.' },
    ),
    updated_at: Type.String({ format: 'date-time', description: 'When it was merged.' }),
  },
  {
    title: 'MergedLead',
    description:
      'The lead was merged into another (docs/api.md, "Merging two parties"): drop your copy and keep `merged_into`. Reads of it answer 410 `Merged`.',
  },
);

export const LeadList = Type.Object(
  { items: Type.Array(Type.Union([ErasedLead, MergedLead, LeadResponse])), next: NextLink },
  { title: 'LeadList' },
);

export const LeadPush = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    received_at: Type.String({ format: 'date-time' }),
    status: Type.Integer({ enum: [200, 201], description: '201 when the push created the lead, 200 for a merge.' }),
    caller: Type.String({ examples: ['token:0b6c1f9e-4d1a-4c56-9a51-1c2f0d3e4b5a'] }),
    origin: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
    kind: Type.String({ enum: ['CUSTOMER', 'COMPANY'] }),
    payload: Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      additionalProperties: true,
      description: 'The body as received.',
    }),
  },
  { title: 'LeadPush' },
);

export const leadReadRoutes: FastifyPluginAsync<LeadReadRoutesOptions> = async (
  fastify,
  { leads, pushLog, config },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const onRequest = requireScope('leads:read');

  app.get(
    '/distributions/:distribution_id/leads/:lead_id',
    {
      schema: {
        operationId: 'getLead',
        summary: 'Read a lead',
        tags: ['leads'],
        security,
        description: 'The same representation a push returns. The ETag changes with every stored change.',
        params: LeadParams,
        response: { 200: LeadResponse, ...errors, 410: ErrorBody },
      },
      onRequest,
    },
    async (request, reply) => {
      const { lead, etag } = await leads.get(request.params.distribution_id, request.params.lead_id);
      return reply.header('etag', etag).send(lead);
    },
  );

  app.get(
    '/distributions/:distribution_id/leads',
    {
      schema: {
        operationId: 'listLeads',
        summary: 'Find leads by external ref, or list changes',
        tags: ['leads'],
        security,
        description:
          'Leads ordered by last change (updated_at, then id). `external_ref` finds the leads a platform pushed with that ' +
          "ref, of any company; with `external_ref_company` only that company's (empty: the ref sent without a company). " +
          '`updated_since` lists what changed since a time. Follow `next`. ' +
          'To keep in sync, read to the end, keep the newest `updated_at` seen (or the last `next`) and ask again later with ' +
          '`updated_since` set to it: no lead created or changed meanwhile is skipped, even one whose write committed late ' +
          '(leads stamped after the oldest write still in progress began wait for the next call); one stamped exactly at ' +
          'that time comes again. A lead that was erased comes once more as `{id, party_id, erased: true, updated_at}` ' +
          '(`updated_at` is when it was erased): delete your copy.',
        params: Type.Object({ distribution_id: Type.String() }),
        querystring: Type.Object(
          {
            external_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
            external_ref_company: Type.Optional(Type.String({ maxLength: 255 })),
            updated_since: Type.Optional(Type.String({ format: 'date-time', examples: ['2026-11-20T00:00:00Z'] })),
            ...PageQuery,
          },
          { additionalProperties: false },
        ),
        response: { 200: LeadList, ...errors },
      },
      onRequest,
    },
    async (request) => {
      const { external_ref, external_ref_company, updated_since, limit = 50, cursor } = request.query;
      const page = await leads.list({
        distributionId: request.params.distribution_id,
        // No company named: the ref of any company (docs/api.md, "Reading and updating"); an empty
        // one is the ref sent without a company, which is stored with the company ''.
        ...(external_ref !== undefined && { ref: { ref: external_ref, company: external_ref_company } }),
        // Stored timestamps are UTC ISO text: normalise any offset so text order is time order.
        ...(updated_since !== undefined && { updatedSince: new Date(updated_since).toISOString() }),
        ...(cursor !== undefined && { after: decodeCursor(cursor) }),
        limit,
      });
      return { items: page.items, next: page.next ? nextLink(config.publicUrl, request.url, page.next) : null };
    },
  );

  app.get(
    '/distributions/:distribution_id/leads/:lead_id/pushes',
    {
      schema: {
        operationId: 'listLeadPushes',
        summary: 'The accepted pushes of a lead',
        tags: ['leads'],
        security,
        description:
          'Append-only: every accepted push with its time, caller, origin, status and the payload as received.',
        params: LeadParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: {
          200: Type.Object({ items: Type.Array(LeadPush), next: NextLink }, { title: 'LeadPushList' }),
          ...errors,
          410: ErrorBody,
        },
      },
      onRequest,
    },
    async (request) => {
      const { limit = 50, cursor } = request.query;
      const page = await pushLog.list(
        request.params.distribution_id,
        request.params.lead_id,
        decodeCursor(cursor),
        limit,
      );
      return { items: page.items, next: page.next ? nextLink(config.publicUrl, request.url, page.next) : null };
    },
  );
};
