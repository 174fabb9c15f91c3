// Addresses and postal codes from their PostgreSQL reference schema, one statement each.
import { CompiledQuery } from 'kysely';
import { escapeLiteral } from 'pg';
import { tieredKeys, tsquery } from '../search/postgres-tiers.repository.ts';
import type { ReferenceSchemas } from '../store/reference-schemas.repository.ts';
import type { Page, Row } from '../store/rows.ts';
import type { AddressQuery, AddressReader } from './address-reader.ts';
import { addressTiers, byStreets } from './postgres-streets.repository.ts';

export class PostgresAddressReader implements AddressReader {
  readonly #schemas: ReferenceSchemas;

  constructor(schemas: ReferenceSchemas) {
    this.#schemas = schemas;
  }

  /**
   * The words of house and box numbers (postgres-streets.repository.ts), sorted; the search statement
   * checks its street words against the current ones all the same. Undefined for a schema
   * imported before streets were kept: searched without them.
   */
  #houseTerms(): Promise<string[] | undefined> {
    return this.#schemas.hint('addresses', 'house_term', (schema) =>
      this.#schemas.db
        .executeQuery<{ term: string }>(CompiledQuery.raw(`select term from "${schema}".house_term`))
        .then(({ rows }) => rows.map(({ term }) => term).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
        .catch(() => undefined),
    );
  }

  async address(id: string): Promise<Row | undefined> {
    return (await this.#schemas.query('addresses', (s) => `select * from ${s}.address where id = $1 limit 1`, [id]))[0];
  }

  async searchAddresses(query: AddressQuery): Promise<Row[]> {
    const filters: string[] = [];
    if (query.zipcode) filters.push(`and zipcode = ${escapeLiteral(query.zipcode)}`);
    if (query.municipality?.length) {
      filters.push(`and place @@ ${tsquery(query.municipality.map((word) => `${word}:*`).join(' & '))}`);
    }
    const frequencies = await this.#schemas.termFrequencies('addresses', 'address_search');
    const houseTerms = await this.#houseTerms();
    const conditions = addressTiers(query.words, frequencies, query, filters.join(' '), houseTerms);
    return this.#schemas.query(
      'addresses',
      (s) => `select a.* from
        (${tieredKeys('seq', `${s}.address_search`, conditions, query, houseTerms && byStreets(s))}) m
      join ${s}.address a on a.seq = m.seq order by m.tier, m.seq`,
      [],
    );
  }

  async postalCodes(words: readonly string[], page: Page): Promise<Row[]> {
    const where = words.map((_, i) => `(' ' || search) like '% ' || $${i + 3} || '%'`).join(' and ') || 'true';
    return this.#schemas.query(
      'addresses',
      (s) => `select * from ${s}.postal_code where ${where}
      order by zipcode, postname_nl, postname_fr limit $1 offset $2`,
      [page.limit, page.offset, ...words.map(escapeLike)],
    );
  }
}

/** Words are letters and digits, but `_` and `%` must never act as wildcards. */
function escapeLike(word: string): string {
  return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}
