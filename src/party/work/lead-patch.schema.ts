// The body of a lead PATCH (docs/design.md section 13): a JSON Merge Patch (RFC 7396) of
// the broker's work on the lead as its answer shows it. Members left out keep their value;
// `null` clears the lost reason or the assignee.
import Type, { type Static } from 'typebox';
import { LeadStatus } from '../model/lead.response.ts';

export const MAX_LOST_REASON_LENGTH = 500;

export const LeadPatch = Type.Object(
  {
    status: Type.Optional(LeadStatus),
    lost_reason: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        maxLength: MAX_LOST_REASON_LENGTH,
        description: 'Why the lead was lost: only with status `lost` (set with it or while it holds).',
      }),
    ),
    assignee: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        format: 'uuid',
        description: 'The user id of an active broker user of the distribution, or null for nobody.',
      }),
    ),
    follow_up_on: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        format: 'date',
        description: 'The day to come back to the lead (YYYY-MM-DD, a day that exists), or null for none.',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'LeadPatch',
    examples: [
      { status: 'lost', lost_reason: 'Chose another insurer' },
      { assignee: null },
      { follow_up_on: '2026-12-01' },
    ],
  },
);

export type LeadPatch = Static<typeof LeadPatch>;
