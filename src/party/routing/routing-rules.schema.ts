// The routing rules file (docs/design.md section 15; docs/operations.md, "Routing new
// leads"): `{"rules": [{"when": {...}, "assign": {...}}]}`, tried in order on a lead's
// creation. Every `when` key is optional and all given must match; `assign` names one
// user or several to take turns. One schema: it checks the file and types the rules.
import Type, { type Static } from 'typebox';
import { Enum } from '../model/schema-primitives.ts';

const closed = { additionalProperties: false } as const;
const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UserId = Type.String({ pattern: UUID });
const List = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Optional(Type.Array(item, { minItems: 1, maxItems: 1000 }));

/** A postcode (`1000`) or an inclusive range of numeric ones (`1000-1299`). */
export const POSTCODE_PATTERN = '^([0-9]{1,10}-[0-9]{1,10}|[0-9A-Za-z][0-9A-Za-z ]{0,9})$';

export const RoutingWhen = Type.Object(
  {
    origin: List(Type.String({ minLength: 1, maxLength: 255 })),
    kind: Type.Optional(Enum(['CUSTOMER', 'COMPANY'] as const)),
    postcodes: List(Type.String({ pattern: POSTCODE_PATTERN })),
    language: List(Type.String({ pattern: '^[a-z]{2}$' })),
  },
  closed,
);

/** Exactly one of the two: checked after the schema (routing-file.ts). */
export const RoutingAssign = Type.Object(
  {
    user: Type.Optional(UserId),
    round_robin: Type.Optional(Type.Array(UserId, { minItems: 1, maxItems: 100, uniqueItems: true })),
  },
  closed,
);

export const RoutingRule = Type.Object({ when: RoutingWhen, assign: RoutingAssign }, closed);

export const RoutingRules = Type.Object(
  { rules: Type.Array(RoutingRule, { maxItems: 100 }) },
  { ...closed, title: 'RoutingRules' },
);

export type RoutingRule = Static<typeof RoutingRule>;
export type RoutingRules = Static<typeof RoutingRules>;
