// What every reference read hands back: rows as the database gives them, a page at a time.
export type Row = Record<string, unknown>;

export interface Page {
  readonly offset: number;
  /** One more than the page size is asked for: it says whether a next page exists. */
  readonly limit: number;
}

/** A stored value as the API shows text: null stays null. */
export const storedText = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);
