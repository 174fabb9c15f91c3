// What the address routes read, on either dialect (address-sqlite.repository.ts,
// address-postgres.repository.ts).
import type { Page, Row } from '../store/rows.ts';

export interface AddressQuery extends Page {
  readonly words: readonly string[];
  readonly zipcode?: string;
  readonly municipality?: readonly string[];
}

export interface AddressReader {
  address(id: string): Promise<Row | undefined>;
  searchAddresses(query: AddressQuery): Promise<Row[]>;
  postalCodes(words: readonly string[], page: Page): Promise<Row[]>;
}
