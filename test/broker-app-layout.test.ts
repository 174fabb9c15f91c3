// The broker app on a 390 px phone and a 1280 px desktop in real headless Chromium
// (docs/design.md section 13): every page without sideways scrolling and with nothing
// spilling out of its card, axe-core without a serious violation at both widths, and the
// work and note forms filled in and sent with the keyboard alone.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { type Broker, createBroker } from './support/broker-app.ts';
import { companyLead, familyLead, insuredCarLead, SIMPLE_LEADS } from './support/demo-portfolio.ts';
import { pushLead } from './support/lead-client.ts';
import { PASSWORD } from './support/sso.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let broker: Broker;
let browser: Browser;
let pages: string[];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ WEBHOOK_WORKER: 'false' }), launchChromium()]);
  broker = await createBroker(server);
  for (const lead of SIMPLE_LEADS) await pushLead(server, broker.tenant, 'customers', lead);
  await pushLead(server, broker.tenant, 'companies', companyLead());
  // Long words that do not break by themselves: a URL, an e-mail address, a reference.
  const family = familyLead({
    ref: `CRM-${'4711'.repeat(12)}`,
    callbacks: [`https://crm.example.com/${'hooks/'.repeat(12)}`],
  });
  const pushed = await pushLead(server, broker.tenant, 'customers', family);
  const money = await pushLead(server, broker.tenant, 'customers', insuredCarLead());
  const raw = (await (
    await fetch(`${server.url}/v1/api/distributions/${broker.tenant.distributionId}/leads/${pushed.body.id}/pushes`, {
      headers: { authorization: `apikey ${broker.tenant.token}` },
    })
  ).json()) as { items: Array<{ id: string }> };
  pages = [
    '/app',
    '/app?status=new&sort=received',
    '/app/sources',
    ...[pushed.body, money.body].flatMap((lead) => [
      lead.href,
      lead.href_to_proflow,
      lead.href_to_risk_scan,
      lead.href_to_advisory_flow,
    ]),
    `/app/proflow/parties/${pushed.body.party_id}/pushes/${raw.items[0]!.id}`,
    '/app/no/such/page',
  ].map((path) => (path.startsWith('http') ? path : `${server.url}${path}`));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/app`);
  await page.fill('#login', broker.user.username);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(`${server.url}/app`), page.click('button[type=submit]:not(.secondary)')]);
}

/**
 * What does not fit: a page wider than the window, or an element reaching out of its card
 * (or the page's main). Run in the page, as text: the project's types know no DOM.
 */
const MISFITS = `(() => {
  const found = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth) found.push('the page is ' + root.scrollWidth + ' px wide in ' + window.innerWidth);
  const name = (element) => element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') +
    (typeof element.className === 'string' && element.className ? '.' + element.className.replace(/ /g, '.') : '') +
    ' "' + (element.textContent || '').trim().slice(0, 40) + '"';
  for (const box of document.querySelectorAll('main, section.card')) {
    const outer = box.getBoundingClientRect();
    for (const element of box.querySelectorAll('*')) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      // The screen-reader-only texts are 1 px and clipped on purpose.
      if (getComputedStyle(element).clipPath.startsWith('inset')) continue;
      if (rect.right > outer.right + 1 || rect.left < outer.left - 1)
        found.push(name(element) + ' (' + Math.round(rect.left) + '-' + Math.round(rect.right) + ') out of ' +
          name(box).slice(0, 30) + ' (' + Math.round(outer.left) + '-' + Math.round(outer.right) + ')');
    }
  }
  return found;
})()`;

const misfits = (page: Page): Promise<string[]> => page.evaluate(MISFITS);

describe.each([390, 1280])('at %i px', (width) => {
  it('fits every page: no sideways scrolling, nothing out of its card, no serious axe violation', async () => {
    const context = await browser.newContext({ locale: 'en-BE', viewport: { width, height: 800 } });
    const page = await context.newPage();
    await signIn(page);
    for (const url of pages) {
      await page.goto(url);
      expect(await misfits(page), url).toEqual([]);
      expect(await seriousViolations(page), url).toEqual([]);
    }
    await context.close();
  });

  it('takes the work and note forms from the keyboard alone', async () => {
    const context = await browser.newContext({ locale: 'en-BE', viewport: { width, height: 800 } });
    const page = await context.newPage();
    await signIn(page);
    const lead = await pushLead(server, broker.tenant, 'customers', insuredCarLead({ ref: `CRM-${width}` }));
    await page.goto(lead.body.href);
    await page.focus('#status');
    // Down from New: Contacted, Quoted.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await expect(page.evaluate('document.activeElement.id')).resolves.toBe('lost_reason');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await Promise.all([page.waitForURL(/saved=work/), page.keyboard.press('Enter')]);
    await expect(page.locator('#work [role=status]').innerText()).resolves.toBe('Saved.');
    await expect(page.locator('#work .status').innerText()).resolves.toBe('Quoted');
    expect(await misfits(page)).toEqual([]);

    await page.focus('#note');
    await page.keyboard.type(`Called back at ${width} px`);
    await page.keyboard.press('Tab');
    await Promise.all([page.waitForURL(/saved=note/), page.keyboard.press('Enter')]);
    await expect(page.locator('#notes .note').first().innerText()).resolves.toBe(`Called back at ${width} px`);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
