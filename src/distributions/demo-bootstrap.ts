// PLACEHOLDER (to be completed): on a first start with an empty database, create a demo
// distribution and token and print a ready-to-paste curl.
import type { DatabaseHandle } from '../db/database.ts';
import type { Config } from '../config.ts';

export async function bootstrapDemo(_database: DatabaseHandle, _config: Config, _log: unknown): Promise<void> {}
