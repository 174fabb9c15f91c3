// The reference databases' routes (docs/design.md section 6), registered by app.ts in one
// line. Each data set's reader is the dialect's: a SQLite file of its own, or a PostgreSQL
// schema of its own.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { PostgresAddressReader } from './addresses/address-postgres.repository.ts';
import type { AddressReader } from './addresses/address-reader.ts';
import { SqliteAddressReader } from './addresses/address-sqlite.repository.ts';
import { addressRoutes } from './addresses/address.routes.ts';
import { PostgresEnterpriseReader } from './enterprises/enterprise-postgres.repository.ts';
import type { EnterpriseReader } from './enterprises/enterprise-reader.ts';
import { SqliteEnterpriseReader } from './enterprises/enterprise-sqlite.repository.ts';
import { enterpriseRoutes } from './enterprises/enterprise.routes.ts';
import { ReferenceSchemas } from './store/reference-schemas.repository.ts';
import { ReferenceFile } from './store/reference-file.repository.ts';
import { liveFile } from './store/sqlite-files.ts';
import { PostgresVehicleReader } from './vehicles/vehicle-postgres.repository.ts';
import type { VehicleReader } from './vehicles/vehicle-reader.ts';
import { SqliteVehicleReader } from './vehicles/vehicle-sqlite.repository.ts';
import { vehicleRoutes } from './vehicles/vehicle.routes.ts';

interface Readers {
  readonly enterprises: EnterpriseReader;
  readonly addresses: AddressReader;
  readonly vehicles: VehicleReader;
}

export async function registerReferenceData(
  app: FastifyInstance,
  config: Config,
  database: DatabaseHandle,
): Promise<void> {
  const readers = database.dialect === 'sqlite' ? sqliteReaders(app, config.dataDir) : postgresReaders(database);
  const options = { prefix: '/v1/api', publicUrl: config.publicUrl };
  await app.register(enterpriseRoutes, { ...options, reader: readers.enterprises });
  await app.register(addressRoutes, { ...options, reader: readers.addresses });
  await app.register(vehicleRoutes, { ...options, reader: readers.vehicles });
}

function sqliteReaders(app: FastifyInstance, dataDir: string): Readers {
  const files = {
    enterprises: new ReferenceFile(liveFile(dataDir, 'enterprises')),
    addresses: new ReferenceFile(liveFile(dataDir, 'addresses')),
    vehicles: new ReferenceFile(liveFile(dataDir, 'vehicles')),
  };
  app.addHook('onClose', async () => {
    for (const file of Object.values(files)) file.close();
  });
  return {
    enterprises: new SqliteEnterpriseReader(files.enterprises),
    addresses: new SqliteAddressReader(files.addresses),
    vehicles: new SqliteVehicleReader(files.vehicles),
  };
}

function postgresReaders(database: DatabaseHandle): Readers {
  const schemas = new ReferenceSchemas(database.db);
  return {
    enterprises: new PostgresEnterpriseReader(schemas),
    addresses: new PostgresAddressReader(schemas),
    vehicles: new PostgresVehicleReader(schemas),
  };
}
