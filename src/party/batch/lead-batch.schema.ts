// The batch push's body and answer (docs/design.md section 14; docs/api.md, "Pushing many
// leads at once"). The envelope is checked here, by hand, so that a wrong envelope is one
// 422 with targets `leads` or `leads.<i>.type`; each item is then checked by its kind's
// push schema (lead.schema.ts), its problems relative to the item as in a single push.
import Type, { type Static } from 'typebox';
import { ValidationError, type Problem } from '../../errors.ts';
import { ErrorBody } from '../../http/error-body.schema.ts';
import { unknownFieldProblem } from '../../http/unknown-field.ts';
import { LeadResponse } from '../model/lead.response.ts';
import { CompanyLeadBody, CustomerLeadBody } from '../model/lead.schema.ts';
import type { PartyType } from '../model/party.table.ts';

/** At most this many leads in one batch, as HubSpot's batch upsert takes. */
export const MAX_BATCH_ITEMS = 100;
const ITEM_TYPES: readonly PartyType[] = ['CUSTOMER', 'COMPANY'];

const kindOf = (body: typeof CustomerLeadBody | typeof CompanyLeadBody, type: PartyType) =>
  Type.Object(
    { type: Type.Literal(type, { description: 'The kind of lead: the push it stands for.' }), ...body.properties },
    { additionalProperties: false, title: `${type === 'CUSTOMER' ? 'Customer' : 'Company'}LeadBatchItem` },
  );

/** For the OpenAPI document: the envelope is validated by `checkEnvelope`, each item by its push schema. */
export const LeadBatch = Type.Object(
  {
    leads: Type.Array(Type.Union([kindOf(CustomerLeadBody, 'CUSTOMER'), kindOf(CompanyLeadBody, 'COMPANY')]), {
      minItems: 1,
      maxItems: MAX_BATCH_ITEMS,
      description: 'Applied in order, each as the single push of its `type`, each in its own transaction.',
    }),
  },
  { additionalProperties: false, title: 'LeadBatch' },
);

/**
 * One item's outcome. One object shape, not a union: the answer's serialiser then picks no
 * branch per item (a union makes it validate each of 100 leads against every branch).
 */
export const LeadBatchItemResult = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: 'The item this result is for (zero-based).' }),
    status: Type.Integer({
      description: 'What the single push would have answered: 201 created, 200 merged, 409 or 422 refused.',
      examples: [201],
    }),
    // The lead, as a single push answers it (201 and 200).
    lead: Type.Optional(LeadResponse),
    // The error body a single push would have answered (409, 422).
    error: Type.Optional(ErrorBody),
  },
  { title: 'LeadBatchItemResult' },
);

export const LeadBatchResult = Type.Object(
  {
    results: Type.Array(LeadBatchItemResult),
    created: Type.Integer({ description: 'Items that created a lead (201).' }),
    updated: Type.Integer({ description: 'Items merged into an existing lead (200).' }),
    failed: Type.Integer({ description: 'Items refused (409, 422): they wrote nothing.' }),
  },
  { title: 'LeadBatchResult' },
);
export type LeadBatchResult = Static<typeof LeadBatchResult>;
export type LeadBatchItemResult = Static<typeof LeadBatchItemResult>;

/** An item of a valid envelope: its kind, and its body as the single push takes it. */
export interface BatchItem {
  readonly kind: PartyType;
  readonly body: Record<string, unknown>;
}

/** The items of a well-formed envelope, or the one 422 that refuses the whole request. */
export function checkEnvelope(body: unknown): BatchItem[] {
  const problems: Problem[] = [];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError([{ target: 'leads', code: 'missing' }], 'LeadBatch');
  }
  for (const key of Object.keys(body)) if (key !== 'leads') problems.push(unknownFieldProblem(key, key, ['leads']));
  const leads = (body as { leads?: unknown }).leads;
  if (leads === undefined) problems.push({ target: 'leads', code: 'missing' });
  else if (!Array.isArray(leads)) problems.push({ target: 'leads', code: 'invalid' });
  else if (leads.length === 0) problems.push({ target: 'leads', code: 'min_items', params: { limit: 1 } });
  else if (leads.length > MAX_BATCH_ITEMS)
    problems.push({ target: 'leads', code: 'max_items', params: { limit: MAX_BATCH_ITEMS } });
  else {
    leads.forEach((item: unknown, index) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        problems.push({ target: `leads.${index}`, code: 'invalid' });
        return;
      }
      const type = (item as { type?: unknown }).type;
      if (type === undefined) problems.push({ target: `leads.${index}.type`, code: 'missing' });
      else if (!ITEM_TYPES.includes(type as PartyType))
        problems.push({
          target: `leads.${index}.type`,
          code: 'not_allowed_value',
          params: { allowed: ITEM_TYPES.join(', ') },
        });
    });
  }
  if (problems.length > 0) throw new ValidationError(problems, 'LeadBatch');
  return (leads as Array<Record<string, unknown>>).map(({ type, ...rest }) => ({
    kind: type as PartyType,
    body: rest,
  }));
}

/**
 * Problems the body parser found in the batch's text (NUL, lone surrogates, infinite
 * numbers: src/http/json-body.ts), moved to the item they are in and made relative to it;
 * undefined when one lies outside every item (the envelope's own).
 */
export function problemsByItem(problems: readonly Problem[]): Map<number, Problem[]> | undefined {
  const byItem = new Map<number, Problem[]>();
  for (const problem of problems) {
    const match = /^leads\.(\d+)\.(.+)$/.exec(problem.target);
    if (!match) return undefined;
    const index = Number(match[1]);
    const list = byItem.get(index) ?? [];
    list.push({ ...problem, target: match[2]! });
    byItem.set(index, list);
  }
  return byItem;
}
