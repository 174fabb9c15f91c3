// Example payloads for the OpenAPI document ("Try it out" on /docs). Their person and refs are
// their own, not the README's quick start (Jan Peeters, ref 4711): a reader who erased that
// person would otherwise get 409 Erased from the example (docs/personal-data.md).
export const leadExamples = {
  CUSTOMER: {
    origin: 'acme-crm',
    backref: 'https://crm.example.com/contacts/20417',
    prospect: {
      first_name: 'Els',
      last_name: 'Wouters',
      email: 'els.wouters@example.be',
      birth: '1979-09-23',
      external_refs: [{ external_ref: '20417', external_ref_company: 'acme-crm' }],
      callbacks: ['https://crm.example.com/hooks/lead-intake'],
      risk_objects: {
        cars: [
          { id: '3f0c9a43-4f6e-4c9b-9a57-2f1d1c8b7e01', vin: 'WVWZZZ1JZXW000001', brand: 'Volkswagen', model: 'Golf' },
        ],
      },
      policy_packages: [
        {
          id: '9b2e4f7a-1c3d-4e5f-8a6b-7c8d9e0f1a2b',
          name: 'Family',
          insurance_company: 'Example Insurance',
          premium: '499.95',
          payment_interval: 'ANNUAL',
        },
      ],
      insurance_policies: [
        {
          name: 'Car insurance',
          policy_nr: 'P-2026-001',
          policy_package_id: '9b2e4f7a-1c3d-4e5f-8a6b-7c8d9e0f1a2b',
          type: 'ACTIVE',
          insurance_company: 'Example Insurance',
          coverages: [
            {
              name: 'Third-party liability',
              risk_object_id: '3f0c9a43-4f6e-4c9b-9a57-2f1d1c8b7e01',
              insured_value: 25000,
              premium: '320.00',
              payment_interval: 'ANNUAL',
              external_label: { label: 'BA', type: 'AFD' },
            },
          ],
        },
      ],
    },
  },
  COMPANY: {
    origin: 'acme-crm',
    backref: 'https://crm.example.com/accounts/812',
    prospect: {
      name: 'Peeters Logistics BV',
      enterprise_nr: 'BE0123.456.749',
      external_refs: [{ external_ref: 'ACC-812', external_ref_company: 'acme-crm' }],
      address: { street: 'Veldstraat', housenr: '1', zipcode: '9000', city: 'Gent', country_code: 'BE' },
    },
  },
} as const;
