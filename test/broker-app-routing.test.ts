// The routing rules in the broker app (docs/design.md section 15), in a real headless
// Chromium: a broker follows "Routing" from the inbox and reads the rules in the order they
// are tried, with whom each assigns (by name, a disabled user marked), read-only; the
// lead a rule assigned says so on its timeline. Every page passes axe-core without a
// serious violation. A distribution without rules is told new leads stay unassigned.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROUTING_RULES_TTL_MS, setRoutingRules } from '../src/party/index.ts';
import { createUser, disableUser } from '../src/sso/index.ts';
import { seriousViolations } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { type Broker, createBroker } from './support/broker-app.ts';
import { pushLead } from './support/lead-client.ts';
import { PASSWORD } from './support/sso.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let broker: Broker;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  broker = await createBroker(server);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signIn(page: Page, url: string, username: string) {
  await page.goto(url);
  await page.fill('#login', username);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(url), page.click('button[type=submit]:not(.secondary)')]);
}

describe('the routing rules in the broker app', () => {
  it('shows the rules in order with whom they assign, and the rule on the lead it routed', async () => {
    const db = server.database.handle.db;
    const { distributionId } = broker.tenant;
    const colleague = (username: string, name: string) =>
      createUser(db, { distributionId, email: `${username}@example.be`, username, name, password: PASSWORD });
    const zoe = await colleague(`zoe-${process.pid}`, 'Zoë Peeters');
    const gone = await colleague(`gone-${process.pid}`, 'Gone Away');
    await setRoutingRules(
      db,
      distributionId,
      JSON.stringify({
        rules: [
          {
            when: { origin: ['web'], kind: 'CUSTOMER', postcodes: ['1000-1299'], language: ['fr'] },
            assign: { round_robin: [zoe.id, gone.id] },
          },
          { when: {}, assign: { user: zoe.id } },
        ],
      }),
    );
    await disableUser(db, gone.id);
    server.clock.advance(ROUTING_RULES_TTL_MS);
    const pushed = await pushLead(server, broker.tenant, 'customers', {
      prospect: { first_name: 'Els', last_name: 'Claes', external_refs: [{ external_ref: randomUUID() }] },
    });
    expect(pushed.body.assignee).toBe(zoe.id);

    const context = await browser.newContext({ locale: 'en-BE' });
    const page = await context.newPage();
    await signIn(page, `${server.url}/app`, broker.user.username);
    await Promise.all([page.waitForURL(`${server.url}/app/routing`), page.click('nav a[href="/app/routing"]')]);
    await expect(page.locator('h1').innerText()).resolves.toBe('Routing of new leads');
    await expect(page.locator('nav a[aria-current="page"]').innerText()).resolves.toBe('Routing');
    const rows: string[][] = [];
    for (const row of await page.locator('tbody tr').all())
      rows.push((await row.locator('th, td').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim()));
    expect(rows).toEqual([
      [
        '1',
        'Origin: web Kind: Person Postcodes of the first residence: 1000-1299 Language: fr',
        'In turn: Zoë Peeters, Gone Away (disabled: skipped)',
      ],
      ['2', 'Any new lead', 'Zoë Peeters'],
    ]);
    // Read-only: nothing on the page changes the rules.
    expect(await page.locator('main form, main input, main button').count()).toBe(0);
    expect(await seriousViolations(page), page.url()).toEqual([]);

    await page.goto(`${server.url}/app/proflow/parties/${pushed.body.party_id}`);
    await expect(page.locator('main').innerText()).resolves.toContain('Routing rule 2');
    expect(await seriousViolations(page), page.url()).toEqual([]);
    await context.close();
  });

  it('says new leads stay unassigned when the distribution has no rules', async () => {
    const other = await createBroker(server, { language: 'nl' });
    const context = await browser.newContext({ locale: 'nl-BE' });
    const page = await context.newPage();
    await signIn(page, `${server.url}/app/routing`, other.user.username);
    await expect(page.locator('h1').innerText()).resolves.toBe('Routering van nieuwe leads');
    await expect(page.locator('[role=status]').innerText()).resolves.toBe(
      'Geen routeringsregels: nieuwe leads blijven niet toegewezen.',
    );
    expect(await seriousViolations(page), page.url()).toEqual([]);
    await context.close();
  });
});
