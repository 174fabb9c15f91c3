// A person with something in every table that holds personal data, and a scan of every
// table of the live database for a text: what the erasure tests check against.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { callApi } from './api-client.ts';
import { pushLead } from './lead-client.ts';
import type { Tenant, TestServer } from './test-server.ts';

/** A word found nowhere else: the erased text the scans look for. */
export function uniqueMarker(): string {
  return `Zq${randomBytes(6).toString('hex')}`;
}

export interface Person {
  readonly partyId: string;
  readonly leadId: string;
  readonly ref: string;
  readonly marker: string;
}

/**
 * Pushed twice (a merge: two push-log entries, a new car revision), a policy with refs and
 * coverages in a package, a callback (so webhook events and deliveries), a PATCH of the
 * party and a status change (the change log), and a note. `marker` is in each of them.
 */
export async function pushRichPerson(server: TestServer, tenant: Tenant, marker = uniqueMarker()): Promise<Person> {
  const ref = `crm-${marker}`;
  const carId = randomUUID();
  const packageId = randomUUID();
  // The partner's endpoint, not the person's: the `lead.erased` event goes there after the erasure.
  const callback = `http://127.0.0.1:9/hooks/${randomBytes(4).toString('hex')}`;
  const vin = `WVWZZZ1JZXW${String(100000 + Math.floor(Math.random() * 900000))}`;
  const prospect = (kw: number) => ({
    first_name: marker,
    last_name: `Family${marker}`,
    email: `${marker.toLowerCase()}@example.be`,
    birth: '1980-02-03',
    telephonenr: '+32 9 222 33 44',
    address: { street: `Street${marker}`, housenr: '7', zipcode: '9000', city: 'Gent' },
    external_refs: [{ external_ref: ref, external_ref_company: 'crm' }],
    callbacks: [callback],
    risk_objects: { cars: [{ id: carId, vin, brand: 'Volvo', model: marker, kw }] },
    policy_packages: [{ id: packageId, name: `Package ${marker}` }],
    insurance_policies: [
      {
        policy_package_id: packageId,
        insurance_company: 'Insurer',
        policy_nr: `P-${marker}`,
        external_refs: [{ ref: `pol-${marker}`, company: 'Insurer' }],
        coverages: [{ name: `Cover ${marker}`, risk_object_id: carId }],
      },
    ],
  });
  const first = await pushLead(server, tenant, 'customers', { origin: marker, prospect: prospect(100) });
  expect(first.status).toBe(201);
  const second = await pushLead(server, tenant, 'customers', { origin: marker, prospect: prospect(120) });
  expect(second.status).toBe(200);
  const partyId = first.body.party_id as string;
  const leadId = first.body.id as string;
  const d = `/distributions/${tenant.distributionId}`;
  const patched = await callApi(server, tenant, 'PATCH', `${d}/parties/${partyId}`, {
    body: { telephonenr: '+32 9 999 99 99' },
  });
  expect(patched.status).toBe(200);
  const worked = await callApi(server, tenant, 'PATCH', `${d}/leads/${leadId}`, {
    body: { status: 'lost', lost_reason: `Reason ${marker}` },
  });
  expect(worked.status).toBe(200);
  await addNote(server.database.handle, tenant.distributionId, partyId, leadId, `Note about ${marker}`);
  return { partyId, leadId, ref, marker };
}

/** A broker's note, as the broker app writes it (a user of the distribution is its author). */
async function addNote(handle: DatabaseHandle, distributionId: string, partyId: string, leadId: string, body: string) {
  const userId = randomUUID();
  const now = new Date().toISOString();
  await handle.db
    .insertInto('users')
    .values({
      id: userId,
      broker_id: userId,
      distribution_id: distributionId,
      email: `${userId}@example.be`,
      username: userId,
      email_key: `${userId}@example.be`,
      username_key: userId,
      password_hash: 'not a hash: this user never signs in',
      language: 'en',
      country: 'BE',
      locale: 'en-BE',
      role: 'broker',
      created_at: now,
      disabled_at: null,
      last_login: null,
    })
    .execute();
  await handle.db
    .insertInto('lead_notes')
    .values({
      id: randomUUID(),
      lead_id: leadId,
      party_id: partyId,
      distribution_id: distributionId,
      author_id: userId,
      body,
      created_at: now,
    })
    .execute();
}

/** The tables of the live schema (without SQLite's full-text shadow tables). */
export async function liveTables(handle: DatabaseHandle): Promise<string[]> {
  if (handle.dialect === 'sqlite') {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'
      and name not like 'sqlite_%' and name not like 'lead_search%'`.execute(handle.db);
    return rows.map((row) => row.name);
  }
  const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(handle.db);
  return rows.map((row) => row.name);
}

/** The tables in which some row, read as text, contains `text`. */
export async function tablesContaining(handle: DatabaseHandle, text: string): Promise<string[]> {
  const found: string[] = [];
  for (const table of await liveTables(handle)) {
    const { rows } = await sql`select * from ${sql.table(table)}`.execute(handle.db);
    if (rows.some((row) => JSON.stringify(row).includes(text))) found.push(table);
  }
  return found;
}
