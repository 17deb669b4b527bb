// The tenant dashboard in a real browser, as a demo tenant admin (tenant B): the counts equal the API's, the license
// card shows its status, the Total Mapped chart switches ranges, and the other cards draw.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { consoleApi } from './support/api';
import { ACCOUNTS, signIn } from './support/app';
import { launchBrowser, openPage, screenshot, type Session } from './support/browser';
import { waitForMap } from './support/map';

const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;
let page: Page;

/** What the API says, asked with the signed-in console's own cookie (a fresh token each time). */
async function apiGet(path: string): Promise<any> {
  return (await consoleApi(page)).get(path);
}

beforeAll(async () => {
  browser = await launchBrowser();
  s = await openPage(browser, baseUrl);
  page = s.page;
  await signIn(page, ACCOUNTS.adminB);
});
afterAll(async () => {
  await browser?.close();
});

describe('tenant dashboard (/admin/dashboard)', () => {
  it('shows the same counts as the API, the license status and the cards', async () => {
    await page.getByTestId('tenant-dashboard').waitFor();
    await expect.poll(() => page.getByTestId('count-farmers').innerText()).not.toBe('…');
    const counts = await apiGet('/api/analytics/');
    const num = async (id: string) => Number((await page.getByTestId(id).innerText()).replace(/,/g, ''));
    expect(await num('count-agents')).toBe(counts.agents);
    expect(await num('count-farmers')).toBe(counts.farmers);
    expect(await num('count-areas')).toBe(counts.operational_areas);
    expect(await num('count-gps')).toBe(counts.gps_devices);
    expect(counts.farmers).toBeGreaterThan(0);
    // The card's status is the organisation's current license's, as GET /base/licenses/ derives it.
    const licenses = await apiGet('/api/base/licenses/');
    expect((await page.getByTestId('license-status').innerText()).trim()).toBe(licenses.results[0].status);
    await page.getByTestId('most-mapped-area').getByText(/farms/).first().waitFor();
    await page.getByTestId('total-mapped-chart').locator('canvas').waitFor();
    await screenshot(page, '90-tenant-dashboard');
  });

  it('switches the Total Mapped ranges (1Y, 6M, 30D, 7D) and each total matches the API', async () => {
    for (const [label, q] of [
      ['30D', 'range_type=days&range_value=30'],
      ['7D', 'range_type=days&range_value=7'],
      ['6M', 'range_type=months&range_value=6'],
      ['1Y', 'range_type=months&range_value=12'],
    ] as const) {
      await page.getByTestId('total-mapped').getByText(label, { exact: true }).click();
      await expect.poll(() => page.getByTestId('total-mapped-chart').locator('canvas').getAttribute('aria-label')).toContain(label);
      const api = await apiGet(`/api/analytics/tenant-mapped-count/?${q}`);
      await expect.poll(async () => Number((await page.getByTestId('total-mapped-count').innerText()).replace(/,/g, ''))).toBe(api.total);
    }
  });

  it('draws the Global Landmap with the demo country coloured, and the regional map by state', async () => {
    const card = page.getByTestId('global-landmap');
    await card.scrollIntoViewIfNeeded();
    await waitForMap(page, 'landmap');
    await expect.poll(async () => Number(await page.getByTestId('landmap').getAttribute('data-shapes'))).toBeGreaterThanOrEqual(1);
    expect(await card.innerText()).toContain('Mapped Farmlands');
    await screenshot(page, '92-dashboard-landmap-global');
    await card.getByText('REGIONAL MAP').click();
    await expect.poll(async () => Number(await page.getByTestId('landmap').getAttribute('data-shapes')), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await waitForMap(page, 'landmap');
    await screenshot(page, '93-dashboard-landmap-regional');
  });

  it("opens 'View Invoices' from the license menu", async () => {
    await page.getByRole('button', { name: 'License menu' }).click();
    await page.getByText('View Invoices').click();
    const modal = page.getByRole('dialog').filter({ hasText: 'Invoice' });
    await modal.waitFor();
    expect(await modal.innerText()).toContain('220,000 NGN');
    await screenshot(page, '91-dashboard-invoice');
    await modal.getByRole('button', { name: 'Close' }).click();
  });
});
