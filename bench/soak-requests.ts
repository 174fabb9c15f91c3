// The soak's requests: what a day of partners and brokers sends, drawn at random with fixed
// weights. Pushes make new leads of both kinds and merge into earlier ones; reads, PATCHes
// and reference look-ups name the leads, parties and rows that exist; a share are refused
// (unknown ids, invalid bodies, bad JSON, bad credentials, unknown routes, a body over
// the limit). Texts, ids and query words vary from request to request, as a cache keyed by
// request data would see them in production.
import { createHash, randomInt, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface SoakRequest {
  readonly kind: string;
  readonly context?: Context;
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** Rows of the sample reference files the look-ups name. */
export interface ReferenceWords {
  readonly streets: readonly string[];
  readonly towns: readonly string[];
  readonly zipcodes: readonly string[];
  readonly addressIds: readonly string[];
  readonly enterpriseNumbers: readonly string[];
  readonly enterpriseWords: readonly string[];
  readonly brands: readonly (readonly [string, string])[];
}

/** Every `n`-th column value of a CSV file of the samples (quoted or not; no comma inside a field). */
function column(file: string, index: number): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => line.split(',')[index]!.replace(/^"|"$/g, ''));
}

export function readReferenceWords(samples: string): ReferenceWords {
  const addresses = fs
    .readdirSync(path.join(samples, 'addresses'))
    .map((name) => path.join(samples, 'addresses', name));
  // BeST columns: 4 address_id, 10 municipality nl, 11 postcode, 17 street nl.
  const of = (index: number) => addresses.flatMap((file) => column(file, index)).filter((value) => value !== '');
  const cars = path.join(samples, 'vehicles', 'CO2_passenger_cars_2023.csv');
  const denominations = column(path.join(samples, 'enterprises', 'denomination.csv'), 3);
  return {
    streets: of(17),
    towns: of(10),
    zipcodes: of(11),
    addressIds: of(4),
    enterpriseNumbers: column(path.join(samples, 'enterprises', 'enterprise.csv'), 0),
    enterpriseWords: denominations.flatMap((name) => name.split(/\s+/)).filter((word) => word.length > 2),
    // EEA columns: 11 Mk, 12 Cn.
    brands: column(cars, 11).map((brand, i) => [brand, column(cars, 12)[i]!] as const),
  };
}

const pick = <T>(list: readonly T[]): T => list[randomInt(list.length)]!;
const prefix = (word: string) => word.slice(0, 2 + randomInt(Math.max(1, word.length - 1)));
const COMPANY = 'soak-crm';
const KEPT = 5_000;

/** A distribution and an API token for it carrying every scope. */
export interface SoakTenant {
  readonly distributionId: string;
  readonly token: string;
}

/** Leads and parties the soak made, the newest KEPT of them, for reads, merges and PATCHes. */
interface Made {
  readonly tenant: SoakTenant;
  readonly kind: 'customers' | 'companies';
  readonly leadId: string;
  readonly partyId: string;
  readonly ref: string;
}

/** What a request was about, for `answered` to keep. */
type Context = { readonly tenant: SoakTenant; readonly kind?: 'customers' | 'companies' };

export class SoakRequests {
  readonly #tenants: readonly SoakTenant[];
  readonly #callbackUrl: string;
  readonly #publicUrl: string;
  #tenant: SoakTenant;
  readonly #words: ReferenceWords;
  readonly #bodyLimit: number;
  readonly #made: Made[] = [];
  #n = 0;
  readonly #kinds: ReadonlyArray<readonly [number, () => SoakRequest]>;
  readonly #total: number;

  constructor(options: {
    tenants: readonly SoakTenant[];
    callbackUrl: string;
    /** The server's PUBLIC_URL: the broker app's redirect URI is registered under it. */
    publicUrl: string;
    words: ReferenceWords;
    bodyLimit: number;
  }) {
    this.#tenants = options.tenants;
    this.#publicUrl = options.publicUrl;
    this.#tenant = options.tenants[0]!;
    this.#callbackUrl = options.callbackUrl;
    this.#words = options.words;
    this.#bodyLimit = options.bodyLimit;
    // Weights out of 1,000.
    this.#kinds = [
      [180, () => this.#push('customers', this.#customer())],
      [60, () => this.#push('companies', this.#company())],
      [40, () => this.#push('customers', this.#fullCustomer())],
      [120, () => this.#merge()],
      [100, () => this.#readLead()],
      [
        30,
        () =>
          this.#aboutSome('lead pushes', (made) => `${this.#leads()}/${made.leadId}/pushes?limit=${1 + randomInt(20)}`),
      ],
      [50, () => this.#listing()],
      [
        30,
        () => this.#aboutSome('lead by ref', (made) => `${this.#leads()}?external_ref=${encodeURIComponent(made.ref)}`),
      ],
      [50, () => this.#aboutSome('party', (made) => `${this.#parties()}/${made.partyId}`)],
      [50, () => this.#patch()],
      [50, () => this.#addressSearch()],
      [
        30,
        () => this.#get('enterprise search', `/v1/api/enterprises?q=${encodeURIComponent(this.#enterpriseQuery())}`),
      ],
      [20, () => this.#get('enterprise', `/v1/api/enterprises/${pick(this.#words.enterpriseNumbers)}`)],
      [30, () => this.#vehicles()],
      [20, () => this.#get('vin', `/v1/api/vehicles/vin/${this.#vin()}`)],
      [10, () => this.#get('postal codes', `/v1/api/postal-codes?q=${prefix(pick(this.#words.towns))}`)],
      [10, () => this.#get('address', `/v1/api/addresses/${pick(this.#words.addressIds)}`)],
      [20, () => this.#get('unknown lead', `${this.#leads()}/${randomUUID()}`)],
      [30, () => this.#invalidPush()],
      [
        10,
        () => this.#push('customers', `{"prospect": {"first_name": "Jan", "last_name": ${randomInt(1e9)}`, 'bad JSON'),
      ],
      [10, () => this.#withAuthorization('bad API token', `apikey li_${randomUUID()}`)],
      [10, () => this.#withAuthorization('bad bearer token', `Bearer ${this.#jwtLike()}`)],
      [10, () => this.#get('unknown route', `/v1/api/${randomUUID()}/${randomInt(1e6)}`)],
      [
        19,
        () =>
          this.#get('enterprise number refused', `/v1/api/enterprises/${String(randomInt(1e10)).padStart(10, '0')}`),
      ],
      // A broker opening a lead's link signed out: the app sends the browser to its sign-in,
      // which sends it to the SSO provider, which starts an interaction (each a 303).
      [
        3,
        () => ({ ...this.#aboutSome('broker app, signed out', (made) => `/app/parties/${made.partyId}`), headers: {} }),
      ],
      [
        2,
        () => ({
          kind: 'broker app sign-in',
          method: 'GET',
          path: `/app/login?return_to=${encodeURIComponent(`/app/parties/${randomUUID()}`)}`,
          headers: {},
        }),
      ],
      [3, () => ({ kind: 'SSO authorization', method: 'GET', path: this.#authorization(), headers: {} })],
      [
        3,
        () => ({
          kind: 'operations',
          method: 'GET',
          path: pick(['/healthz', '/readyz', '/metrics', '/openapi.json']),
          headers: {},
        }),
      ],
      [1, () => this.#push('customers', this.#oversized(), 'over the body limit')],
    ];
    this.#total = this.#kinds.reduce((sum, [weight]) => sum + weight, 0);
  }

  next(): SoakRequest {
    this.#tenant = pick(this.#tenants);
    let draw = randomInt(this.#total);
    // Until leads exist, only pushes make sense.
    if (this.#made.length === 0) draw = 0;
    for (const [weight, make] of this.#kinds) {
      if (draw < weight) return make();
      draw -= weight;
    }
    throw new Error('unreachable');
  }

  /** Keeps what a 201 made, for later requests to name. */
  answered(request: SoakRequest, status: number, body: string): void {
    if (status !== 201 || request.context?.kind === undefined) return;
    const lead = JSON.parse(body) as { id: string; party_id: string; prospect: { external_refs?: { ref: string }[] } };
    const ref = lead.prospect.external_refs?.[0]?.ref;
    if (ref === undefined) return;
    this.#made.push({
      tenant: request.context.tenant,
      kind: request.context.kind,
      leadId: lead.id,
      partyId: lead.party_id,
      ref,
    });
    if (this.#made.length > KEPT) this.#made.splice(0, this.#made.length - KEPT);
  }

  #auth(): Record<string, string> {
    return { authorization: `apikey ${this.#tenant.token}` };
  }
  #leads(): string {
    return `/v1/api/distributions/${this.#tenant.distributionId}/leads`;
  }
  #parties(): string {
    return `/v1/api/distributions/${this.#tenant.distributionId}/parties`;
  }
  /** A lead made earlier; the request is then sent as its distribution. */
  #some(): Made {
    const made = pick(this.#made);
    this.#tenant = made.tenant;
    return made;
  }
  /** A GET about a lead made earlier, as its distribution. */
  #aboutSome(kind: string, path: (made: Made) => string): SoakRequest {
    const made = this.#some();
    return this.#get(kind, path(made));
  }
  #get(kind: string, path: string): SoakRequest {
    return { kind, method: 'GET', path, headers: this.#auth() };
  }
  #withAuthorization(kind: string, authorization: string): SoakRequest {
    return { kind, method: 'GET', path: this.#leads(), headers: { authorization } };
  }
  #push(kindOfLead: 'customers' | 'companies', body: string, kind = `push ${kindOfLead}`): SoakRequest {
    return {
      kind,
      context: { tenant: this.#tenant, kind: kindOfLead },
      method: 'POST',
      path: `${this.#leads()}/${kindOfLead}`,
      headers: { ...this.#auth(), 'content-type': 'application/json' },
      body,
    };
  }
  /** An authorization request of the broker app (code + PKCE), as its sign-in sends it. */
  #authorization(): string {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: 'lead-intake-broker-app',
      redirect_uri: `${this.#publicUrl}/app/callback`,
      scope: 'openid',
      state: randomUUID(),
      nonce: randomUUID(),
      code_challenge: createHash('sha256').update(randomUUID()).digest('base64url'),
      code_challenge_method: 'S256',
      prompt: 'login',
      ui_locales: pick(['en', 'nl', 'fr', 'de']),
    });
    return `/sso/auth?${query}`;
  }
  /** Three base64url parts, as a JWT has, signed by nobody. */
  #jwtLike(): string {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    return `${part({ alg: 'RS256', typ: 'at+jwt', kid: randomUUID() })}.${part({ sub: randomUUID(), exp: randomInt(2e9) })}.${randomUUID()}`;
  }
  /** A fifth of the leads carry a callback (the receiver's, or one the address guard refuses). */
  #callbacks(): { callbacks?: string[] } {
    const draw = randomInt(50);
    if (draw < 9) return { callbacks: [`${this.#callbackUrl}/${this.#tenant.distributionId}`] };
    if (draw === 9) return { callbacks: ['http://169.254.169.254/latest/meta-data'] };
    return {};
  }

  #ref(): string {
    return `soak-${process.pid}-${this.#n++}`;
  }
  #address() {
    return {
      street: pick(this.#words.streets),
      housenr: String(1 + randomInt(200)),
      zipcode: String(1000 + randomInt(9000)),
      city: pick(this.#words.towns),
      country_code: 'BE',
    };
  }
  #customer(): string {
    const ref = this.#ref();
    return JSON.stringify({
      origin: pick(['web', 'crm', 'partner', `campaign-${randomInt(50)}`]),
      prospect: {
        first_name: pick(['Jan', 'An', 'Luc', 'Marie', 'Els', 'Pieter']),
        last_name: `${pick(['Peeters', 'Maes', 'Claes', 'Wouters'])}-${randomInt(1e6)}`,
        email: `${ref}@example.be`,
        birth: `19${50 + randomInt(50)}-0${1 + randomInt(9)}-1${randomInt(10)}`,
        address: this.#address(),
        external_refs: [{ external_ref: ref, external_ref_company: COMPANY }],
        ...this.#callbacks(),
      },
    });
  }
  #company(): string {
    const ref = this.#ref();
    return JSON.stringify({
      origin: 'crm',
      prospect: {
        name: `${pick(this.#words.enterpriseWords)} ${randomInt(1e6)}`,
        enterprise_nr: pick(this.#words.enterpriseNumbers),
        address: this.#address(),
        external_refs: [{ external_ref: ref, external_ref_company: COMPANY }],
      },
    });
  }
  #fullCustomer(): string {
    const lead = JSON.parse(this.#customer());
    const cars = [0, 1].map(() => ({
      id: randomUUID(),
      vin: this.#vin(),
      brand: pick(this.#words.brands)[0],
      first_registration: '2021-03-15',
      value: `${10_000 + randomInt(40_000)}.00`,
    }));
    const packageId = randomUUID();
    lead.prospect.risk_objects = { cars };
    lead.prospect.policy_packages = [
      { id: packageId, name: 'Mobility', insurance_company: 'Example', premium: '899.95', payment_interval: 'ANNUAL' },
    ];
    lead.prospect.insurance_policies = [0, 1].map((k) => ({
      name: `Policy ${k}`,
      policy_nr: `P-${randomUUID()}`,
      policy_package_id: packageId,
      type: 'ACTIVE',
      insurance_company: 'Example',
      premium: '320.00',
      payment_interval: 'MONTHLY',
      coverages: [
        {
          name: 'Omnium',
          risk_object_id: cars[k]!.id,
          insured_value: 25000,
          premium: '26.67',
          payment_interval: 'MONTHLY',
        },
      ],
    }));
    return JSON.stringify(lead);
  }
  #merge(): SoakRequest {
    const { ref, kind } = this.#some();
    const names = kind === 'customers' ? { first_name: 'Jan', last_name: 'Peeters' } : { name: 'Peeters NV' };
    return this.#push(
      kind,
      JSON.stringify({
        origin: 'crm',
        prospect: {
          ...names,
          telephonenr: `+32 ${randomInt(1e9)}`,
          external_refs: [{ external_ref: ref, external_ref_company: COMPANY }],
        },
      }),
      'merge push',
    );
  }
  #readLead(): SoakRequest {
    return this.#aboutSome('lead', (made) => `${this.#leads()}/${made.leadId}`);
  }
  #listing(): SoakRequest {
    const since = new Date(Date.now() - randomInt(3_600_000)).toISOString();
    return this.#get('listing', `${this.#leads()}?updated_since=${since}&limit=${1 + randomInt(100)}`);
  }
  #patch(): SoakRequest {
    const { partyId } = this.#some();
    return {
      kind: 'party PATCH',
      method: 'PATCH',
      path: `${this.#parties()}/${partyId}`,
      headers: {
        ...this.#auth(),
        'content-type': 'application/merge-patch+json',
        // Half of them name a version the party no longer has: 412.
        ...(randomInt(2) === 0 && { 'if-match': `"${randomInt(1e6)}"` }),
      },
      body: JSON.stringify({ telephonenr: `+32 ${randomInt(1e9)}`, address: this.#address() }),
    };
  }
  #addressSearch(): SoakRequest {
    const street = pick(this.#words.streets);
    const q = pick([
      () => prefix(street),
      () => `${street} ${1 + randomInt(120)} ${pick(this.#words.towns)}`,
      () => `${street} ${1 + randomInt(120)} ${pick(this.#words.zipcodes)}`,
    ])();
    return this.#get('address search', `/v1/api/addresses?q=${encodeURIComponent(q)}&limit=${1 + randomInt(20)}`);
  }
  #enterpriseQuery(): string {
    return randomInt(3) === 0
      ? pick(this.#words.enterpriseNumbers).slice(0, 4 + randomInt(6))
      : `${prefix(pick(this.#words.enterpriseWords))} ${prefix(pick(this.#words.enterpriseWords))}`;
  }
  #vehicles(): SoakRequest {
    const [brand, model] = pick(this.#words.brands);
    const query =
      randomInt(2) === 0
        ? `brand=${encodeURIComponent(brand)}&model=${encodeURIComponent(model)}`
        : `q=${encodeURIComponent(prefix(model))}`;
    return this.#get('vehicle versions', `/v1/api/vehicles/versions?${query}&year=${2015 + randomInt(10)}`);
  }
  #vin(): string {
    const alphabet = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
    return `WVW${Array.from({ length: 14 }, () => pick([...alphabet])).join('')}`;
  }
  #invalidPush(): SoakRequest {
    // Unknown field names, wrong types and a missing name: a 422 naming each, with its texts.
    const field = `field_${randomInt(1e6)}`;
    return this.#push(
      'customers',
      JSON.stringify({
        prospect: { first_name: randomInt(100), [field]: 'x', address: { zipcode: String(randomInt(1e5)) } },
      }),
      'invalid push',
    );
  }
  #oversized(): string {
    return JSON.stringify({ prospect: { first_name: 'J'.repeat(this.#bodyLimit), last_name: 'P' } });
  }
}
