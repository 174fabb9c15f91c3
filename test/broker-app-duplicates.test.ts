// Possible duplicates in the broker app (docs/api.md, "Possible duplicates"): the lead page
// links to the parties that may be the same person, with why, and the inbox filters to the
// leads that have some.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBroker, openSignedIn, UserAgent } from './support/broker-app.ts';
import { inputValue } from './support/sso.ts';
import { pushLead } from './support/lead-client.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const names = (body: string) =>
  [...body.matchAll(/<th scope="row"><a href="\/app\/parties\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);

describe('possible duplicates in the broker app', () => {
  it('lists them on the lead page as links with their reasons, and filters the inbox to leads that have some', async () => {
    const broker = await createBroker(server);
    const email = `${randomUUID()}@example.be`;
    const push = async (first_name: string, prospect: Record<string, unknown>) => {
      const reply = await pushLead(server, broker.tenant, 'customers', {
        prospect: { first_name, last_name: 'Dubois', ...prospect },
      });
      expect(reply.status).toBe(201);
      return reply.body.party_id as string;
    };
    const person = await push('Anna', { email, telephonenr: '0470 99 88 77' });
    const twin = await push('Ana', { email: email.toUpperCase(), telephonenr: '+32 470 998877' });
    await push('Alone', { email: `${randomUUID()}@example.be` });

    const agent = new UserAgent(server);
    const page = await openSignedIn(agent, `${server.url}/app/parties/${person}`, broker.user.username);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<a href="/app/parties/${twin}">Ana Dubois</a>`);
    expect(page.body).toContain('(e-mail, telephone)');

    const all = await agent.request(`${server.url}/app`);
    expect(names(all.body).sort()).toEqual(['Alone Dubois', 'Ana Dubois', 'Anna Dubois']);
    const filtered = await agent.request(`${server.url}/app?duplicates=possible`);
    expect(filtered.status).toBe(200);
    expect(names(filtered.body).sort()).toEqual(['Ana Dubois', 'Anna Dubois']);
    // The filter stays in the form.
    expect(filtered.body).toContain('<option value="possible" selected>');
    expect((await agent.request(`${server.url}/app?duplicates=maybe`)).status).toBe(422);
  });

  it('merges a possible duplicate after a confirmation page, and the merged lead is gone', async () => {
    const broker = await createBroker(server);
    const email = `${randomUUID()}@example.be`;
    const push = async (first_name: string) => {
      const reply = await pushLead(server, broker.tenant, 'customers', {
        prospect: { first_name, last_name: 'Maes', email },
      });
      expect(reply.status).toBe(201);
      return reply.body.party_id as string;
    };
    const survivor = await push('Lien');
    const twin = await push('Lina');
    const agent = new UserAgent(server);
    const page = await openSignedIn(agent, `${server.url}/app/parties/${survivor}`, broker.user.username);
    const link = `/app/parties/${survivor}/merge?from=${twin}`;
    expect(page.body).toContain(`href="${link.replace('&', '&amp;')}"`);

    const confirm = await agent.request(`${server.url}${link}`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain('Merge Lina Maes into Lien Maes?');
    // A form without the session's token merges nothing.
    const forged = await agent.request(`${server.url}/app/parties/${survivor}/merge`, {
      form: { csrf: 'x', from: twin },
    });
    expect(forged.status).toBe(403);
    const merged = await agent.follow(`${server.url}/app/parties/${survivor}/merge`, {
      form: { csrf: inputValue(confirm.body, 'csrf')!, from: twin },
    });
    expect(merged.status).toBe(200);
    expect(merged.body).not.toContain('Lina Maes');
    const inbox = await agent.request(`${server.url}/app`);
    expect(names(inbox.body)).toEqual(['Lien Maes']);
    // The survivor's timeline shows the merge and who made it.
    const timeline = await agent.request(`${server.url}/app/proflow/parties/${survivor}`);
    expect(timeline.status).toBe(200);
    expect(timeline.body).toContain(twin);
    expect(timeline.body).toContain(broker.user.username);
  });
});
