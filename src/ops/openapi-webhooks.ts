// The webhook events in the document's `webhooks` section (OpenAPI 3.1; docs/design.md
// sections 5 and 14): what a partner's endpoint receives, with the Standard Webhooks
// headers that sign it, so its generated types name every event and the client's
// verifyWebhook can return one.
import Type from 'typebox';
import { LeadResponse } from '../party/index.ts';
import type { WebhookEventType } from '../webhooks/webhook.table.ts';

/** Each event: when it is sent and what its `data` holds. */
const EVENTS: Record<WebhookEventType, { name: string; summary: string; description: string; data: object }> = {
  'lead.created': {
    name: 'LeadCreatedEvent',
    summary: 'A push created a lead',
    description: 'Sent when a push matched nothing and created the lead; `data` is the lead as the push answered.',
    data: LeadResponse,
  },
  'lead.updated': {
    name: 'LeadUpdatedEvent',
    summary: 'A push changed a lead',
    description: 'Sent when a push merged into the lead and changed what is stored; `data` is the lead after it.',
    data: LeadResponse,
  },
  'party.updated': {
    name: 'PartyUpdatedEvent',
    summary: 'A PATCH changed a party',
    description:
      "Sent when a party PATCH changed the prospect or its risk objects; `data` is the party's lead after it.",
    data: LeadResponse,
  },
  'lead.erased': {
    name: 'LeadErasedEvent',
    summary: 'The person of a lead was erased',
    description:
      'Sent when the broker erased the person on request or retention erased the lead (docs/personal-data.md, "Answering an erasure request"); ' +
      '`data` holds ids and the time only: delete your copy of the lead.',
    data: Type.Object(
      {
        id: Type.String({ format: 'uuid', description: 'The erased lead.' }),
        party_id: Type.String({ format: 'uuid', description: "The erased lead's party." }),
        erased_at: Type.String({ format: 'date-time' }),
      },
      { additionalProperties: false },
    ),
  },
  'party.merged': {
    name: 'PartyMergedEvent',
    summary: 'Two parties were merged into one',
    description:
      'Sent to the callbacks of both parties when a broker merged one party into another (docs/api.md, "Merging two parties"): ' +
      'the merged party and lead now answer 410 `Merged`; keep the survivor and drop your copy of the merged one.',
    data: Type.Object(
      {
        party_id: Type.String({ format: 'uuid', description: 'The survivor.' }),
        merged_party_id: Type.String({ format: 'uuid', description: 'The party merged into it, gone now.' }),
        lead_id: Type.String({ format: 'uuid', description: "The survivor's lead." }),
        merged_lead_id: Type.String({ format: 'uuid', description: "The merged party's lead, gone now." }),
      },
      { additionalProperties: false },
    ),
  },
  'lead.status_changed': {
    name: 'LeadStatusChangedEvent',
    summary: "The broker changed a lead's status",
    description:
      'Sent when a lead PATCH or the broker app set a new status or lost reason; `data` is the lead after it.',
    data: LeadResponse,
  },
};

const SIGNATURE_HEADERS = [
  [
    'webhook-id',
    'The event id (its `id`), the same for every attempt: skip an id you have already handled.',
    '019ac0a5-5d8e-7c3b-9f1e-2a4b6c8d0e1f',
  ],
  ['webhook-timestamp', 'Unix seconds when this attempt was signed; refuse one far from your clock.', '1764150000'],
  [
    'webhook-signature',
    'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the ' +
      "distribution's `whsec_` secret (`lead-intake webhook secret`); several during a key rotation.",
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ],
] as const;

/** The events' schemas, named, and the `webhooks` section that refers to them. */
export function webhookDocument(): { schemas: Record<string, object>; webhooks: Record<string, object> } {
  const events = Object.entries(EVENTS).map(([type, event]) => {
    const schema = Type.Object(
      {
        id: Type.String({ description: 'The event id; also sent as `webhook-id`.' }),
        type: Type.Literal(type),
        created_at: Type.String({ format: 'date-time', description: 'When the change happened.' }),
        distribution_id: Type.String({ format: 'uuid' }),
        data: event.data as never,
      },
      { title: event.name, description: event.description },
    );
    return { type, event, schema };
  });
  const WebhookEvent = {
    title: 'WebhookEvent',
    description: 'Any event a callback URL receives, told apart by `type`.',
    oneOf: events.map(({ schema }) => schema),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(events.map(({ type, event }) => [type, `#/components/schemas/${event.name}`])),
    },
  };
  const webhooks = Object.fromEntries(
    events.map(({ type, event, schema }) => [
      type,
      {
        post: {
          operationId: `on${event.name}`,
          summary: event.summary,
          description:
            `${event.description} POSTed to every callback URL of the prospect, signed per Standard Webhooks ` +
            "(verify it with the client's `verifyWebhook`, or the `standardwebhooks` package). Any 2xx within 15 s " +
            'is success; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. Redirects are ' +
            'not followed; 410 Gone stops deliveries to that URL.',
          tags: ['webhooks'],
          security: [],
          parameters: SIGNATURE_HEADERS.map(([name, description, example]) => ({
            in: 'header',
            name,
            required: true,
            description,
            example,
            schema: { type: 'string' },
          })),
          requestBody: { required: true, content: { 'application/json': { schema } } },
          responses: {
            '200': { description: 'Received (any 2xx): the event counts as delivered.' },
            '410': { description: 'Gone: no further events are sent to this URL.' },
          },
        },
      },
    ]),
  );
  return { schemas: { WebhookEvent }, webhooks };
}
