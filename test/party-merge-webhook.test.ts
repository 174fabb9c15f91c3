// The party.merged event (docs/api.md, "Merging two parties"; docs/webhooks.md): signed with
// the distribution's secret, sent to the callbacks of both parties, with the four ids only.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi } from './support/api-client.ts';
import { cliJson } from './support/cli.ts';
import { pushLead } from './support/lead-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

let server: TestServer;
let tenant: Tenant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  tenant = await createTenant(server.database.handle, ['leads:write', 'parties:update']);
  receiver = await startReceiver();
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

it("sends a signed party.merged with the four ids to both parties' callbacks", async () => {
  const push = async (path: string) => {
    const reply = await pushLead(server, tenant, 'customers', {
      prospect: { first_name: 'Hook', last_name: 'Merge', callbacks: [receiver.url(path)] },
    });
    expect(reply.status).toBe(201);
    await receiver.waitFor(path, 1);
    return reply.body;
  };
  const survivor = await push('/survivor');
  const merged = await push('/merged');
  const reply = await callApi(
    server,
    tenant,
    'POST',
    `/distributions/${tenant.distributionId}/parties/${survivor.party_id}/merge`,
    {
      body: { from: merged.party_id },
    },
  );
  expect(reply.status).toBe(200);
  const [, toSurvivor] = await receiver.waitFor('/survivor', 2);
  const [, toMerged] = await receiver.waitFor('/merged', 2);
  const data = {
    party_id: survivor.party_id,
    merged_party_id: merged.party_id,
    lead_id: survivor.id,
    merged_lead_id: merged.id,
  };
  const { secret } = await cliJson(server.database.env, ['webhook', 'secret', '--distribution', tenant.distributionId]);
  for (const webhook of [toSurvivor!, toMerged!]) {
    expect(webhook.json).toMatchObject({ type: 'party.merged', distribution_id: tenant.distributionId, data });
    expect(new Webhook(secret).verify(webhook.body, webhook.headers)).toEqual(webhook.json);
  }
});
