// The three reference databases by the name the CLI and the status use: each one's source
// (the parser of its published files) and what each dialect builds from its rows.
import { addressIndexes } from './addresses/address-indexes.repository.ts';
import { addressSource } from './addresses/best.ts';
import { enterpriseIndexes } from './enterprises/enterprise-indexes.repository.ts';
import { enterpriseSource } from './enterprises/kbo.ts';
import type { ReferenceSourceDefinition, SourceName } from './import/reference-source.ts';
import type { DataSetIndexes } from './store/staging.ts';
import { vehicleSource } from './vehicles/eea.ts';
import { vehicleIndexes } from './vehicles/vehicle-indexes.repository.ts';

export const SOURCE_DEFINITIONS: Readonly<Record<SourceName, ReferenceSourceDefinition>> = {
  enterprises: enterpriseSource,
  addresses: addressSource,
  vehicles: vehicleSource,
};

export const DATA_SET_INDEXES: Readonly<Record<SourceName, DataSetIndexes>> = {
  enterprises: enterpriseIndexes,
  addresses: addressIndexes,
  vehicles: vehicleIndexes,
};
