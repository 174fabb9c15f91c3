// The lead's origin and sort name (the inbox's Origin and Name orders, on their indexes) after
// merge pushes: written when a push changes them, left as they are when it does not (SQLite's
// update then leaves those columns out: docs/design.md, the inbox's orders). Over a sequence,
// the stored columns always equal what the lead's own answer and name say.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushLead } from './support/lead-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.handle);
});
afterAll(() => server.close());

const stored = async (leadId: string) =>
  server.database.handle.db
    .selectFrom('leads')
    .select(['origin', 'sort_name'])
    .where('id', '=', leadId)
    .executeTakeFirstOrThrow();

describe("a lead's indexed origin and sort name through merge pushes", () => {
  it('follow every change of origin or name, and stay through pushes that change neither', async () => {
    const ref = `indexed-${Date.now()}`;
    const push = (origin: string | undefined, prospect: Record<string, unknown>) =>
      pushLead(server, tenant, 'customers', {
        ...(origin === undefined ? {} : { origin }),
        prospect: { external_ref: { external_ref: ref }, ...prospect },
      });
    const first = await push('crm-a', { first_name: 'Zoë', last_name: 'Zulu' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const leadId = (first.body as { id: string }).id;
    expect(await stored(leadId)).toEqual({ origin: 'crm-a', sort_name: 'zulu zoe' });

    const steps: Array<[string | undefined, Record<string, unknown>, { origin: string; sort_name: string }]> = [
      // Neither changes: a new telephone number.
      [
        'crm-a',
        { first_name: 'Zoë', last_name: 'Zulu', telephonenr: '0470 11 11 11' },
        { origin: 'crm-a', sort_name: 'zulu zoe' },
      ],
      // The origin alone.
      [
        'crm-b',
        { first_name: 'Zoë', last_name: 'Zulu', telephonenr: '0470 22 22 22' },
        { origin: 'crm-b', sort_name: 'zulu zoe' },
      ],
      // The name alone (no origin sent: it stays).
      [undefined, { first_name: 'Zoë', last_name: 'Alpha' }, { origin: 'crm-b', sort_name: 'alpha zoe' }],
      // Both.
      ['crm-c', { first_name: 'Anna', last_name: 'Aardvark' }, { origin: 'crm-c', sort_name: 'aardvark anna' }],
      // Neither again, the tenth push as the second.
      [
        'crm-c',
        { first_name: 'Anna', last_name: 'Aardvark', telephonenr: '0470 33 33 33' },
        { origin: 'crm-c', sort_name: 'aardvark anna' },
      ],
    ];
    for (const [origin, prospect, expected] of steps) {
      const reply = await push(origin, prospect);
      expect(reply.status, JSON.stringify(prospect)).toBe(200);
      expect((reply.body as { id: string }).id).toBe(leadId);
      expect(await stored(leadId), JSON.stringify(prospect)).toEqual(expected);
    }
  });
});
