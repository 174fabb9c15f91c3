// The timeline's webhook table in a real headless Chromium at 1280 px (docs/design.md section
// 16): every word of its headers and cells stays whole on one line ("Status", "Failed",
// "lead.created" were broken in the middle), the page does not scroll sideways, "Send again"
// is offered only for a delivery that can succeed (not one refused for its address, which
// the guard refuses again), and axe finds no serious violation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { seriousViolations } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { type Broker, createBroker } from './support/broker-app.ts';
import { eventually } from './support/eventually.ts';
import { familyLead } from './support/demo-portfolio.ts';
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
    // Loopback receivers are allowed; the cloud metadata address never is. One retry, then `failed`.
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

/** The words of `table`'s visible text that the browser laid out over more than one line. */
function brokenWords(table: Locator): Promise<string[]> {
  return table.evaluate((element) => {
    const broken: string[] = [];
    const walker = element.ownerDocument.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // Text for screen readers only is clipped to a pixel, not laid out for the eye.
      if (node.parentElement?.closest('.sr-only')) continue;
      for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
        const range = element.ownerDocument.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set(
          [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)),
        );
        if (lines.size > 1) broken.push(word[0]);
      }
    }
    return broken;
  });
}

describe('the timeline at 1280 px', () => {
  it('keeps every word of the webhook table whole, and offers "Send again" only where it can succeed', async () => {
    receiver.script('/down', { status: 500 }, { status: 500 });
    const refusedUrl = 'http://169.254.169.254/latest/hook';
    const body = familyLead({ callbacks: [receiver.url('/ok'), receiver.url('/down'), refusedUrl] });
    const pushed = await pushLead(server, broker.tenant, 'customers', body);
    expect(pushed.status).toBe(201);

    const context = await browser.newContext({ locale: 'en-BE', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(pushed.body.href_to_proflow);
    await page.fill('#login', broker.user.username);
    await page.fill('#password', PASSWORD);
    await Promise.all([
      page.waitForURL(pushed.body.href_to_proflow),
      page.click('button[type=submit]:not(.secondary)'),
    ]);

    // Every delivery settled: one delivered, two failed (one by its answers, one refused).
    const table = page.locator('table[aria-labelledby=deliveries]');
    const row = (url: string) => table.locator('tbody tr', { has: page.locator(`td:text-is("${url}")`) });
    const flags = async () => [
      await row(receiver.url('/ok')).locator('.flag').allInnerTexts(),
      await row(receiver.url('/down')).locator('.flag').allInnerTexts(),
      await row(refusedUrl).locator('.flag').allInnerTexts(),
    ];
    const settled = JSON.stringify([['Delivered'], ['Failed'], ['Failed']]);
    await eventually(
      async () => {
        await page.reload();
        return JSON.stringify(await flags()) === settled;
      },
      20_000,
      'three settled deliveries',
    );

    expect(await row(receiver.url('/down')).locator('button:has-text("Send again")').count()).toBe(1);
    // The guard refuses that address on every try: nothing to send again.
    await expect(row(refusedUrl).innerText()).resolves.toContain('refused: address not allowed');
    expect(await row(refusedUrl).locator('button').count()).toBe(0);
    expect(await row(receiver.url('/ok')).locator('button').count()).toBe(0);

    expect(await brokenWords(table)).toEqual([]);
    expect(await brokenWords(page.locator('ol.timeline'))).toEqual([]);
    expect(await page.locator('html').evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(1280);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
