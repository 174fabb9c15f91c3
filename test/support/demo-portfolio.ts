// Leads that look like a broker's morning: a family with two cars (one of them not covered
// by anything), a house, a package of policies at monthly and quarterly premiums, and a
// company; used by the browser test and by the screenshot script (scripts/), which shows
// them in docs/. Ids are generated per call: risk object and package ids are the client's
// and unique across parties.
import { randomUUID } from 'node:crypto';

export function familyLead(options: { callbacks?: string[]; ref?: string } = {}) {
  const golf = randomUUID();
  const tesla = randomUUID();
  const house = randomUUID();
  const family = randomUUID();
  return {
    origin: 'acme-crm',
    source: 'website-quote-form',
    backref: 'https://crm.example.com/contacts/4711',
    prospect: {
      first_name: 'Els',
      last_name: 'Claes',
      birth: '1985-04-12',
      gender: 'FEMALE',
      email: 'els.claes@example.be',
      telephonenr: '+32 9 123 45 67',
      language: 'nl',
      address: { street: 'Veldstraat', housenr: '12', zipcode: '9000', city: 'Gent', country_code: 'BE' },
      external_refs: [{ external_ref: options.ref ?? 'CRM-4711', external_ref_company: 'acme' }],
      ...(options.callbacks && { callbacks: options.callbacks }),
      risk_objects: {
        cars: [
          {
            id: golf,
            vin: 'WVWZZZ1JZXW000001',
            brand: 'Volkswagen',
            model: 'Golf',
            license_plate: '1-ABC-123',
            first_registration: '2021-03-15',
            fuel_type: 'PETROL',
            kw: 85,
            value: '24500.00',
          },
          {
            id: tesla,
            vin: '5YJ3E7EB2KF000002',
            brand: 'Tesla',
            model: 'Model 3',
            first_registration: '2023-06-01',
            fuel_type: 'ELECTRIC',
            kw: 239,
            value: '41990.00',
          },
        ],
        residences: [
          {
            id: house,
            address: { street: 'Veldstraat', housenr: '12', zipcode: '9000', city: 'Gent' },
            type: 'HOUSE',
            construction_year: 1930,
            rooms: 6,
            value: '385000',
          },
        ],
      },
      policy_packages: [
        { id: family, name: 'Gezinspakket', package_nr: 'PK-2026-001', insurance_company: 'AG Insurance' },
      ],
      insurance_policies: [
        {
          name: 'Autoverzekering Golf',
          policy_nr: 'AG-778812',
          type: 'ACTIVE',
          insurance_company: 'AG Insurance',
          policy_package_id: family,
          premium: '33.33',
          payment_interval: 'MONTHLY',
          coverages: [
            { name: 'BA Auto', risk_object_id: golf, insured_value: 24500 },
            {
              name: 'Omnium',
              risk_object_id: golf,
              insured_value: 24500.5,
              premium: '12.10',
              payment_interval: 'MONTHLY',
            },
          ],
        },
        {
          name: 'Woningverzekering',
          policy_nr: 'AG-778813',
          type: 'ACTIVE',
          insurance_company: 'AG Insurance',
          policy_package_id: family,
          premium: '100.10',
          payment_interval: 'QUARTERLY',
          coverages: [{ name: 'Brand', risk_object_id: house, insured_value: 385000 }],
        },
        {
          name: 'Rechtsbijstand',
          policy_nr: 'ETH-5521',
          type: 'ACTIVE',
          insurance_company: 'Ethias',
          premium: '0.1',
          payment_interval: 'SEMI_ANNUAL',
          external_refs: [{ ref: 'POL-77', company: 'ethias' }],
          coverages: [],
        },
        {
          name: 'Offerte Tesla',
          policy_nr: 'BAL-OFF-12',
          type: 'OFFER',
          insurance_company: 'Baloise',
          premium: '1200',
          payment_interval: 'ANNUAL',
          coverages: [{ name: 'Omnium', risk_object_id: tesla }],
        },
      ],
    },
  };
}

export const companyLead = () => ({
  origin: 'kbo-import',
  prospect: {
    name: 'Brouwerij De Ranke',
    enterprise_nr: 'BE0456.789.133',
    legal_form: 'BV',
    email: 'info@deranke.be',
    address: { street: 'Rue du Petit Tourcoing', housenr: '1a', zipcode: '7711', city: 'Dottignies' },
    external_refs: [{ external_ref: 'K-88', external_ref_company: 'kbo' }],
  },
});

export const SIMPLE_LEADS = [
  { origin: 'website', prospect: { first_name: 'Jan', last_name: 'Peeters', email: 'jan.peeters@example.be' } },
  {
    origin: 'partner-portal',
    prospect: {
      first_name: 'Sophie',
      last_name: 'Dubois',
      language: 'fr',
      external_refs: [{ external_ref: 'P-1002', external_ref_company: 'portal' }],
    },
  },
  { origin: 'website', prospect: { first_name: 'Lukas', last_name: 'Schmitz', language: 'de' } },
];

/**
 * The figures a broker found wrong (docs/design.md section 13): one car worth 22,000 insured
 * by two coverages, a package whose premium (899.40 a year) is not the sum of its policies
 * (627.30 + 281.25 = 908.55), and a policy priced only by a coverage of 120.25 a month.
 */
export function insuredCarLead(options: { ref?: string } = {}) {
  const car = randomUUID();
  const family = randomUUID();
  return {
    origin: 'acme-crm',
    source: 'website-quote-form',
    backref: 'https://crm.example.com/contacts/5120',
    prospect: {
      first_name: 'Wout',
      last_name: 'Maes',
      email: 'wout.maes@example.be',
      telephonenr: '+32 3 456 78 90',
      address: { street: 'Meir', housenr: '1', zipcode: '2000', city: 'Antwerpen' },
      external_refs: [{ external_ref: options.ref ?? 'CRM-5120', external_ref_company: 'acme' }],
      risk_objects: { cars: [{ id: car, vin: 'WBA3A5C50CF256651', brand: 'BMW', model: '320d', value: '22000' }] },
      policy_packages: [
        {
          id: family,
          name: 'Gezinspakket',
          insurance_company: 'AG Insurance',
          premium: '899.40',
          payment_interval: 'ANNUAL',
        },
      ],
      insurance_policies: [
        {
          name: 'Auto',
          policy_nr: 'AG-1',
          type: 'ACTIVE',
          insurance_company: 'AG Insurance',
          policy_package_id: family,
          coverages: [
            { name: 'BA', risk_object_id: car, insured_value: 22000, premium: '312.30', payment_interval: 'ANNUAL' },
            {
              name: 'Omnium',
              risk_object_id: car,
              insured_value: 22000,
              premium: '26.25',
              payment_interval: 'MONTHLY',
            },
          ],
        },
        {
          name: 'Woning',
          policy_nr: 'AG-2',
          type: 'ACTIVE',
          insurance_company: 'AG Insurance',
          policy_package_id: family,
          premium: '281.25',
          payment_interval: 'ANNUAL',
        },
        {
          name: 'Rechtsbijstand',
          policy_nr: 'DAS-9',
          type: 'ACTIVE',
          insurance_company: 'DAS',
          coverages: [{ name: 'Juridische bijstand', premium: '120.25', payment_interval: 'MONTHLY' }],
        },
      ],
    },
  };
}
