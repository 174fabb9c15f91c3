// `{items, next}` pages over ranked results: the cursor is an opaque position in the
// ranking. Ranked search has no stable key to continue after, and the data only changes
// by a whole import, so a position is exact between imports. Paging stops at
// MAX_POSITION: nobody reads ten thousand search hits, and deep offsets cost every query.
import Type from 'typebox';
import { ValidationError } from '../../errors.ts';

export const MAX_POSITION = 10_000;

export const ReferencePageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(
    Type.String({ maxLength: 100, description: 'Opaque; from the `next` link of the previous page.' }),
  ),
};

export const NextLink = Type.Unsafe<string | null>({
  type: ['string', 'null'],
  format: 'uri',
  description: 'The next page; null on the last.',
});

export function pageStart(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const position = Number(Buffer.from(cursor, 'base64url').toString());
  if (
    !Number.isSafeInteger(position) ||
    position < 0 ||
    position > MAX_POSITION ||
    Buffer.from(String(position)).toString('base64url') !== cursor
  ) {
    throw new ValidationError([{ target: 'cursor', code: 'invalid', expected: 'cursor' }]);
  }
  return position;
}

/**
 * Cuts a page from rows fetched with one more than `limit`, and links the next one (the
 * request's own URL with `cursor` replaced, on PUBLIC_URL).
 */
export function page<T, R>(
  rows: readonly T[],
  offset: number,
  limit: number,
  shape: (row: T) => R,
  publicUrl: string,
  requestUrl: string,
) {
  const items = rows.slice(0, limit).map(shape);
  const nextOffset = offset + limit;
  if (rows.length <= limit || nextOffset > MAX_POSITION) return { items, next: null };
  const url = new URL(requestUrl, publicUrl);
  url.searchParams.set('cursor', Buffer.from(String(nextOffset)).toString('base64url'));
  return { items, next: `${publicUrl}${url.pathname}${url.search}` };
}
