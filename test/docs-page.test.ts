// GET /docs renders the API reference in a real browser (headless Chromium from npm driven
// by playwright-core, test/support/browser.ts), with every asset served by this process: the machines that run the
// service may have no internet. Runs in the sqlite project only (vitest.config.ts): the
// database behind the page is irrelevant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/browser.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('GET /docs', () => {
  it('shows both push operations, loading nothing from elsewhere', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    const pageErrors: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => pageErrors.push(error.message));

    const response = await page.goto(`${server.url}/docs`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('lead-intake API reference');

    for (const [operationId, path] of [
      ['pushCustomerLead', '/v1/api/distributions/{distribution_id}/leads/customers'],
      ['pushCompanyLead', '/v1/api/distributions/{distribution_id}/leads/companies'],
    ]) {
      // Swagger UI gives each operation the id operations-<tag>-<operationId>.
      const operation = page.locator(`#operations-leads-${operationId}`);
      await operation.waitFor({ state: 'visible' });
      expect(await operation.locator('.opblock-summary-method').innerText()).toBe('POST');
      expect(await operation.locator('.opblock-summary-path').innerText()).toContain(path);
    }
    await expect(page.locator('.info .title').innerText()).resolves.toContain('lead-intake API');

    expect(pageErrors).toEqual([]);
    expect(requested.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith('data:'))).toEqual([]);
    await page.close();
  });
});
