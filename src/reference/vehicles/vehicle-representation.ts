// Stored car versions as the API shows them (docs/design.md section 6).
import { type Row, storedText } from '../store/rows.ts';

const integer = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function versionItem(row: Row) {
  return {
    id: String(row.id),
    brand: String(row.brand),
    model: String(row.model),
    type: storedText(row.type),
    variant: storedText(row.variant),
    version: storedText(row.version),
    fuel: storedText(row.fuel),
    fuel_mode: storedText(row.fuel_mode),
    engine_cc: integer(row.engine_cc),
    power_kw: integer(row.power_kw),
    mass_kg: integer(row.mass_kg),
    co2_wltp: integer(row.co2_wltp),
    electric_range_km: integer(row.electric_range_km),
    years: JSON.parse(String(row.years)) as number[],
    registrations: Number(row.registrations),
  };
}
