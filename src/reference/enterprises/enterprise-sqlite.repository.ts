// Enterprises from their SQLite reference file (store/reference-file.repository.ts).
import { ftsTier, searchTiers } from '../search/search-tiers.ts';
import { matching, prefixTerms, tiered } from '../search/sqlite-tiers.repository.ts';
import type { Row } from '../store/rows.ts';
import { type ReferenceFile, row, rows, type Statements } from '../store/reference-file.repository.ts';
import type {
  CodeLanguage,
  EnterpriseQuery,
  EnterpriseReader,
  EnterpriseRows,
  EnterpriseSummaryRows,
} from './enterprise-reader.ts';

const JURIDICAL_FORM = `(select description from code c where c.category = 'JuridicalForm' and c.code = e.juridical_form
  order by c.language = ? desc, c.language = 'FR' desc limit 1) as juridical_form_description`;

export class SqliteEnterpriseReader implements EnterpriseReader {
  readonly #file: ReferenceFile;

  constructor(file: ReferenceFile) {
    this.#file = file;
  }

  async enterprise(number: number, language: CodeLanguage): Promise<EnterpriseRows | undefined> {
    const statement = this.#file.snapshot();
    const enterprise = row(
      statement(`select e.*, ${JURIDICAL_FORM} from enterprise e where number = ?`),
      language,
      number,
    );
    if (!enterprise) return undefined;
    const names = rows(
      statement('select language, type, name from denomination where number = ? order by rowid'),
      number,
    );
    const addresses = rows(statement('select * from address where number = ? order by rowid'), number);
    return {
      enterprise,
      names,
      address: addresses.find((address) => address.type === 'REGO'),
      addresses,
      contacts: rows(statement('select type, value from contact where number = ? order by rowid'), number),
      activities: rows(
        statement(`select a.*, (select description from code c where c.category = 'Nace' || a.nace_version
          and c.code = a.nace_code order by c.language = ? desc, c.language = 'FR' desc limit 1) as description
        from activity a where number = ? order by a.classification = 'MAIN' desc, a.nace_version desc, a.rowid`),
        language,
        number,
      ),
      establishment_count: Number(
        row(statement('select count(*) as n from establishment where number = ?'), number)?.n ?? 0,
      ),
    };
  }

  async searchEnterprises(query: EnterpriseQuery, language: CodeLanguage): Promise<EnterpriseSummaryRows[]> {
    const statement = this.#file.snapshot();
    let numbers: Row[];
    if (query.numberRanges) {
      const ranges = query.numberRanges.map(() => 'number between ? and ?').join(' or ');
      const zip = query.zipcode
        ? `and exists (select 1 from address a where a.number = e.number and a.type = 'REGO' and a.zipcode = ?)`
        : '';
      numbers = rows(
        statement(`select number from enterprise e where (${ranges}) ${zip} order by number limit ? offset ?`),
        ...query.numberRanges.flat(),
        ...(query.zipcode ? [query.zipcode] : []),
        query.limit,
        query.offset,
      );
    } else {
      const zip = query.zipcode ? ` AND zipcode : "${query.zipcode}"` : '';
      const terms = prefixTerms(statement, 'enterprise_search');
      numbers = tiered(
        searchTiers(query.words ?? []),
        matching(
          statement('select rowid as number from enterprise_search where enterprise_search match ? limit ?'),
          (tier) => ftsTier(tier, 'names', terms) + zip,
        ),
        query,
        'number',
      );
    }
    return summaries(
      statement,
      numbers.map(({ number }) => Number(number)),
      language,
    );
  }
}

/** The summaries of a page of enterprises, in the page's order: three statements a page, not three a row. */
function summaries(statement: Statements, numbers: readonly number[], language: CodeLanguage): EnterpriseSummaryRows[] {
  if (numbers.length === 0) return [];
  const list = JSON.stringify(numbers);
  const page = 'json_each(?) j cross join';
  // Every denomination, in the detail's order: the name a summary shows is chosen from the
  // same rows as the detail's (an enterprise may have only a commercial name, 003).
  const names = Map.groupBy(
    rows(
      statement(`select d.number, d.language, d.type, d.name from ${page} denomination d on d.number = j.value
          order by j.key, d.rowid`),
      list,
    ),
    (name) => name.number,
  );
  // The first registered-office address of each, as `limit 1` over the number index reads it.
  const addresses = new Map(
    rows(
      statement(`select a.* from ${page} address a on a.rowid = (select min(rowid) from address
          where number = j.value and type = 'REGO')`),
      list,
    ).map((address) => [address.number, address]),
  );
  const enterprises = rows(
    statement(`select e.*, ${JURIDICAL_FORM} from ${page} enterprise e on e.number = j.value order by j.key`),
    language,
    list,
  );
  return enterprises.map((enterprise) => ({
    enterprise,
    names: (names.get(enterprise.number) ?? []).map(({ number: _, ...name }) => name),
    address: addresses.get(enterprise.number),
  }));
}
