// The answer of GET …/parties/{party_id}/duplicates (docs/api.md, "Possible duplicates").
import Type from 'typebox';
import { DUPLICATE_REASONS, type DuplicateReason, MAX_DUPLICATES } from './duplicate-ranking.ts';

export const PossibleDuplicate = Type.Object(
  {
    party_id: Type.String({ format: 'uuid' }),
    lead_id: Type.String({ format: 'uuid' }),
    reasons: Type.Array(Type.Unsafe<DuplicateReason>({ type: 'string', enum: [...DUPLICATE_REASONS] }), {
      minItems: 1,
      description:
        'What the two parties share: `email` (in any case), `telephone` (the same number in E.164), `vin` (a car), ' +
        '`enterprise_nr`, or `birth_and_name` (the same birth date and names at most two edits apart, first and ' +
        'last name in either order, a word of each starting with the same two letters).',
    }),
    score: Type.Integer({
      minimum: 1,
      maximum: 100,
      description:
        'How strong the signals are together: e-mail and enterprise number 40, telephone and VIN 30, birth date with a close name 20, at most 100.',
    }),
  },
  { title: 'PossibleDuplicate' },
);

export const PossibleDuplicateList = Type.Object(
  { items: Type.Array(PossibleDuplicate, { maxItems: MAX_DUPLICATES }) },
  { title: 'PossibleDuplicateList' },
);
