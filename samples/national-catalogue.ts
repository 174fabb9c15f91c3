// The car catalogue a continent registers, for EEA data at full scale (the benchmark): the
// 20 cars of belgian-names.ts are a good sample, but stretched over 300,000 versions they
// would give each model 15,000 versions, each equally common, and no search would face the
// real shape. Here, as in the published files: some 45 makes, about 700 models of
// Zipf-spread popularity (a Golf has thousands of versions, most models a few dozen), each
// version with its own type approval codes, power and fuel, and registrations that pile up
// on a few popular versions while most are registered a handful of times. Model names are
// composed (real ones first, for the makes that have them in belgian-names.ts), not real.
// Deterministic for a seed.
import { CARS } from './belgian-names.ts';
import { type Random, zipf } from './national-vocabulary.ts';

export interface CatalogueVersion {
  readonly make: string;
  readonly model: string;
  readonly type: string;
  readonly variant: string;
  readonly version: string;
  readonly fuel: string;
  readonly fuelMode: string;
  readonly cc: number | null;
  readonly kw: number;
  readonly mass: number;
  readonly co2: number;
  readonly range: number | null;
}

interface Model {
  readonly make: string;
  readonly name: string;
  readonly type: string;
  readonly fuels: readonly string[];
  readonly cc: number;
  readonly kw: number;
  readonly mass: number;
  readonly co2: number;
}

const MAKES = [
  'VOLKSWAGEN', 'BMW', 'RENAULT', 'PEUGEOT', 'TOYOTA', 'TESLA', 'SKODA', 'MERCEDES-BENZ', 'VOLVO', 'KIA', 'CITROEN',
  'AUDI', 'OPEL', 'FORD', 'HYUNDAI', 'DACIA', 'FIAT', 'NISSAN', 'SEAT', 'CUPRA', 'MINI', 'MAZDA', 'SUZUKI', 'MG',
  'JEEP', 'LAND ROVER', 'PORSCHE', 'POLESTAR', 'HONDA', 'LEXUS', 'MITSUBISHI', 'DS', 'ALFA ROMEO', 'JAGUAR', 'BYD',
  'SUBARU', 'SMART', 'LYNK & CO', 'ABARTH', 'MASERATI', 'FERRARI', 'LAMBORGHINI', 'BENTLEY', 'ALPINE', 'LANCIA',
];
const FUELS = ['petrol', 'diesel', 'petrol/electric', 'electric', 'diesel/electric', 'lpg'];
const SYLLABLES = ['KA', 'RO', 'TI', 'VA', 'LE', 'ON', 'AS', 'TRA', 'COR', 'SA', 'NO', 'VEL', 'MI', 'GRA', 'DO', 'RA',
  'ZE', 'PO', 'LA', 'QUA', 'SE', 'TO', 'NA', 'RI', 'VI', 'XO', 'BA', 'LO', 'ME', 'CA'];

const letters = (n: number) => String.fromCharCode(65 + (n % 26)) + (n >= 26 ? String.fromCharCode(65 + Math.floor(n / 26) % 26) : '');

function composedName(r: Random): string {
  switch (r.int(4)) {
    case 0: // Q5, X3, C40
      return `${letters(r.int(26))}${1 + r.int(r.int(2) === 0 ? 9 : 90)}`;
    case 1: // 208, 3008
      return String(100 * (1 + r.int(9)) + r.int(10) * (r.int(2) === 0 ? 1 : 1000) + 8);
    default: // ASTRA, KAROQ
      return Array.from({ length: 2 + r.int(2) }, () => r.pick(SYLLABLES)).join('') + (r.int(3) === 0 ? r.pick(['', ' SPORT', ' CROSS', ' E']) : '');
  }
}

/** About 700 models, most popular first: the 20 real cars of belgian-names.ts lead. */
function models(r: Random): Model[] {
  const list: Model[] = CARS.map(([make, name, type, fuel, cc, kw, mass, co2]) => ({
    make,
    name,
    type,
    fuels: [fuel],
    cc: cc ?? 0,
    kw,
    mass,
    co2,
  }));
  const seen = new Set(list.map((model) => `${model.make} ${model.name}`));
  while (list.length < 700) {
    const make = MAKES[zipf(r, MAKES.length, 0.8)]!;
    const name = composedName(r);
    if (seen.has(`${make} ${name}`)) continue;
    seen.add(`${make} ${name}`);
    const fuels = FUELS.filter(() => r.int(3) === 0);
    list.push({
      make,
      name,
      type: `${letters(r.int(26))}${r.int(10)}${r.int(2) === 0 ? letters(r.int(26)) : ''}`,
      fuels: fuels.length > 0 ? fuels : [r.pick(FUELS)],
      cc: 999 + r.int(2000),
      kw: 50 + r.int(200),
      mass: 1000 + r.int(1300),
      co2: 90 + r.int(100),
    });
  }
  return list;
}

/**
 * `count` distinct versions, grouped by model, models in order of popularity (the first
 * ones get the most versions, as a Golf has): `byModel[m]` holds model m's versions.
 */
export function catalogue(r: Random, count: number): CatalogueVersion[][] {
  const all = models(r);
  const weights = all.map((_, m) => 1 / (m + 1) ** 0.9);
  const total = weights.reduce((sum, w) => sum + w, 0);
  return all.map((model, m) => {
    const versions = Math.max(1, Math.round((count * weights[m]!) / total));
    return Array.from({ length: versions }, (_, n): CatalogueVersion => {
      const fuel = model.fuels[n % model.fuels.length]!;
      const electric = fuel === 'electric';
      const plugIn = fuel.endsWith('/electric');
      const variant = `${model.type}${letters(Math.floor(n / 7) % 676)}`;
      const kw = model.kw + (n % 13) * 10;
      return {
        make: model.make,
        model: model.name,
        type: model.type,
        variant,
        version: `${variant}${n.toString(36).toUpperCase().padStart(3, '0')}`,
        fuel,
        fuelMode: plugIn ? 'P' : electric ? 'E' : 'M',
        cc: electric ? null : model.cc + (n % 5) * 100,
        kw,
        mass: model.mass + (n % 20) * 15,
        co2: electric ? 0 : plugIn ? 20 + (n % 30) : model.co2 + (n % 25),
        range: electric ? 300 + (n % 30) * 10 : plugIn ? 40 + (n % 40) : null,
      };
    });
  });
}

/** A version as rows of a file meet them: popular models, and their popular versions, far more often. */
export function registeredVersion(r: Random, byModel: readonly (readonly CatalogueVersion[])[]): CatalogueVersion {
  const versions = byModel[zipf(r, byModel.length)]!;
  return versions[zipf(r, versions.length)]!;
}
