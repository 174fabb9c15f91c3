// Addresses and postal codes from their SQLite reference file (store/reference-file.repository.ts).
import { ftsAllPrefixes, ftsTier, searchTiers } from '../search/search-tiers.ts';
import { matching, prefixTerms, tiered } from '../search/sqlite-tiers.repository.ts';
import type { Page, Row } from '../store/rows.ts';
import { type ReferenceFile, row, rows } from '../store/reference-file.repository.ts';
import type { AddressQuery, AddressReader } from './address-reader.ts';
import { houseTerms, streetTier } from './sqlite-streets.repository.ts';

export class SqliteAddressReader implements AddressReader {
  readonly #file: ReferenceFile;

  constructor(file: ReferenceFile) {
    this.#file = file;
  }

  async address(id: string): Promise<Row | undefined> {
    return row(this.#file.snapshot()('select * from address where id = ? limit 1'), id);
  }

  async searchAddresses(query: AddressQuery): Promise<Row[]> {
    const statement = this.#file.snapshot();
    const terms = prefixTerms(statement, 'address_search');
    let filters = query.zipcode ? ` AND zipcode : "${query.zipcode}"` : '';
    if (query.municipality?.length) filters += ` AND ${ftsAllPrefixes(query.municipality, 'place', terms)}`;
    const byIndex = matching(
      statement(`select a.* from (select rowid as r from address_search where address_search match ? limit ?) s
        cross join address a on a.seq = s.r`),
      (tier) => ftsTier(tier, undefined, terms) + filters,
    );
    const houseWords = this.#file.derived('house terms', statement, houseTerms);
    return tiered(
      searchTiers(query.words),
      (tier, wanted) =>
        (houseWords && streetTier(statement, tier, filters, terms, houseWords, wanted)) ?? byIndex(tier, wanted),
      query,
      'seq',
    );
  }

  async postalCodes(words: readonly string[], page: Page): Promise<Row[]> {
    const where = words.map(() => `(' ' || search) like '% ' || ? || '%'`).join(' and ') || '1';
    return rows(
      this.#file.snapshot()(
        `select * from postal_code where ${where} order by zipcode, postname_nl, postname_fr limit ? offset ?`,
      ),
      ...words,
      page.limit,
      page.offset,
    );
  }
}
