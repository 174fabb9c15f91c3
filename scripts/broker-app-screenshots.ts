// Regenerates the broker app's screenshots in docs/ (docs/broker-app.md, "Broker app"): a
// server on a fresh SQLite database in a temporary directory, a demo broker, the leads of
// test/support/demo-portfolio.ts pushed over HTTP (the family lead twice, so its car has
// a second revision, and a status, an assignee, a follow-up day and a note set through the app), then
// headless Chromium signs in and captures the inbox, the lead page and its timeline at
// 1280 px, where leads come from (/app/sources), and the inbox and the lead page on a 390 px
// phone. Run: npm run screenshots
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiToken } from '../src/auth/api-token.service.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { insertDistribution } from '../src/distributions/distribution.repository.ts';
import { createUser } from '../src/sso/index.ts';
import { launchChromium } from '../test/support/browser.ts';
import { ROOT } from '../test/support/cli.ts';
import { companyLead, familyLead, SIMPLE_LEADS } from '../test/support/demo-portfolio.ts';

const PASSWORD = 'screenshot password';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-intake-screenshots-'));
const database = openDatabase({ databaseUrl: undefined, dataDir, sqliteSynchronous: 'NORMAL' });
await migrateToLatest(database.db);
const port = 18_000 + Math.floor(Math.random() * 1000);
const config = loadConfig({
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://localhost:${port}`,
  LOG_LEVEL: 'silent',
  WEBHOOK_WORKER: 'false',
});
const app = await buildApp({ config, database });
await app.listen({ port, host: '127.0.0.1' });
const browser = await launchChromium();
try {
  const distribution = await insertDistribution(database.db, 'Demo distribution');
  const token = await createApiToken(database.db, { distributionId: distribution.id, scopes: ['leads:write'] });
  await createUser(database.db, {
    distributionId: distribution.id,
    email: 'bert.broker@example.be',
    username: 'bert.broker',
    password: PASSWORD,
    language: 'en',
  });
  await createUser(database.db, {
    distributionId: distribution.id,
    email: 'an.broker@example.be',
    username: 'an.broker',
    password: PASSWORD,
    language: 'en',
  });
  const push = async (kind: 'customers' | 'companies', body: unknown) => {
    const response = await fetch(`${config.publicUrl}/v1/api/distributions/${distribution.id}/leads/${kind}`, {
      method: 'POST',
      headers: { authorization: `apikey ${token.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`push refused: ${response.status} ${await response.text()}`);
    return (await response.json()) as { href: string; party_id: string };
  };
  for (const lead of SIMPLE_LEADS) await push('customers', lead);
  await push('companies', companyLead());
  const family = familyLead();
  const lead = await push('customers', family);
  // A second push of the family: the Golf got its licence plate changed and more mileage.
  const [golf, ...otherCars] = family.prospect.risk_objects.cars;
  await push('customers', {
    ...family,
    prospect: {
      ...family.prospect,
      id: lead.party_id,
      risk_objects: {
        ...family.prospect.risk_objects,
        cars: [{ ...golf, license_plate: '2-XYZ-987', mileage: 48_000 }, ...otherCars],
      },
    },
  });

  const docs = path.join(ROOT, 'docs');
  const written: string[] = [];
  const shoot = async (page: import('playwright-core').Page, name: string) => {
    await page.screenshot({ path: path.join(docs, name), fullPage: true });
    written.push(`docs/${name}`);
  };
  const signedIn = async (width: number) => {
    const context = await browser.newContext({
      locale: 'en-BE',
      viewport: { width, height: 800 },
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    await page.goto(`${config.publicUrl}/app`);
    await page.fill('#login', 'an.broker');
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(`${config.publicUrl}/app`), page.click('button[type=submit]:not(.secondary)')]);
    return page;
  };
  const page = await signedIn(1280);
  // The broker's work, done through the app's own forms.
  await page.goto(lead.href);
  await page.selectOption('#status', 'contacted');
  await page.selectOption('#assignee', { label: 'an.broker' });
  await page.fill('#follow_up_on', new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10));
  await Promise.all([page.waitForURL(/saved=work/), page.click('#work button[type=submit]')]);
  await page.fill('#note', 'Called Els: she wants an offer for the Tesla before the end of the month.');
  await Promise.all([page.waitForURL(/saved=note/), page.click('#notes button[type=submit]')]);
  await page.goto(`${config.publicUrl}/app`);
  await shoot(page, 'broker-app-inbox.png');
  await page.goto(`${config.publicUrl}/app/sources`);
  await shoot(page, 'broker-app-sources.png');
  await page.goto(lead.href);
  // The Golf's history open, as a broker looking at what changed would have it.
  await page
    .locator('details')
    .first()
    .evaluate((details) => details.setAttribute('open', ''));
  await shoot(page, 'broker-app-party.png');
  await page.goto(lead.href.replace('/app/parties/', '/app/proflow/parties/'));
  await shoot(page, 'broker-app-timeline.png');
  const phone = await signedIn(390);
  await shoot(phone, 'broker-app-inbox-phone.png');
  await phone.goto(lead.href);
  await shoot(phone, 'broker-app-party-phone.png');
  console.log(`wrote ${written.join(', ')}`);
} finally {
  await browser.close();
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
