// The answer of GET .../stats/sources (docs/design.md section 13; docs/api.md, "Where leads
// come from"): one schema validates nothing here but documents the answer in the OpenAPI
// document and types the route.
import Type from 'typebox';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

const counts = {
  received: Count('Pushes received in the period (created plus merged).'),
  created: Count('Pushes that created a lead.'),
  merged: Count('Pushes merged into a lead that was there.'),
  contacted: Count('Leads created in the period whose status is `contacted` now.'),
  quoted: Count('… `quoted` now.'),
  won: Count('… `won` now.'),
  lost: Count('… `lost` now.'),
  win_rate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
    description: 'Won of created (0 to 1), or null when none was created.',
  }),
  median_hours_to_first_status: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
    description:
      "Median hours from a lead's creation to its first status change, of those that changed (read from counts per bucket of hours: exact to a fraction of its bucket, minutes under an hour); else null.",
  }),
};

export const SourceStatsQuery = Type.Object(
  {
    from: Type.String({
      format: 'date',
      description: "First day (in Brussels time, as the broker app's days), included.",
      examples: ['2026-11-01'],
    }),
    to: Type.String({
      format: 'date',
      description: 'Last day (Brussels time), included; at most 366 days after `from`.',
    }),
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('csv')], {
        description: '`csv` answers the same figures as `text/csv`, one row per origin and per sender.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SourceStatsResponse = Type.Object(
  {
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date' }),
    origins: Type.Array(
      Type.Object({ origin: Type.Union([Type.String(), Type.Null()]), ...counts }, { title: 'OriginStats' }),
    ),
    senders: Type.Array(
      Type.Object(
        {
          sender: Type.String({
            description:
              'Who pushed: `token:<API token id>`, or `client:<SSO client id>` for users signed in through that client (pushes logged before the client was kept: `user:<SSO user id>`).',
          }),
          ...counts,
        },
        { title: 'SenderStats' },
      ),
    ),
    weeks: Type.Array(
      Type.Object(
        {
          week: Type.String({ format: 'date', description: 'The Monday of the week (Brussels days).' }),
          received: Count('Pushes received that week.'),
          won: Count('Leads created that week that are won now.'),
        },
        { title: 'WeekStats' },
      ),
    ),
  },
  { title: 'SourceStats' },
);
