// What a first start adds to a database outside production (NODE_ENV unset): the demo
// distribution with its token and broker (distributions/demo-bootstrap.ts) and the sample
// reference data (reference/demo-samples.ts), so a newcomer can push and look up at once.
// Once per start, whatever the number of processes about to serve.
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { bootstrapDemo, type BootstrapLog } from './distributions/demo-bootstrap.ts';
import { importSamplesIfEmpty, type SampleLog } from './reference/demo-samples.ts';

export async function addDemoData(
  database: DatabaseHandle,
  config: Config,
  log: BootstrapLog & SampleLog,
): Promise<void> {
  if (config.production) return;
  await bootstrapDemo(database, config, log);
  await importSamplesIfEmpty(database, config, log);
}
