// The broker app in a real headless Chromium (docs/design.md section 7): a broker opens a pushed lead's
// link while signed out, signs in on the provider's page, lands on the lead, follows every
// link of the push answer, searches the inbox, reads a push's raw body, replays a failed
// webhook delivery, and signs out. Every page passes axe-core without a serious
// violation, loads nothing from elsewhere and breaks no CSP rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { type Broker, createBroker } from './support/broker-app.ts';
import { familyLead, SIMPLE_LEADS } from './support/demo-portfolio.ts';
import { pushLead } from './support/lead-client.ts';
import { PASSWORD } from './support/sso.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

let server: TestServer;
let receiver: WebhookReceiver;
let broker: Broker;
let browser: Browser;

beforeAll(async () => {
  [server, receiver, browser] = await Promise.all([
    // One retry 1 ms after the first attempt, then `failed`: a delivery to replay.
    startTestServer({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '1ms' }),
    startReceiver(),
    launchChromium(),
  ]);
  broker = await createBroker(server);
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await server?.close();
});

/** Watches a page for requests elsewhere and for console errors (CSP violations among them). */
function watch(page: Page) {
  const origins = new Set<string>();
  const problems: string[] = [];
  page.on('request', (request) => origins.add(new URL(request.url()).origin));
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(message.text());
  });
  return { origins, problems };
}

async function expectAccessible(page: Page) {
  expect(await seriousViolations(page), page.url()).toEqual([]);
}

describe('the broker app in a browser', () => {
  it('signs in from a lead link, opens every link of the push, searches, replays, and signs out', async () => {
    receiver.script('/hook', { status: 500 }, { status: 500 });
    const body = familyLead({ callbacks: [receiver.url('/hook')] });
    const pushed = await pushLead(server, broker.tenant, 'customers', body);
    expect(pushed.status).toBe(201);
    for (const lead of SIMPLE_LEADS)
      expect((await pushLead(server, broker.tenant, 'customers', lead)).status).toBe(201);

    const context = await browser.newContext({ locale: 'en-BE' });
    const page = await context.newPage();
    const seen = watch(page);

    // Signed out: the lead's link leads to the login page, and back to the lead.
    await page.goto(pushed.body.href);
    await expect(page.locator('h1').innerText()).resolves.toBe('Sign in');
    await page.fill('#login', broker.user.username);
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(pushed.body.href), page.click('button[type=submit]:not(.secondary)')]);
    await expect(page.locator('h1').innerText()).resolves.toBe('Els Claes');
    await expect(page.locator('a[href="https://crm.example.com/contacts/4711"]').innerText()).resolves.toBe(
      'Open in the sender’s application',
    );
    // The style sheet applies (its hash is in the CSP).
    expect(
      await page
        .locator('header.top')
        .evaluate((header) => header.ownerDocument.defaultView!.getComputedStyle(header).backgroundColor),
    ).toBe('rgb(30, 58, 138)');
    await expectAccessible(page);

    // Keyboard: the first Tab reaches the skip link, which leads to the content.
    await page.keyboard.press('Tab');
    await expect(page.locator(':focus').innerText()).resolves.toBe('Skip to content');

    // Risk scan: the Tesla is covered by an offer only, so flagged.
    await page.goto(pushed.body.href_to_risk_scan);
    const flags = await page.locator('h2 .flag').allInnerTexts();
    expect(flags).toEqual(['Covered', 'Not covered by any policy', 'Covered']);
    await expectAccessible(page);

    // Advisory: yearly premiums, exact. 33.33 x 12 + 100.10 x 4 + 0.1 x 2 = 800.56; the offer is not counted.
    await page.goto(pushed.body.href_to_advisory_flow);
    await expect(page.locator('[data-total]').innerText()).resolves.toBe('€800.56');
    await expectAccessible(page);

    // Timeline: the push, its raw body on demand, and the delivery once it has failed.
    await page.goto(pushed.body.href_to_proflow);
    await expectAccessible(page);
    await page.click('text=Show the body as received');
    const raw = await page.locator('pre').innerText();
    // Exactly the bytes that were sent (pushLead sends JSON.stringify of the body).
    expect(raw).toBe(JSON.stringify(body));
    await page.goto(pushed.body.href_to_proflow);
    for (let tries = 0; !(await page.locator('text=Failed').count()) && tries < 200; tries++) await page.reload();
    await page.click('button:has-text("Send again")');
    await expect(page.locator('[role=status]').innerText()).resolves.toBe(
      'The delivery is queued and goes out again in a moment.',
    );
    await receiver.waitFor('/hook', 3);
    await expectAccessible(page);

    // Inbox: newest change first, then a search by VIN through the form.
    await page.click('header.top >> text=Inbox');
    const names = await page.locator('tbody th[scope=row] a').allInnerTexts();
    expect(names).toEqual(['Lukas Schmitz', 'Sophie Dubois', 'Jan Peeters', 'Els Claes']);
    await expectAccessible(page);
    await page.fill('#q', '5YJ3E7EB2KF000002');
    await page.press('#q', 'Enter');
    await expect(page.locator('tbody th[scope=row] a').allInnerTexts()).resolves.toEqual(['Els Claes']);

    // Sign out: the session is over; the app asks to sign in again.
    await page.click('button:has-text("Sign out")');
    await expect(page.locator('h1').innerText()).resolves.toBe('Signed out');
    await expectAccessible(page);
    await page.goto(`${server.url}/app`);
    await expect(page.locator('h1').innerText()).resolves.toBe('Sign in');

    expect([...seen.origins]).toEqual([new URL(server.url).origin]);
    expect(seen.problems).toEqual([]);
    await context.close();
  });
});
