// Sequences the model-based test (upsert.model.test.ts) found, kept as printed (or written
// by hand) so each stays fixed: each ran against the model and the real server on both
// databases and the two disagreed before the change named in its title. Each is a test of
// its own, run as the model test runs it (replaySequence: every step compared with the model).
import { afterAll, beforeAll, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { replaySequence } from './model-run.ts';
import type { Request } from './requests.ts';

/** A push of the customer Els Peeters with these fields besides her name, for sequences written by hand. */
const els = (fields: Record<string, unknown>): Request => ({
  op: 'push',
  kind: 'customers',
  body: { prospect: { first_name: 'Els', last_name: 'Peeters', ...fields } },
});
const KERKSTRAAT = { street: 'Kerkstraat', housenr: '1', zipcode: '2000', city: 'Antwerpen' };

/** Each sequence under its title: what the server does now that it did not before. */
const REPLAYS: Readonly<Record<string, readonly Request[]>> = {
  'lists the refs of one push in the order a read gives them back': [
    {
      op: 'push',
      kind: 'customers',
      body: {
        prospect: {
          first_name: 'Els',
          last_name: 'Peeters',
          external_refs: [{ external_ref: 'R0', external_ref_company: 'crm' }, { external_ref: 'R0' }],
        },
      },
    },
  ],

  'keeps a client id sent in upper case as the same id in lower case': [
    {
      op: 'push',
      kind: 'customers',
      body: { prospect: { first_name: 'Els', last_name: 'Peeters', risk_objects: { cars: [{ id: '{ID0}' }] } } },
    },
    {
      op: 'push',
      kind: 'customers',
      body: {
        prospect: {
          first_name: 'Els',
          last_name: 'Peeters',
          id: '{party0}',
          risk_objects: { cars: [{ id: '{id0}', kw: 50 }] },
        },
      },
    },
  ],

  'tells a car and a package with one id apart: ids are unique per kind of object': [
    {
      op: 'push',
      kind: 'customers',
      body: {
        prospect: {
          first_name: 'Els',
          last_name: 'Peeters',
          risk_objects: { cars: [{ id: '{ID1}' }] },
          policy_packages: [{ id: '{id1}' }],
        },
      },
    },
  ],

  'keeps the refs of two pushes at once in the order they were added, however close in time': [
    {
      op: 'pair',
      first: {
        op: 'push',
        kind: 'customers',
        body: {
          prospect: {
            first_name: 'Jan',
            last_name: 'Peeters',
            external_refs: [{ external_ref: 'R1', external_ref_company: 'crm' }],
          },
        },
      },
      second: {
        op: 'push',
        kind: 'customers',
        body: {
          prospect: {
            first_name: 'An',
            last_name: 'Peeters',
            callbacks: [],
            external_refs: [{ external_ref: 'R1', external_ref_company: 'crm' }],
            external_ref: { external_ref: 'R2' },
          },
        },
      },
    },
  ],

  're-syncs a lead whose package id is renewed: the stored policy moves to the new package': [
    {
      op: 'push',
      kind: 'customers',
      body: {
        prospect: {
          first_name: 'Jan',
          last_name: 'Peeters',
          external_refs: [{ external_ref: 'R1', external_ref_company: 'crm' }],
          policy_packages: [{ id: '{new1}', name: 'Gezin' }],
          insurance_policies: [{ insurance_company: 'AG', policy_nr: '1', policy_package_id: '{new1}' }],
        },
      },
    },
    {
      op: 'push',
      kind: 'customers',
      body: {
        prospect: {
          first_name: 'Jan',
          last_name: 'Peeters',
          external_refs: [{ external_ref: 'R1', external_ref_company: 'crm' }],
          policy_packages: [{ id: '{new1}', name: 'Gezin' }],
          insurance_policies: [{ insurance_company: 'AG', policy_nr: '1', policy_package_id: '{new1}' }],
        },
      },
    },
  ],

  'lists the refs of two parties merged by when each was added: two items of a batch can share a millisecond': [
    {
      op: 'batch',
      pushes: [
        {
          op: 'push',
          kind: 'customers',
          body: {
            prospect: {
              first_name: 'Jan',
              last_name: 'Peeters',
              external_refs: [{ external_ref: 'R1', external_ref_company: 'crm' }],
            },
          },
        },
        {
          op: 'push',
          kind: 'customers',
          body: {
            prospect: {
              first_name: 'Els',
              last_name: 'Peeters',
              external_refs: [{ external_ref: 'R0', external_ref_company: 'crm' }],
              risk_objects: { cars: [{ id: '{id0}', vin: 'WVWZZZ1JZXW000001', kw: 51 }] },
              insurance_policies: [
                { insurance_company: 'AG', policy_nr: '1', coverages: [{ name: 'BA', risk_object_id: '{id0}' }] },
              ],
            },
          },
        },
      ],
    },
    { op: 'merge', into: '{party0}', from: '{next0}' },
    {
      op: 'push',
      kind: 'customers',
      body: {
        prospect: {
          id: '{merged0}',
          first_name: 'Jan',
          last_name: 'Peeters',
          insurance_policies: [{ insurance_company: 'AG', policy_nr: '1', premium: '10.00' }],
        },
      },
    },
    { op: 'erase', party: 0 },
    {
      op: 'push',
      kind: 'customers',
      body: { prospect: { id: '{merged0}', first_name: 'Jan', last_name: 'Peeters' } },
    },
  ],

  "lands a re-sync naming a car a merge gave up for the survivor's (one per VIN) on the survivor's car": [
    'R0',
    'R1',
    'R0',
    'R1',
  ].map((ref, i) =>
    i === 2
      ? { op: 'merge', into: '{party0}', from: '{next0}' }
      : {
          op: 'push',
          kind: 'customers',
          body: {
            prospect: {
              first_name: 'Els',
              last_name: 'Peeters',
              external_refs: [{ external_ref: ref, external_ref_company: 'crm' }],
              risk_objects: { cars: [{ id: `{id${ref === 'R0' ? 0 : 1}}`, vin: 'WVWZZZ1JZXW000001', kw: 50 + i }] },
              insurance_policies: [
                { name: 'BA auto', coverages: [{ name: 'BA', risk_object_id: `{id${ref === 'R0' ? 0 : 1}}` }] },
              ],
            },
          },
        },
  ),

  "refuses a merge that would give the survivor a third party's e-mail, birth date and address": [
    els({ email: 'els@example.be', birth: '1980-01-01', external_refs: [{ external_ref: 'R0' }] }),
    els({ address: KERKSTRAAT, external_refs: [{ external_ref: 'R1' }] }),
    els({ email: 'els@example.be', birth: '1980-01-01', address: KERKSTRAAT }),
    { op: 'merge', into: '{party0}', from: '{next0}' },
    els({ language: 'nl', external_refs: [{ external_ref: 'R0' }] }),
    els({ language: 'fr', external_refs: [{ external_ref: 'R1' }] }),
    els({ email: 'els@example.be', birth: '1980-01-01', address: KERKSTRAAT }),
  ],

  "joins two parties' packages of one insurance company and number; the merged package's id names the one": [
    els({
      external_refs: [{ external_ref: 'R0' }],
      policy_packages: [{ id: '{id4}', insurance_company: 'AG', package_nr: 'K1' }],
    }),
    els({
      external_refs: [{ external_ref: 'R1' }],
      policy_packages: [{ id: '{id5}', insurance_company: 'AG', package_nr: 'K1', name: 'Gezin' }],
      insurance_policies: [{ insurance_company: 'AG', policy_nr: '1', policy_package_id: '{id5}' }],
    }),
    { op: 'merge', into: '{party0}', from: '{next0}' },
    els({
      external_refs: [{ external_ref: 'R1' }],
      insurance_policies: [{ insurance_company: 'AG', policy_nr: '2', policy_package_id: '{id5}' }],
    }),
    els({ external_refs: [{ external_ref: 'R1' }], policy_packages: [{ id: '{id5}', name: 'Pakket' }] }),
    els({
      external_refs: [{ external_ref: 'R0' }],
      policy_packages: [{ insurance_company: 'AG', package_nr: 'K1', premium: '10' }],
    }),
  ],
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT: 'off', WEBHOOK_WORKER: 'false' });
});
afterAll(() => server?.close());

for (const [title, requests] of Object.entries(REPLAYS)) it(title, () => replaySequence(server, requests));
