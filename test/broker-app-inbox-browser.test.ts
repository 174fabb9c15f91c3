// The inbox as a broker's workplace in real headless Chromium (docs/design.md section 13): on
// a 390 px phone the first lead is on the first screen, each lead one compact row, the
// filters behind one button; at 1280 px no one-word column header breaks over two lines;
// ten leads ticked and assigned from the keyboard alone; axe-core without a serious
// violation at both widths, filters open or closed.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type UserListing } from '../src/sso/index.ts';
import { callApi } from './support/api-client.ts';
import { seriousViolations } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { type Broker, createBroker } from './support/broker-app.ts';
import { pushLead } from './support/lead-client.ts';
import { PASSWORD } from './support/sso.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let broker: Broker;
let colleague: UserListing;
let browser: Browser;
const leadIds: string[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ WEBHOOK_WORKER: 'false' }), launchChromium()]);
  broker = await createBroker(server);
  colleague = await createUser(server.database.handle.db, {
    distributionId: broker.tenant.distributionId,
    email: `anna-${process.pid}@example.be`,
    username: `anna-${process.pid}`,
    password: PASSWORD,
  });
  const first = ['Jan', 'Sophie', 'Lukas', 'Els', 'Wout', 'Nora'];
  for (let i = 0; i < 12; i++) {
    const pushed = await pushLead(server, broker.tenant, 'customers', {
      origin: i % 2 === 0 ? 'website' : 'partner-portal',
      prospect: {
        first_name: first[i % first.length],
        last_name: `Peeters-${i}`,
        email: `lead-${i}@example.be`,
        external_refs: [{ external_ref: `INBOX-${i}`, external_ref_company: 'acme' }],
      },
    });
    expect(pushed.status).toBe(201);
    leadIds.push(pushed.body.id);
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signedIn(width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-BE', viewport: { width, height } });
  const page = await context.newPage();
  await page.goto(`${server.url}/app`);
  await page.fill('#login', broker.user.username);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(`${server.url}/app`), page.click('button[type=submit]:not(.secondary)')]);
  return page;
}

/** The lines a header's text takes: distinct tops of its text's boxes. */
const HEADER_LINES = `[...document.querySelectorAll('thead th')].map((th) => {
  const range = document.createRange();
  range.selectNodeContents(th);
  const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
  return { text: th.innerText.replace(/[↑↓]/g, '').trim(), lines: tops.size };
})`;

describe('the inbox on a 390 px phone', () => {
  it('shows the first lead on the first screen, one compact row per lead, the filters behind one button', async () => {
    const page = await signedIn(390, 844);
    const rows = page.locator('tbody tr');
    const first = (await rows.first().boundingBox())!;
    expect(first.y + first.height).toBeLessThanOrEqual(844);
    for (const box of await rows.evaluateAll((all) => all.map((row) => row.getBoundingClientRect().height)))
      expect(box).toBeLessThan(90);
    await expect(page.locator('#assignee').isVisible()).resolves.toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.click('details.more-filters > summary');
    await expect(page.locator('#assignee').isVisible()).resolves.toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});

describe('the inbox at 1280 px', () => {
  it('keeps every one-word column header on one line', async () => {
    const page = await signedIn(1280, 800);
    const headers = (await page.evaluate(HEADER_LINES)) as Array<{ text: string; lines: number }>;
    expect(headers.length).toBeGreaterThan(5);
    for (const header of headers.filter((h) => !h.text.includes(' ')))
      expect(header, header.text).toMatchObject({ lines: 1 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('assigns ten leads from the keyboard alone and says so', async () => {
    const page = await signedIn(1280, 800);
    // Tab to each of ten tick boxes in turn and tick it with the space bar.
    let ticked = 0;
    for (let presses = 0; ticked < 10 && presses < 200; presses++) {
      await page.keyboard.press('Tab');
      const focused = (await page.evaluate(
        `({ type: document.activeElement.type ?? '', checked: !!document.activeElement.checked })`,
      )) as { type: string; checked: boolean };
      if (focused.type === 'checkbox' && !focused.checked) {
        await page.keyboard.press('Space');
        ticked += 1;
      }
    }
    expect(ticked).toBe(10);
    for (let presses = 0; presses < 100; presses++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate('document.activeElement.id')) === 'bulk-assignee') break;
    }
    const place = (await page.evaluate(
      `[...document.querySelectorAll('#bulk-assignee option')].findIndex((o) => o.value === ${JSON.stringify(colleague.id)})`,
    )) as number;
    expect(place).toBeGreaterThan(0);
    for (let i = 0; i < place; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab'); // the status: left as is
    await page.keyboard.press('Tab'); // the button
    await Promise.all([page.waitForURL(/bulk=10\.0/), page.keyboard.press('Enter')]);
    await expect(page.locator('[role=status]').first().innerText()).resolves.toBe('10 of 10 selected leads changed.');
    expect(await seriousViolations(page)).toEqual([]);
    let assigned = 0;
    for (const id of leadIds) {
      const read = await callApi(
        server,
        broker.tenant,
        'GET',
        `/distributions/${broker.tenant.distributionId}/leads/${id}`,
      );
      if (read.body.assignee === colleague.id) assigned += 1;
    }
    expect(assigned).toBe(10);
    // The colleague's filter finds them.
    await page.goto(`${server.url}/app?assignee=${colleague.id}`);
    await expect(page.locator('caption').innerText()).resolves.toBe('Leads 1–10 of 10');
    await page.context().close();
  });
});

describe.each([390, 1280])('the sources page at %i px', (width) => {
  it('draws the weekly chart without script, fits the screen and passes axe', async () => {
    const page = await signedIn(width, 800);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.click('header.top >> text=Sources');
    await expect(page.locator('h1').innerText()).resolves.toBe('Where leads come from');
    await expect(page.locator('svg.chart g').count()).resolves.toBeGreaterThanOrEqual(12);
    expect((await page.locator('svg.chart').boundingBox())!.width).toBeGreaterThan(width / 2);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    expect(scripts).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
