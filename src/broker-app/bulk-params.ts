// What the inbox's query string carries besides its filters (docs/design.md section 13): where
// a page starts in the filtered list (`start`, for "Leads 26–50 of 120"), and what the last
// bulk change did (`bulk=<done>.<refused>`, or `nothing`), shown once after its redirect.
import { ValidationError } from '../errors.ts';
import { queryText } from './inbox-filter.ts';

/** The place of a page's first lead, from 1; 422 on anything but a whole number. */
export function placeOf(text: string | undefined): number {
  if (text === undefined) return 1;
  if (!/^[1-9]\d{0,8}$/.test(text)) throw new ValidationError([{ target: 'start', code: 'invalid' }]);
  return Number(text);
}

export function bulkSummary(query: unknown): { bulk?: { done: number; refused: number } | 'nothing' } {
  const text = queryText(query, 'bulk', 20);
  if (text === undefined) return {};
  if (text === 'nothing') return { bulk: 'nothing' };
  const match = /^(\d{1,4})\.(\d{1,4})$/.exec(text);
  if (!match) throw new ValidationError([{ target: 'bulk', code: 'invalid' }]);
  return { bulk: { done: Number(match[1]), refused: Number(match[2]) } };
}

/** How the bulk route says what it did, in the inbox's link back. */
export function bulkSearchParam(result: { done: number; refused: number } | 'nothing'): string {
  return result === 'nothing' ? 'nothing' : `${result.done}.${result.refused}`;
}
