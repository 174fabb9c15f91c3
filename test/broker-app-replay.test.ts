// The timeline's "send again" button over real HTTP: a webhook delivery that failed (a
// real receiver answering 500 until its retries ran out) is replayed by a signed-in user
// of the distribution with the form's CSRF token, and then arrives; a forged token, or a
// user of another distribution, changes nothing. A delivery that cannot succeed again (refused
// for its address) has no button, and a replay posted for it anyway is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Broker, createBroker, openSignedIn, pathOf, UserAgent } from './support/broker-app.ts';
import { eventually } from './support/eventually.ts';
import { pushLead } from './support/lead-client.ts';
import { inputValue } from './support/sso.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

let server: TestServer;
let receiver: WebhookReceiver;
let broker: Broker;

beforeAll(async () => {
  // One retry 1 ms after the first attempt, then `failed`.
  [server, receiver] = await Promise.all([
    startTestServer({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '1ms' }),
    startReceiver(),
  ]);
  broker = await createBroker(server);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe('replaying a failed webhook delivery from the timeline', () => {
  it('sends it again for the distribution’s own user, with a valid CSRF token only', async () => {
    receiver.script('/hook', { status: 500 }, { status: 500 });
    const pushed = await pushLead(server, broker.tenant, 'customers', {
      prospect: { first_name: 'An', last_name: 'Wouters', callbacks: [receiver.url('/hook')] },
    });
    expect(pushed.status).toBe(201);
    await receiver.waitFor('/hook', 2);
    const agent = new UserAgent(server);
    const proflowPath = pathOf(pushed.body.href_to_proflow);
    await openSignedIn(agent, `${server.url}${proflowPath}`, broker.user.username);
    const failed = await eventually(
      async () => {
        const page = await agent.request(`${server.url}${proflowPath}`);
        return page.body.includes('>Failed<') ? page : undefined;
      },
      20_000,
      'the delivery to fail',
    );
    expect(failed.body).toContain('Attempt 1,');
    expect(failed.body).toContain('HTTP 500');
    // Who pushed, by the token's name (this one has none: the start of its id).
    expect(failed.body).toMatch(/<strong>Pushed: lead created<\/strong> · API token [0-9a-f]{8}… ·/);
    const action = /<form method="post" action="([^"]+\/replay)">/.exec(failed.body)![1]!;
    const csrf = inputValue(failed.body, 'csrf')!;

    // A forged token, and another distribution's user, get nowhere.
    expect((await agent.request(`${server.url}${action}`, { form: { csrf: 'forged' } })).status).toBe(403);
    const stranger = new UserAgent(server);
    const other = await createBroker(server);
    const strangerPage = await openSignedIn(stranger, `${server.url}/app`, other.user.username);
    const strangerReply = await stranger.request(`${server.url}${action}`, {
      form: { csrf: inputValue(strangerPage.body, 'csrf')! },
    });
    expect(strangerReply.status).toBe(404);
    expect(receiver.received).toHaveLength(2);

    const replayed = await agent.request(`${server.url}${action}`, { form: { csrf } });
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get('location')).toBe(`${proflowPath}?replayed=1`);
    const notice = await agent.request(`${server.url}${proflowPath}?replayed=1`);
    expect(notice.body).toContain('The delivery is queued and goes out again in a moment.');
    const arrivals = await receiver.waitFor('/hook', 3);
    // The same event, so the receiver can tell it is the one it missed.
    expect(arrivals[2]!.headers['webhook-id']).toBe(arrivals[0]!.headers['webhook-id']);
    const delivered = await eventually(
      async () => {
        const page = await agent.request(`${server.url}${proflowPath}`);
        return page.body.includes('>Delivered<') ? page : undefined;
      },
      20_000,
      'the delivery to be delivered',
    );
    expect(delivered.body).not.toContain('/replay"');
    // Replaying what is no longer failed is refused.
    expect((await agent.request(`${server.url}${action}`, { form: { csrf } })).status).toBe(404);
  });

  it('refuses to send again a delivery refused for its address, even when the form is posted by hand', async () => {
    const refusedUrl = 'http://169.254.169.254/latest/hook';
    const pushed = await pushLead(server, broker.tenant, 'customers', {
      prospect: { first_name: 'Bram', last_name: 'Peeters', callbacks: [refusedUrl] },
    });
    expect(pushed.status).toBe(201);
    const agent = new UserAgent(server);
    const proflowPath = pathOf(pushed.body.href_to_proflow);
    const signedIn = await openSignedIn(agent, `${server.url}${proflowPath}`, broker.user.username);
    const failed = await eventually(
      async () => {
        const page = await agent.request(`${server.url}${proflowPath}`);
        return page.body.includes('>Failed<') ? page : undefined;
      },
      20_000,
      'the delivery to be refused',
    );
    expect(failed.body).not.toContain('/replay"');
    const delivery = await server.database.handle.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'status'])
      .where('url', '=', refusedUrl)
      .executeTakeFirstOrThrow();
    expect(delivery.status).toBe('failed');

    const forged = await agent.request(`${server.url}${proflowPath}/deliveries/${delivery.id}/replay`, {
      form: { csrf: inputValue(signedIn.body, 'csrf')! },
    });
    expect(forged.status).toBe(404);
    const after = await server.database.handle.db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('id', '=', delivery.id)
      .executeTakeFirstOrThrow();
    expect(after.status).toBe('failed');
  });
});
