// Keyset pagination: the cursor is an opaque token naming the last item of a page (its
// position, db/keyset.ts, which the repositories read from), so a page never repeats or
// skips rows when others are inserted before or after it.
import Type from 'typebox';
import type { Position } from '../db/keyset.ts';
import { ValidationError } from '../errors.ts';

export const MAX_PAGE_SIZE = 100;

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 })),
  cursor: Type.Optional(
    Type.String({ maxLength: 500, description: 'Opaque; from the `next` link of the previous page.' }),
  ),
};

export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): Position | undefined {
  if (cursor === undefined) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof at === 'string' && typeof id === 'string') return { at, id };
  } catch {
    // reported below
  }
  throw new ValidationError([{ target: 'cursor', code: 'invalid', expected: 'cursor' }]);
}

/**
 * Cuts a page from rows fetched with one row more than `limit`: that extra row only says
 * that another page follows, which then starts after the page's last row.
 */
export function pageOf<T>(
  rows: readonly T[],
  limit: number,
  positionOf: (row: T) => Position,
): { rows: T[]; next: Position | undefined } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, next: rows.length > limit && last !== undefined ? positionOf(last) : undefined };
}

/** The URL of the next page: the request's own URL with `cursor` replaced. */
export function nextLink(baseUrl: string, requestUrl: string, position: Position): string {
  const url = new URL(requestUrl, baseUrl);
  url.searchParams.set('cursor', encodeCursor(position));
  return `${baseUrl}${url.pathname}${url.search}`;
}
