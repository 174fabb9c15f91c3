// The log holds no personal data at any level (docs/design.md section 14;
// docs/personal-data.md, "What the logs hold"): a person is pushed, read, looked up by ref, searched and exported in the
// broker app, their car and enterprise looked up, their webhooks fail with a receiver that
// quotes them back, and they are erased, with the app's own logger at debug level writing
// to a stream; no line holds any of their markers, while the lines that would have held
// them are there.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { callApi } from './support/api-client.ts';
import { createBroker, openSignedIn, UserAgent } from './support/broker-app.ts';
import { settledDeliveriesAbout } from './support/deliveries.ts';
import { pushLead } from './support/lead-client.ts';
import { uniqueMarker } from './support/personal-data.ts';
import { startTestServer, type Tenant, type TestServer } from './support/test-server.ts';

let server: TestServer;
let log = '';
let receiver: http.Server;
let receiverOrigin: string;

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
  });
  server = await startTestServer(
    { LOG_LEVEL: 'debug', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '10ms,10ms' },
    { logStream: stream },
  );
  // A receiver that fails every delivery and quotes the request back in its answer.
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () =>
      response.writeHead(500, { 'content-type': 'text/plain' }).end(`failed: ${request.url} ${body}`),
    );
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('the log at debug level', () => {
  it('holds none of what names a person, in request lines, webhook lines or errors', async () => {
    const broker = await createBroker(server);
    const full = await createApiToken(server.database.handle.db, {
      distributionId: broker.tenant.distributionId,
      scopes: ['leads:write', 'leads:read', 'parties:read', 'parties:update', 'parties:erase', 'vehicle:read'],
    });
    const tenant: Tenant = { distributionId: broker.tenant.distributionId, token: full.token };
    const marker = uniqueMarker();
    const email = `${marker.toLowerCase()}@example.be`;
    const vin = `WVWZZZ1JZX${marker.slice(-7).toUpperCase()}`;
    const ref = `ref-${marker}`;
    const secrets = [marker, email, ref, vin, '0477123987', '477123987', '0417497106'];
    const pushed = await pushLead(server, tenant, 'customers', {
      prospect: {
        first_name: marker,
        last_name: `Family${marker}`,
        email,
        telephonenr: '+32 477 12 39 87',
        address: { street: `Street${marker}`, housenr: '7', zipcode: '9000', city: 'Gent' },
        external_refs: [{ external_ref: ref, external_ref_company: 'crm' }],
        callbacks: [`${receiverOrigin}/hooks/${marker}?person=${marker}`],
        risk_objects: { cars: [{ vin, brand: 'Volvo', model: marker }] },
      },
    });
    expect(pushed.status).toBe(201);
    const partyId = pushed.body.party_id as string;
    const leadId = pushed.body.id as string;
    const d = `/distributions/${tenant.distributionId}`;

    // Reads, a lookup by ref, a PATCH, an export, reference lookups that carry a VIN, an
    // e-mail address and an enterprise number in their paths and queries.
    expect((await callApi(server, tenant, 'GET', `${d}/leads/${leadId}`)).status).toBe(200);
    const byRef = await callApi(
      server,
      tenant,
      'GET',
      `${d}/leads?external_ref=${encodeURIComponent(ref)}&external_ref_company=crm&limit=5`,
    );
    expect(byRef.body.items ?? byRef.body).toBeDefined();
    expect(
      (await callApi(server, tenant, 'PATCH', `${d}/parties/${partyId}`, { body: { telephonenr: '0477123987' } }))
        .status,
    ).toBe(200);
    expect((await callApi(server, tenant, 'GET', `${d}/parties/${partyId}/export`)).status).toBe(200);
    await callApi(server, tenant, 'GET', `/vehicles/vin/${vin}`);
    await callApi(server, tenant, 'GET', `/enterprises/0417497106`);
    await callApi(server, tenant, 'GET', `/addresses?q=${encodeURIComponent(`Street${marker}`)}`);
    await callApi(server, tenant, 'GET', `${d}/leads/${email}`);

    // The broker searches for the person, opens them and exports the search.
    const agent = new UserAgent(server);
    const inbox = await openSignedIn(agent, `${server.url}/app?q=${marker}`, broker.user.username);
    expect(inbox.status).toBe(200);
    expect(inbox.body).toContain(marker);
    const csv = await agent.request(`${server.url}/app/export.csv?q=${encodeURIComponent(`Street${marker}`)}`);
    expect(csv.status).toBe(200);
    expect((await agent.request(`${server.url}/app/parties/${partyId}`)).status).toBe(200);

    // Every delivery about the person has failed (each attempt answered 500 with the event).
    const deliveries = await settledDeliveriesAbout(server.database.handle.db, leadId);
    expect(deliveries.every((delivery) => delivery.status === 'failed')).toBe(true);
    expect((await callApi(server, tenant, 'DELETE', `${d}/parties/${partyId}`)).status).toBe(200);

    const lines = log.split('\n').filter((line) => line !== '');
    const found = lines.filter((line) => secrets.some((secret) => line.toLowerCase().includes(secret.toLowerCase())));
    expect(found).toEqual([]);
    // The lines that would have held them are there, masked.
    const urls = lines.map((line) => JSON.parse(line)).flatMap((entry) => (entry.req?.url ? [entry.req.url] : []));
    expect(urls).toContain(`/v1/api${d}/leads?external_ref=*&external_ref_company=*&limit=5`);
    expect(urls).toContain('/v1/api/vehicles/vin/*');
    expect(urls).toContain('/v1/api/enterprises/*');
    expect(urls).toContain(`/v1/api${d}/leads/*`);
    expect(urls).toContain('/app?q=*');
    expect(urls).toContain('/app/export.csv?q=*');
    expect(urls).toContain(`/app/parties/${partyId}`);
    const failed = lines.filter((line) => line.includes('webhook delivery failed'));
    expect(failed.length).toBeGreaterThan(0);
    expect(JSON.parse(failed[0]!)).toMatchObject({ target: receiverOrigin, status_code: 500, level: 40 });
  });
});
