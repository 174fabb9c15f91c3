// GET /docs renders the API reference in a real browser (headless Chromium from npm driven
// by playwright-core, test/support/browser.ts), with every asset served by this process: the machines that run the
// service may have no internet. Runs in the sqlite project only (vitest.config.ts): the
// database behind the page is irrelevant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/browser.ts';
import { createTenant, startTestServer, type TestServer } from './support/test-server.ts';

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
    // The landing text says how to authenticate before a partner tries anything.
    const landing = await page.locator('.info .description').innerText();
    expect(landing).toContain('How to authenticate.');
    expect(landing).toContain('Authorization: apikey <API_TOKEN>');
    expect(landing).toContain('Authorization: bearer <ACCESS_TOKEN>');
    expect(landing).toContain('lead-intake token create');

    expect(pageErrors).toEqual([]);
    expect(requested.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith('data:'))).toEqual([]);
    await page.close();
  });

  it('tries an operation out with an API token pasted alone, sending it with its apikey scheme', async () => {
    const tenant = await createTenant(server.database.handle, ['leads:read']);
    const page = await browser.newPage();
    const sent: Array<string | undefined> = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/api/')) sent.push(request.headers().authorization);
    });
    await page.goto(`${server.url}/docs`);

    await page.locator('.btn.authorize').first().click();
    const apikey = page.locator('.auth-container').filter({ hasText: 'apikey' }).first();
    await apikey.locator('input').fill(tenant.token);
    await apikey.locator('button.authorize').click();
    await page.locator('.btn-done').first().click();

    const operation = page.locator('#operations-leads-listLeads');
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('tr[data-param-name="distribution_id"] input').fill(tenant.distributionId);
    await operation.locator('.execute').click();
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ state: 'visible' });
    await expect(status.innerText()).resolves.toMatch(/^200/);
    expect(sent).toEqual([`apikey ${tenant.token}`]);
    await page.close();
  });
});
