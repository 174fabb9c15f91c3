// The requests of the model-based test, as data: push and PATCH bodies drawn from small
// pools so that ids, refs, VINs, policy numbers and addresses collide often, are kept,
// renewed, reused by another kind or another party, or dangle. Ids are symbols (`{id3}`,
// `{ID3}` for the same id in upper case, `{party1}` for the second party created) that a
// run resolves to its own UUIDs, so a failing sequence prints as data that replays as is.
import fc from 'fast-check';

type Json = Record<string, unknown>;

export type Request =
  | { readonly op: 'push'; readonly kind: 'customers' | 'companies'; readonly body: Json }
  | { readonly op: 'patch'; readonly party: number; readonly fields: Json; readonly cars?: CarListing[] }
  | { readonly op: 'pair'; readonly first: Request & { op: 'push' }; readonly second: Request & { op: 'push' } }
  | { readonly op: 'leadPatch'; readonly party: number; readonly body: Json }
  /** One to three pushes in one batch (docs/design.md section 14): each as if pushed alone, in order. */
  | { readonly op: 'batch'; readonly pushes: ReadonlyArray<Request & { op: 'push' }> }
  /** A push sent twice with one Idempotency-Key: the second gets the first's answer and writes nothing. */
  | { readonly op: 'replay'; readonly push: Request & { op: 'push' } }
  /**
   * The key of an earlier `replay`'s push (counted round) sent again with the same bytes, later
   * in the run; `eraseFirst`: the person its answer shows is erased just before.
   */
  | { readonly op: 'replayLater'; readonly which: number; readonly eraseFirst: boolean }
  | { readonly op: 'erase'; readonly party: number }
  /**
   * `POST …/parties/{into}/merge {"from": …}` (docs/design.md section 15): each a symbol, mostly
   * `{partyN}` into which `{nextN}` (another of the run's parties) merges; now and then a merged
   * party (`{mergedN}`), an erased one (`{erasedN}`) or nobody.
   */
  | { readonly op: 'merge'; readonly into: string; readonly from: string };

/**
 * Who a lead PATCH assigns: `{user0}`, `{user1}` users of the run's distribution,
 * `{stranger}` a user of another one, `{nobody}` an id no user has.
 */
export const ASSIGNEES = ['{user0}', '{user1}', '{stranger}', '{nobody}'] as const;

/** A car of a PATCH's new list: the party's n-th current car with changes, or a new one. */
export type CarListing = { readonly keep: number; readonly set: Json } | { readonly add: Json };

const ID_SYMBOLS = 6;
const PARTY_SYMBOLS = 4;
// The last is the first in lower case: the same car (docs/api.md, "Pushing a lead").
export const VINS = ['WVWZZZ1JZXW000001', 'WVWZZZ1JZXW000002', 'VF1RFB00X12345678', 'wvwzzz1jzxw000001'] as const;
const ADDRESSES = [
  { street: 'Kerkstraat', housenr: '12', zipcode: '2000', city: 'Antwerpen' },
  { street: ' kerkstraat', housenr: '12', zipcode: '2000', city: 'ANTWERPEN', country_code: 'BE' },
  { street: 'Veldstraat', housenr: '1', boxnr: 'B', zipcode: '9000', city: 'Gent' },
];

/** Absent as often as present; `rarely` present one time in four. */
/** Absent as often as present; `rarely` present one time in four, `mostly` three in four. */
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
const rarely = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
const mostly = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: arb });
const orNull = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) });

/**
 * A client id of one of `slots` of a person's own ids (cars use 0-2, residences 2-4,
 * packages 4-5, so a few ids cross kinds), now and then one of anybody's, so ids cross
 * parties too; one in ten in upper case: a UUID names the same object in any case (RFC 9562
 * section 4).
 */
const idOf = (person: number, slots: readonly number[]) =>
  fc
    .tuple(
      fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...slots.map((slot) => `id${person * ID_SYMBOLS + slot}`)) },
        { weight: 1, arbitrary: fc.nat(3 * ID_SYMBOLS - 1).map((n) => `id${n}`) },
        // A CRM that makes a fresh UUID on every sync: `{newK}` is a new id in every request.
        { weight: 2, arbitrary: fc.nat(1).map((n) => `new${n}`) },
      ),
      fc.nat(9),
    )
    .map(([symbol, upper]) => (upper === 0 ? `{${symbol.toUpperCase()}}` : `{${symbol}}`));
const CAR_IDS = [0, 1, 2];
const RESIDENCE_IDS = [2, 3, 4];
const PACKAGE_IDS = [4, 5];
/**
 * A party made earlier in the run (`{partyN}`: the N-th, counted round), now and then one
 * merged into another (`{mergedN}`: its id names the survivor), or one that does not exist.
 */
const partySymbol = fc.oneof(
  { weight: 8, arbitrary: fc.nat(PARTY_SYMBOLS - 1).map((n) => `{party${n}}`) },
  { weight: 2, arbitrary: fc.nat(2).map((n) => `{merged${n}}`) },
  { weight: 1, arbitrary: fc.constant('{nobody}') },
);

/** Drops the members an arbitrary left undefined: an absent field, not one sent as undefined. */
function present(record: Json): Json {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
const record = (shape: Record<string, fc.Arbitrary<unknown>>) => fc.record(shape).map(present);
/** Lists mostly without two equal entries (each kind of duplicate is still tried, now and then). */
const list = <T>(arb: fc.Arbitrary<T>, maxLength: number, key: (item: T) => unknown = (item) => JSON.stringify(item)) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.uniqueArray(arb, { maxLength, selector: key }) },
    { weight: 1, arbitrary: fc.array(arb, { maxLength }) },
  );

const car = (person: number) =>
  record({
    id: mostly(idOf(person, CAR_IDS)),
    vin: maybe(orNull(fc.constantFrom(...VINS))),
    kw: maybe(orNull(fc.integer({ min: 50, max: 52 }))),
    license_plate: rarely(fc.constantFrom('1-ABC-123', '2-XYZ-987')),
  });
const residence = (person: number) =>
  record({
    id: mostly(idOf(person, RESIDENCE_IDS)),
    address: fc.constantFrom(...ADDRESSES),
    rooms: maybe(orNull(fc.integer({ min: 1, max: 2 }))),
  });
const policyPackage = (person: number) =>
  record({
    id: mostly(idOf(person, PACKAGE_IDS)),
    name: maybe(fc.constantFrom('Gezin', 'Auto')),
    package_nr: maybe(fc.constantFrom('K1', 'K2')),
    insurance_company: maybe(fc.constantFrom('AG', 'Ethias')),
    premium: maybe(fc.constantFrom('899.40', '120.25')),
  });
/** A policy; its package and coverages mostly name a package or risk object the push carries. */
const policy = (person: number, packageIds: readonly string[], riskObjectIds: readonly string[]) =>
  record({
    name: maybe(fc.constantFrom('BA auto', 'Brand')),
    insurance_company: maybe(fc.constantFrom('AG', 'Ethias')),
    policy_nr: maybe(orNull(fc.constantFrom('1', '2'))),
    policy_package_id: maybe(orNull(oneOfOr(packageIds, idOf(person, PACKAGE_IDS)))),
    premium: maybe(fc.constantFrom('499.95', '10.00')),
    external_refs: maybe(
      fc.oneof(
        { weight: 4, arbitrary: list(record({ ref: fc.constantFrom('P0', 'P1', 'P2') }), 1) },
        {
          weight: 1,
          arbitrary: list(
            record({ ref: fc.constantFrom('P0', 'P1', 'P2'), company: maybe(orNull(fc.constant('AG'))) }),
            2,
          ),
        },
      ),
    ),
    coverages: maybe(
      list(
        record({
          name: fc.constantFrom('BA', 'Omnium'),
          risk_object_id: maybe(oneOfOr(riskObjectIds, idOf(person, [0, 1, 2, 3]))),
          premium: maybe(fc.constant('12.50')),
        }),
        2,
      ),
    ),
  });

/** Three people (and three companies), each with a ref of their own and, now and then, another one's. */
const PEOPLE = [
  { first_name: 'Els', email: 'els@example.be', birth: '1980-02-03' },
  { first_name: 'Jan', email: 'jan@example.be', birth: '1990-12-31' },
  { first_name: 'An', email: 'an@example.be', birth: '1975-06-15' },
];
/** The prospect's refs: its own in the list (mostly), in the older single form, in both, or others' too. */
const refsOf = (own: string, pool: readonly string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant({ external_refs: [{ external_ref: own, external_ref_company: 'crm' }] }) },
    { weight: 1, arbitrary: fc.constant({ external_ref: { external_ref: own, external_ref_company: 'crm' } }) },
    {
      weight: 2,
      arbitrary: record({
        external_refs: list(
          record({
            external_ref: fc.constantFrom(own, ...pool),
            external_ref_company: maybe(orNull(fc.constant('crm'))),
          }),
          2,
        ),
        external_ref: rarely(record({ external_ref: fc.constantFrom(own, ...pool) })),
      }),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );

/** One of `ids` (ids of the same push) mostly, else `other`. */
function oneOfOr(ids: readonly string[], other: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return ids.length === 0
    ? other
    : fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: other });
}
const idsIn = (items: readonly Json[] | undefined) =>
  (items ?? []).flatMap((item) => (typeof item.id === 'string' ? [item.id] : []));

const prospectCommon = (person: number) =>
  fc
    .record({
      risk_objects: maybe(
        record({ cars: maybe(list(car(person), 2)), residences: rarely(list(residence(person), 2)) }),
      ),
      policy_packages: maybe(list(policyPackage(person), 2, (pkg) => pkg.id ?? JSON.stringify(pkg))),
    })
    .chain(({ risk_objects, policy_packages }) => {
      const objects = risk_objects as { cars?: Json[]; residences?: Json[] } | undefined;
      const riskObjectIds = [...idsIn(objects?.cars), ...idsIn(objects?.residences)];
      return record({
        id: rarely(
          rarely(fc.oneof({ weight: 8, arbitrary: partySymbol }, { weight: 1, arbitrary: idOf(person, CAR_IDS) })),
        ),
        telephonenr: maybe(orNull(fc.constantFrom('+32 9 123 45 67', '+32 3 000 00 00'))),
        callbacks: rarely(list(fc.constantFrom('https://crm.example.com/a', 'https://crm.example.com/b'), 2)),
        risk_objects: fc.constant(risk_objects),
        policy_packages: fc.constant(policy_packages),
        insurance_policies: maybe(list(policy(person, idsIn(policy_packages as Json[] | undefined), riskObjectIds), 2)),
      });
    });
const meta = { origin: maybe(orNull(fc.constantFrom('crm-a', 'crm-b'))), source: rarely(fc.constant('web')) };

const customerPush = fc
  .nat(PEOPLE.length - 1)
  .chain((person) =>
    fc.tuple(
      record(meta),
      refsOf(['R0', 'R1', 'R2'][person]!, ['R0', 'R1', 'R2']),
      record({
        first_name: fc.constant(PEOPLE[person]!.first_name),
        last_name: fc.constant('Peeters'),
        // Email (in any case), birth and address: all three match a customer (rule 1).
        email: maybe(orNull(fc.constantFrom(PEOPLE[person]!.email, PEOPLE[person]!.email.toUpperCase()))),
        birth: maybe(fc.constant(PEOPLE[person]!.birth)),
        address: maybe(orNull(fc.constantFrom(ADDRESSES[person]!, ...(person === 0 ? [ADDRESSES[1]!] : [])))),
      }),
      prospectCommon(person),
    ),
  )
  .map(
    ([head, refs, prospect, common]): Request => ({
      op: 'push',
      kind: 'customers',
      body: { ...head, prospect: { ...prospect, ...common, ...refs } },
    }),
  );
const companyPush = fc
  .nat(2)
  .chain((company) =>
    fc.tuple(
      record(meta),
      // A company's refs are its own (K*), and the third one's pool holds a person's.
      refsOf(['K0', 'K1', 'K2'][company]!, company === 2 ? ['K0', 'K1', 'R2'] : ['K0', 'K1', 'K2']),
      record({
        name: fc.constant(['Peeters NV', 'Janssens BV', 'Maes CV'][company]!),
        address: maybe(orNull(fc.constantFrom(...ADDRESSES))),
      }),
      prospectCommon(company),
    ),
  )
  .map(
    ([head, refs, prospect, common]): Request => ({
      op: 'push',
      kind: 'companies',
      body: { ...head, prospect: { ...prospect, ...common, ...refs } },
    }),
  );
/**
 * A CRM's sync of one person's whole lead, as partners send it: a car, a package and a
 * policy in it covering the car, with each id kept or renewed (a fresh UUID), the VIN and the
 * policy number kept or moved, parts left out now and then.
 */
const syncPush = fc
  .record({
    person: fc.nat(PEOPLE.length - 1),
    carId: fc.constantFrom('kept', 'renewed', 'none'),
    packageId: fc.constantFrom('kept', 'kept', 'renewed'),
    vin: fc.nat(VINS.length),
    kw: fc.integer({ min: 50, max: 52 }),
    packageNr: fc.boolean(),
    policyNr: fc.constantFrom<string | undefined>('1', '2', undefined),
    policyRef: fc.boolean(),
    premium: fc.constantFrom('499.95', '510.00'),
    parts: fc.constantFrom('all', 'all', 'all', 'no car', 'no package', 'no policy'),
  })
  .map(({ person, carId, packageId, vin, kw, packageNr, policyNr, policyRef, premium, parts }): Request => {
    const base = person * ID_SYMBOLS;
    const car = { carId: { kept: `{id${base}}`, renewed: '{new0}', none: undefined }[carId], vin: VINS[vin] };
    const pkg = packageId === 'kept' ? `{id${base + 4}}` : '{new1}';
    return {
      op: 'push',
      kind: 'customers',
      body: {
        origin: 'crm-sync',
        prospect: {
          first_name: PEOPLE[person]!.first_name,
          last_name: 'Peeters',
          external_refs: [{ external_ref: `R${person}`, external_ref_company: 'crm' }],
          ...(parts !== 'no car' && {
            risk_objects: { cars: [present({ id: car.carId, vin: car.vin, kw })] },
          }),
          ...(parts !== 'no package' && {
            policy_packages: [
              present({ id: pkg, name: 'Gezin', insurance_company: 'AG', package_nr: packageNr ? 'K1' : undefined }),
            ],
          }),
          ...(parts !== 'no policy' && {
            insurance_policies: [
              present({
                insurance_company: 'AG',
                policy_nr: policyNr,
                premium,
                external_refs: policyRef ? [{ ref: `P${person}` }] : undefined,
                policy_package_id: parts === 'no package' ? undefined : pkg,
                coverages: [present({ name: 'BA', risk_object_id: parts === 'no car' ? undefined : car.carId })],
              }),
            ],
          }),
        },
      },
    };
  });
const anyPush = fc.oneof(
  { weight: 3, arbitrary: customerPush },
  { weight: 3, arbitrary: syncPush },
  { weight: 1, arbitrary: companyPush },
) as fc.Arbitrary<Request & { op: 'push' }>;

const carListing: fc.Arbitrary<CarListing> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      keep: fc.nat(2),
      set: record({ kw: maybe(fc.integer({ min: 50, max: 52 })), vin: maybe(fc.constantFrom(...VINS)) }),
    }),
  },
  { weight: 1, arbitrary: fc.nat(2).chain((person) => fc.record({ add: car(person) })) },
);
const partyPatch = fc.record({
  op: fc.constant('patch' as const),
  party: fc.nat(PARTY_SYMBOLS - 1),
  fields: record({
    telephonenr: maybe(orNull(fc.constant('+32 2 555 55 55'))),
    email: maybe(orNull(fc.constantFrom('els@example.be', 'jan@example.be'))),
    address: maybe(orNull(fc.constantFrom(...ADDRESSES))),
  }),
  cars: maybe(list(carListing, 3)),
});
const pair = fc
  .tuple(anyPush, fc.boolean(), anyPush)
  .map(([first, same, other]): Request => ({ op: 'pair', first, second: same ? first : other }));

/** The broker's work (docs/design.md section 13): statuses (and one that is none), reasons, assignees. */
const leadPatch = fc.record({
  op: fc.constant('leadPatch' as const),
  party: fc.nat(PARTY_SYMBOLS - 1),
  body: record({
    status: maybe(fc.constantFrom('new', 'contacted', 'quoted', 'won', 'lost', 'lost', 'closed')),
    lost_reason: rarely(orNull(fc.constantFrom('Too expensive', 'Chose another insurer'))),
    assignee: rarely(orNull(fc.constantFrom(...ASSIGNEES))),
  }),
});

const batch = fc.array(anyPush, { minLength: 1, maxLength: 3 }).map((pushes): Request => ({ op: 'batch', pushes }));
const replay = anyPush.map((push): Request => ({ op: 'replay', push }));
/** A retry long after the first: after an erasure of the person it showed, it runs as it would now (section 14). */
const replayLater: fc.Arbitrary<Request> = fc.record({
  op: fc.constant('replayLater' as const),
  which: fc.nat(3),
  eraseFirst: fc.boolean(),
});
/** Erasing one of the parties (docs/design.md section 15); later pushes with its refs or id meet the tombstone. */
const erase: fc.Arbitrary<Request> = fc.record({ op: fc.constant('erase' as const), party: fc.nat(PARTY_SYMBOLS - 1) });

/**
 * Merging two parties (docs/design.md section 15): mostly two of the run's parties (of one
 * kind or not, now and then one with itself), else a merged, erased or unknown party on
 * either side.
 */
const merge: fc.Arbitrary<Request> = fc.record({
  op: fc.constant('merge' as const),
  into: fc.oneof(
    { weight: 8, arbitrary: fc.nat(PARTY_SYMBOLS - 1).map((n) => `{party${n}}`) },
    { weight: 1, arbitrary: fc.nat(2).map((n) => `{merged${n}}`) },
  ),
  from: fc.oneof(
    // `{nextN}`: the party N + 1 places after `into` in the run's list, counted round (itself
    // only when the run has so few).
    { weight: 12, arbitrary: fc.nat(PARTY_SYMBOLS - 2).map((n) => `{next${n}}`) },
    { weight: 1, arbitrary: fc.nat(PARTY_SYMBOLS - 1).map((n) => `{party${n}}`) },
    { weight: 2, arbitrary: fc.nat(2).map((n) => `{merged${n}}`) },
    { weight: 1, arbitrary: fc.nat(1).map((n) => `{erased${n}}`) },
    { weight: 1, arbitrary: fc.constant('{nobody}') },
  ),
});

export const anyRequest: fc.Arbitrary<Request> = fc.oneof(
  { weight: 8, arbitrary: anyPush },
  { weight: 2, arbitrary: partyPatch },
  { weight: 1, arbitrary: pair },
  { weight: 2, arbitrary: leadPatch },
  { weight: 2, arbitrary: batch },
  { weight: 2, arbitrary: replay },
  { weight: 2, arbitrary: replayLater },
  { weight: 1, arbitrary: erase },
  { weight: 3, arbitrary: merge },
);
