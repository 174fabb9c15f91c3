// What the enterprise routes read, on either dialect (enterprise-sqlite.repository.ts,
// enterprise-postgres.repository.ts): one snapshot each, so an enterprise's rows come from one version
// of the data even when an import swaps in the middle of the request.
import type { Page, Row } from '../store/rows.ts';

export interface EnterpriseQuery extends Page {
  readonly words?: readonly string[];
  /** Ranges of ten-digit numbers (as integers) when the query is a number being typed. */
  readonly numberRanges?: readonly (readonly [number, number])[];
  readonly zipcode?: string;
}

/** Code descriptions are asked in this language first (KBO codes: NL, FR, DE, EN). */
export type CodeLanguage = 'NL' | 'FR' | 'DE' | 'EN';

export interface EnterpriseSummaryRows {
  readonly enterprise: Row;
  readonly names: readonly Row[];
  readonly address: Row | undefined;
}

export interface EnterpriseRows extends EnterpriseSummaryRows {
  readonly addresses: readonly Row[];
  readonly contacts: readonly Row[];
  readonly activities: readonly Row[];
  readonly establishment_count: number;
}

export interface EnterpriseReader {
  enterprise(number: number, language: CodeLanguage): Promise<EnterpriseRows | undefined>;
  searchEnterprises(query: EnterpriseQuery, language: CodeLanguage): Promise<EnterpriseSummaryRows[]>;
}
