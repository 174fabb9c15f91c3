// The three reference databases by the name the CLI and the status use.
import type { ReferenceSourceDefinition, SourceName } from './reference-source.ts';
import { enterpriseSource } from './sources/kbo.ts';
import { addressSource } from './sources/best.ts';
import { vehicleSource } from './sources/eea.ts';

export const SOURCE_DEFINITIONS: Readonly<Record<SourceName, ReferenceSourceDefinition>> = {
  enterprises: enterpriseSource,
  addresses: addressSource,
  vehicles: vehicleSource,
};
