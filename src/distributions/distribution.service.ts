// Distributions are the tenants every lead, party and token belongs to. Administered
// from the CLI for now (docs/design.md section 1, `lead-intake distribution ...`).
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DistributionTable } from './distribution.table.ts';
import { findDistribution, insertDistribution } from './distribution.repository.ts';

export class UnknownDistributionError extends Error {
  readonly distributionId: string;
  constructor(distributionId: string) {
    super(`unknown distribution ${JSON.stringify(distributionId)}`);
    this.name = 'UnknownDistributionError';
    this.distributionId = distributionId;
  }
}

export async function createDistribution(db: Kysely<Database>, name: string): Promise<DistributionTable> {
  const trimmed = name.trim();
  if (trimmed === '') throw new RangeError('a distribution needs a non-empty name');
  return db.transaction().execute((trx) => insertDistribution(trx, trimmed));
}

/** The distribution, or UnknownDistributionError. */
export async function requireDistribution(db: Kysely<Database>, id: string): Promise<DistributionTable> {
  const distribution = await findDistribution(db, id);
  if (!distribution) throw new UnknownDistributionError(id);
  return distribution;
}
