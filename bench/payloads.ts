// Push bodies for the load scenarios. Each factory returns a fresh JSON text per call, so
// every request of a run carries its own refs and ids, as distinct leads from a broker
// platform would.
import { randomUUID } from 'node:crypto';

export type Scenario = 'minimal' | 'full' | 'merge' | 'webhook' | 'listing';

export type BodyFactory = () => string;

const COMPANY = 'bench-crm';

/**
 * (a) the smallest customer push that makes a new lead: names and one external ref.
 * `prefix` keeps refs unique across runs against the same database.
 */
export function minimalBodies(prefix: string): BodyFactory {
  let n = 0;
  return () => JSON.stringify(minimalBody(`${prefix}-${n++}`));
}

function minimalBody(ref: string, extra: Record<string, unknown> = {}) {
  return {
    origin: 'bench',
    prospect: {
      first_name: 'Jan',
      last_name: 'Peeters',
      ...extra,
      external_refs: [{ external_ref: ref, external_ref_company: COMPANY }],
    },
  };
}

/** (d) scenario (a) with a callback URL on each lead: every push also writes a webhook event. */
export function webhookBodies(prefix: string, callbackUrl: string): BodyFactory {
  let n = 0;
  return () => JSON.stringify(minimalBody(`${prefix}-${n++}`, { callbacks: [callbackUrl] }));
}

/** The telephone number the leads of (c) and (e) are created with, which (e) keeps. */
const SEEDED_TELEPHONE = '+32 9 000 00 00';

/** The leads scenario (c) merges into: `count` minimal pushes, refs 0..count-1 in order. */
export function mergeTargetBodies(prefix: string): BodyFactory {
  let n = 0;
  return () => JSON.stringify(minimalBody(`${prefix}-merge-${n++}`, { telephonenr: SEEDED_TELEPHONE }));
}

/** Pushes to the existing leads round-robin by external ref, the i-th with the fields `changeOf(i)`. */
function roundRobinMerges(
  prefix: string,
  leads: number,
  changeOf: (i: number) => Record<string, unknown>,
): BodyFactory {
  let n = 0;
  return () => {
    const i = n++;
    return JSON.stringify(minimalBody(`${prefix}-merge-${i % leads}`, changeOf(i)));
  };
}

/** (c) pushes to the existing leads round-robin by external ref, each with a new phone number. */
export function mergeBodies(prefix: string, leads: number): BodyFactory {
  return roundRobinMerges(prefix, leads, (i) => ({ telephonenr: `+32 ${String(i % 1_000_000_000).padStart(9, '0')}` }));
}

/**
 * (e) pushes to the existing leads round-robin, each with a new birth date: a re-sync that
 * changes the lead but none of its search words (the telephone number stays the seeded one).
 */
export function resyncBodies(prefix: string, leads: number): BodyFactory {
  return roundRobinMerges(prefix, leads, (i) => ({
    telephonenr: SEEDED_TELEPHONE,
    birth: new Date(Date.UTC(1940, 0, 1) + (i % 20_000) * 86_400_000).toISOString().slice(0, 10),
  }));
}

/** (b) a full customer push: 3 cars, 2 policy packages, 6 policies with 3 coverages each. */
export function fullBodies(prefix: string): BodyFactory {
  let n = 0;
  return () => {
    const i = n++;
    const ref = `${prefix}-${i}`;
    const cars = [0, 1, 2].map((c) => ({
      id: randomUUID(),
      vin: vin(i * 3 + c),
      brand: 'Volkswagen',
      model: ['Golf', 'Polo', 'Passat'][c],
      license_plate: `1-ABC-${String(c).padStart(3, '0')}`,
      first_registration: '2021-03-15',
      fuel_type: 'PETROL',
      kw: 85,
      value: '24500.00',
    }));
    const packages = [0, 1].map((p) => ({
      id: randomUUID(),
      name: p === 0 ? 'Family' : 'Mobility',
      package_nr: `PK-${ref}-${p}`,
      insurance_company: 'Example Insurance',
      premium: '899.95',
      payment_interval: 'ANNUAL',
    }));
    const policies = [0, 1, 2, 3, 4, 5].map((k) => ({
      name: `Policy ${k}`,
      policy_nr: `P-${ref}-${k}`,
      policy_package_id: packages[k % 2]!.id,
      type: 'ACTIVE',
      insurance_company: 'Example Insurance',
      premium: '320.00',
      payment_interval: 'MONTHLY',
      external_refs: [{ ref: `pol-${ref}-${k}`, company: COMPANY }],
      coverages: [0, 1, 2].map((v) => ({
        name: ['Third-party liability', 'Omnium', 'Legal aid'][v],
        risk_object_id: cars[(k + v) % 3]!.id,
        insured_value: 25000,
        premium: '106.67',
        payment_interval: 'MONTHLY',
        external_label: { label: `L${v}`, type: 'AFD' },
      })),
    }));
    return JSON.stringify({
      origin: 'bench',
      backref: `https://crm.example.com/contacts/${ref}`,
      source: 'bench',
      prospect: {
        first_name: 'Jan',
        last_name: 'Peeters',
        email: `${ref}@example.be`,
        telephonenr: '+32 9 123 45 67',
        birth: '1985-04-12',
        gender: 'MALE',
        language: 'nl',
        address: { street: 'Veldstraat', housenr: '1', zipcode: '9000', city: 'Gent', country_code: 'BE' },
        external_refs: [{ external_ref: ref, external_ref_company: COMPANY }],
        risk_objects: { cars },
        policy_packages: packages,
        insurance_policies: policies,
      },
    });
  };
}

/** A VIN (`^[A-HJ-NPR-Z0-9]{17}$`: no I, O or Q) that differs per number. */
function vin(n: number): string {
  return `WVWZZZ${String(n % 1e11).padStart(11, '0')}`;
}
