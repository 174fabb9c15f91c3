// What the vehicle routes read, on either dialect (vehicle-sqlite.repository.ts,
// vehicle-postgres.repository.ts).
import type { Page, Row } from '../store/rows.ts';

export interface VersionQuery extends Page {
  readonly brand?: string;
  readonly model?: string;
  readonly fuel?: string;
  readonly year?: number;
  readonly words?: readonly string[];
}

export interface VehicleReader {
  brands(page: Page): Promise<Row[]>;
  models(brand: string, page: Page): Promise<Row[] | undefined>;
  versions(query: VersionQuery): Promise<Row[]>;
  version(id: string): Promise<Row | undefined>;
  brandOf(candidates: readonly string[]): Promise<string | undefined>;
}
