// VIN decoding per ISO 3779: 17 characters from 0-9 and A-Z without I, O and Q; the world
// manufacturer identifier (1-3, ISO 3780) gives region, country and maker; position 10
// gives the model year in a 30-year cycle (so two candidates); position 9 is a check digit
// only for North American VINs (49 CFR 565), elsewhere it is free.
import { manufacturerOf, type Manufacturer } from './world-manufacturers.ts';

export interface DecodedVin {
  readonly vin: string;
  readonly wmi: string;
  readonly vds: string;
  readonly vis: string;
  readonly manufacturer: Manufacturer | undefined;
  readonly region: string | null;
  readonly country: string | null;
  readonly model_year: number[];
  readonly check_digit: { readonly applies: boolean; readonly valid: boolean | null };
}

export type VinProblem = 'length' | 'characters';

/** Normalises (trim, upper case) and checks the structure: a problem, or the VIN. */
export function checkVin(text: string): { vin: string } | { problem: VinProblem } {
  const vin = text.trim().toUpperCase();
  if (vin.length !== 17) return { problem: 'length' };
  if (!/^[A-HJ-NPR-Z0-9]{17}$/.test(vin)) return { problem: 'characters' };
  return { vin };
}

const YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789';

/** Both years a position-10 code can mean (1980-2009 and 2010-2039 cycles); none for 0, U, Z. */
export function modelYears(code: string): number[] {
  const index = YEAR_CODES.indexOf(code);
  return index === -1 ? [] : [1980 + index, 2010 + index];
}

const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

/** 49 CFR 565.15 transliteration: A=1 ... H=8, J=1 ... R=9, S=2 ... Z=9. */
const VALUES: Readonly<Record<string, number>> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};

/** The check character (0-9 or X) computed from all other positions. */
export function checkCharacter(vin: string): string {
  const sum = [...vin].reduce((total, char, i) => total + (VALUES[char] ?? Number(char)) * WEIGHTS[i]!, 0);
  const remainder = sum % 11;
  return remainder === 10 ? 'X' : String(remainder);
}

/** ISO 3780 regions by the first character. */
function regionOf(first: string): string | null {
  if (first >= 'A' && first <= 'H') return 'Africa';
  if (first >= 'J' && first <= 'R') return 'Asia';
  if (first >= 'S' && first <= 'Z') return 'Europe';
  if (first >= '1' && first <= '5') return 'North America';
  if (first === '6' || first === '7') return 'Oceania';
  if (first === '8' || first === '9') return 'South America';
  return null;
}

/** Countries by the first two characters: ISO 3780 ranges of the second character, in its order A-Z then 1-9, 0. */
const ORDER = 'ABCDEFGHJKLMNPRSTUVWXYZ1234567890';
const COUNTRIES: readonly (readonly [string, string, string])[] = [
  ['AA', 'AH', 'South Africa'],
  ['JA', 'J0', 'Japan'],
  ['KL', 'KR', 'South Korea'],
  ['LA', 'L0', 'China'],
  ['MA', 'ME', 'India'],
  ['NL', 'NR', 'Turkey'],
  ['PL', 'PR', 'Malaysia'],
  ['SA', 'SM', 'United Kingdom'],
  ['SN', 'ST', 'Germany'],
  ['SU', 'SZ', 'Poland'],
  ['TA', 'TH', 'Switzerland'],
  ['TJ', 'TP', 'Czech Republic'],
  ['TR', 'TV', 'Hungary'],
  ['TW', 'T1', 'Portugal'],
  ['UH', 'UM', 'Denmark'],
  ['UN', 'UT', 'Ireland'],
  ['UU', 'UZ', 'Romania'],
  ['U5', 'U7', 'Slovakia'],
  ['VA', 'VE', 'Austria'],
  ['VF', 'VR', 'France'],
  ['VS', 'VW', 'Spain'],
  ['VX', 'V2', 'Serbia'],
  ['V3', 'V5', 'Croatia'],
  ['V6', 'V0', 'Estonia'],
  ['WA', 'W0', 'Germany'],
  ['XA', 'XE', 'Bulgaria'],
  ['XF', 'XK', 'Greece'],
  ['XL', 'XR', 'Netherlands'],
  ['XS', 'XW', 'Russia'],
  ['XX', 'X2', 'Luxembourg'],
  ['X3', 'X0', 'Russia'],
  ['YA', 'YE', 'Belgium'],
  ['YF', 'YK', 'Finland'],
  ['YS', 'YW', 'Sweden'],
  ['YX', 'Y2', 'Norway'],
  ['ZA', 'ZR', 'Italy'],
  ['ZX', 'Z2', 'Slovenia'],
  ['1A', '10', 'United States'],
  ['2A', '20', 'Canada'],
  ['3A', '3W', 'Mexico'],
  ['4A', '40', 'United States'],
  ['5A', '50', 'United States'],
  ['6A', '6W', 'Australia'],
  ['7A', '7E', 'New Zealand'],
  ['8A', '8E', 'Argentina'],
  ['9A', '9E', 'Brazil'],
];

function countryOf(wmi: string): string | null {
  const second = ORDER.indexOf(wmi[1]!);
  const found = COUNTRIES.find(
    ([from, to]) => from[0] === wmi[0] && ORDER.indexOf(from[1]!) <= second && second <= ORDER.indexOf(to[1]!),
  );
  return found?.[2] ?? null;
}

export function decodeVin(vin: string): DecodedVin {
  const applies = vin[0]! >= '1' && vin[0]! <= '5';
  return {
    vin,
    wmi: vin.slice(0, 3),
    vds: vin.slice(3, 9),
    vis: vin.slice(9),
    manufacturer: manufacturerOf(vin.slice(0, 3)),
    region: regionOf(vin[0]!),
    country: countryOf(vin),
    model_year: modelYears(vin[9]!),
    check_digit: { applies, valid: applies ? checkCharacter(vin) === vin[8] : null },
  };
}
