// Tenant webhooks in a real browser (issue 32, part 3), as a demo tenant admin (tenant B): on the Configurations
// screen, an endpoint is registered against a receiver on 127.0.0.1 (allow-listed by e2e/global-setup.ts through
// WEBHOOK_ALLOWED_HOSTS), its secret is shown once; a farm captured through the SDK key raises farm.captured, the
// receiver gets it signed (verified with the Standard Webhooks reference library), and the delivery shows in the
// endpoint's log in the side drawer, where it can be redelivered. The endpoint is then disabled and deleted.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { consoleApi, type ConsoleApi } from './support/api';
import { ACCOUNTS, signIn } from './support/app';
import { launchBrowser, openPage, screenshot, type Session } from './support/browser';
import { openedDialog } from './support/ui';

const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;
let page: Page;
let api: ConsoleApi;

type Received = { headers: http.IncomingHttpHeaders; body: string };
const received: Received[] = [];
let server: http.Server;
let receiverUrl = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/e2e-${Date.now()}`;
  browser = await launchBrowser();
  s = await openPage(browser, baseUrl);
  page = s.page;
  await signIn(page, ACCOUNTS.adminB);
  api = await consoleApi(page);
});
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
});

describe('Webhooks', () => {
  let secret = '';

  it('registers an endpoint on the Configurations screen and shows its secret once', async () => {
    await page
      .getByTestId('sidebar')
      .getByRole('link', { name: /Configurations/ })
      .click();
    await page.waitForURL(/\/admin\/configurations$/);
    const section = page.getByTestId('webhooks');
    await section.waitFor();
    // Loaded: the table or its empty text.
    await section.locator('.ant-table-row, .ant-empty').first().waitFor();
    await section.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = await openedDialog(page, 'Add webhook endpoint');
    // A private address the allow-list does not cover is refused next to the field.
    await dialog.getByLabel('Webhook URL').fill('https://10.0.0.1/hook');
    await dialog.getByText('Farm captured').click();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await dialog.getByText(/loopback, private or link-local/).waitFor();
    await dialog.getByLabel('Webhook URL').fill(receiverUrl);
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = await openedDialog(page, 'Signing secret');
    secret = (await shown.getByTestId('created-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, 'wh1-secret-shown-once');
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = section.locator('.ant-table-row', { hasText: receiverUrl });
    await row.waitFor();
    expect(await row.textContent()).not.toContain(secret);
  });

  it('delivers a signed farm.captured event and shows it in the delivery log', async () => {
    const keys = JSON.parse(fs.readFileSync(path.join(inject('dataDir'), 'demo-license-keys.json'), 'utf8')) as Array<{ type: string; key: string }>;
    const sdkKey = keys.find((k) => k.type === 'SDK')!.key;
    const farmers = await api.get<{ results: Array<{ id: string }> }>('/api/farmers/?page_size=1');
    const x = 4.71 + Math.random() * 0.05;
    const coordinates = [
      [x, 8.71],
      [x + 0.001, 8.71],
      [x + 0.001, 8.711],
      [x, 8.711],
      [x, 8.71],
    ];
    const res = await api.call(
      'POST',
      '/api/farms/',
      { farmer_id: farmers.results[0]!.id, name: `Webhook farm ${x.toFixed(5)}`, coordinates },
      { auth: false, headers: { 'x-license-key': sdkKey } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const farmId = res.body.data.id as string;

    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const got = received[0]!;
    const payload = new Webhook(secret).verify(got.body, {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    }) as { type: string; data: { farm_id: string } };
    expect(payload.type).toBe('farm.captured');
    expect(payload.data.farm_id).toBe(farmId);

    const section = page.getByTestId('webhooks');
    await section.locator('.ant-table-row', { hasText: receiverUrl }).getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByTestId('webhook-deliveries');
    await log.waitFor();
    const first = log.locator('.ant-table-row').first();
    await expect.poll(() => first.getByTestId('delivery-status').textContent(), { timeout: 30_000 }).toBe('succeeded');
    expect(await first.textContent()).toContain('farm.captured');
    expect(await first.textContent()).toContain('200');
    await screenshot(page, 'wh2-delivery-log');

    await first.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText('Redelivery queued').first().waitFor();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(1);
    expect(received[1]!.headers['webhook-id']).toBe(got.headers['webhook-id']);
    await page.locator('.ant-drawer').getByRole('button', { name: 'Close' }).click();
    await log.waitFor({ state: 'hidden' });
  });

  it('disables and deletes the endpoint after a confirmation', async () => {
    const section = page.getByTestId('webhooks');
    const row = section.locator('.ant-table-row', { hasText: receiverUrl });
    await row.getByRole('switch').click();
    await page.getByText('Webhook endpoint disabled').first().waitFor();
    await expect.poll(() => row.getByRole('switch').getAttribute('aria-checked')).toBe('false');
    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = await openedDialog(page, 'Delete webhook endpoint');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    expect(s.errors).toEqual([]);
  });
});
