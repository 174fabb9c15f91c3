// The reference databases' routes (docs/design.md section 6), registered by app.ts in one line.
// The reader is the dialect's: SQLite files of their own, or PostgreSQL schemas.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { enterpriseRoutes } from './routes/enterprise.routes.ts';
import { addressRoutes } from './routes/address.routes.ts';
import { vehicleRoutes } from './routes/vehicle.routes.ts';
import { SqliteReferenceReader } from './store/sqlite-reader.ts';
import { PostgresReferenceReader } from './store/postgres-reader.ts';

export async function registerReferenceData(
  app: FastifyInstance,
  config: Config,
  database: DatabaseHandle,
): Promise<void> {
  const sqlite = database.dialect === 'sqlite' ? new SqliteReferenceReader(config.dataDir) : undefined;
  const reader = sqlite ?? new PostgresReferenceReader(database.db);
  if (sqlite) app.addHook('onClose', async () => sqlite.close());
  const options = { prefix: '/v1/api', reader, publicUrl: config.publicUrl };
  await app.register(enterpriseRoutes, options);
  await app.register(addressRoutes, options);
  await app.register(vehicleRoutes, options);
}
