// The overlap tolerance in a real browser (issue 28), as a demo tenant admin (tenant B): two farms captured through the
// SDK with a digitising sliver between them (a 3 mm strip, ~0.37 m²) are not grouped under the defaults; setting the
// tolerance to zero on the Configurations screen re-groups the registry (they overlap), and the defaults ungroup them
// again. An analysis of the same two plots shows the pair in the result list as "touching or sliver", with its area.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { consoleApi, type ConsoleApi } from './support/api';
import { ACCOUNTS, signIn } from './support/app';
import { launchBrowser, openPage, screenshot, type Session } from './support/browser';

const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;
let page: Page;
let api: ConsoleApi;

// Two ~110 m squares, the second shifted east by the first's width less 3e-8° (~3 mm): a sliver of ~0.37 m².
const X = 4.61 + Math.random() * 0.05;
const Y = 8.61;
const D = 0.001;
const squareAt = (x: number): number[][] => [
  [x, Y],
  [x + D, Y],
  [x + D, Y + D],
  [x, Y + D],
  [x, Y],
];
const A = squareAt(X);
const B = squareAt(X + D - 3e-8);

beforeAll(async () => {
  browser = await launchBrowser();
  s = await openPage(browser, baseUrl);
  page = s.page;
  await signIn(page, ACCOUNTS.adminB);
  api = await consoleApi(page);
});
afterAll(async () => {
  await browser?.close();
});

async function saveTolerance(area: string, sharePercent: string): Promise<void> {
  await page
    .getByTestId('sidebar')
    .getByRole('link', { name: /Configurations/ })
    .click();
  await page.waitForURL(/\/admin\/configurations$/);
  const areaInput = page.getByLabel('Minimum overlap area');
  await expect.poll(() => areaInput.inputValue()).not.toBe('');
  await areaInput.fill(area);
  await page.getByLabel('Minimum overlap share').fill(sharePercent);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Configuration updated successfully').first().waitFor();
}

describe('Overlap tolerance', () => {
  let farmIds: string[] = [];

  it('shows its defaults and names a bad value', async () => {
    await page
      .getByTestId('sidebar')
      .getByRole('link', { name: /Configurations/ })
      .click();
    await page.waitForURL(/\/admin\/configurations$/);
    await expect.poll(() => page.getByLabel('Minimum overlap area').inputValue()).toBe('1');
    expect(await page.getByLabel('Minimum overlap share').inputValue()).toBe('1');
    await page.getByLabel('Minimum overlap share').fill('150');
    await page.getByText('The minimum overlap share must be at most 100 %').waitFor();
    await page.getByLabel('Minimum overlap area').fill('-1');
    await page.getByText('The minimum overlap area cannot be negative').waitFor();
    await screenshot(page, 'ot1-configurations-tolerance-errors');
    // A reload forgets the typed values; the console's own token refresh settles before the API is called beside it.
    await page.reload();
    await expect.poll(() => page.getByLabel('Minimum overlap area').inputValue()).toBe('1');
  });

  it('re-groups the registry when the tolerance is saved', async () => {
    const keys = JSON.parse(fs.readFileSync(path.join(inject('dataDir'), 'demo-license-keys.json'), 'utf8')) as Array<{ type: string; key: string }>;
    const sdkKey = keys.find((k) => k.type === 'SDK')!.key;
    const farmers = await api.get<{ results: Array<{ id: string }> }>('/api/farmers/?page_size=1');
    const farmerId = farmers.results[0]!.id;
    farmIds = [];
    for (const [name, coordinates] of [
      ['Sliver A', A],
      ['Sliver B', B],
    ] as const) {
      const res = await api.call(
        'POST',
        '/api/farms/',
        { farmer_id: farmerId, name: `${name} ${X.toFixed(5)}`, coordinates },
        { auth: false, headers: { 'x-license-key': sdkKey } },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      farmIds.push(res.body.data.id);
    }
    await api.token();
    // One after the other: each call refreshes the session's token, and refresh tokens rotate.
    const overlapping = async () => {
      const out: boolean[] = [];
      for (const id of farmIds) out.push((await api.get<{ is_overlapping: boolean }>(`/api/farms/${id}/`)).is_overlapping);
      return out;
    };
    // Under the defaults the sliver is not an overlap.
    expect(await overlapping()).toEqual([false, false]);

    await saveTolerance('0', '0');
    expect(await overlapping()).toEqual([true, true]);
    const config = await api.get<{ overlap_min_area_sqm: number; overlap_min_share: number }>('/api/base/tenant-configurations');
    expect(config).toMatchObject({ overlap_min_area_sqm: 0, overlap_min_share: 0 });
    await screenshot(page, 'ot2-configurations-tolerance-zero');

    // Back to the defaults (the other browser tests read this tenant's farms).
    await saveTolerance('1', '1');
    expect(await overlapping()).toEqual([false, false]);
  });

  it('lists the pair in an analysis result as touching or sliver, with its area', async () => {
    const areas = await api.get<{ results: Array<{ id: string }> }>('/api/operational-areas/?page_size=100');
    const created = await api.call('POST', '/api/custom-analysis/', {
      name: `Sliver pair ${X.toFixed(5)}`,
      operational_areas: areas.results.map((a) => a.id),
      require_farm_recognition: false,
      locations: [
        { farm_name: 'Plot A', farm_coordinates: A },
        { farm_name: 'Plot B', farm_coordinates: B },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as string;
    await expect.poll(async () => (await api.get<{ status: string }>(`/api/custom-analysis/${id}/`)).status, { timeout: 60_000 }).toBe('completed');
    // Within or outside, as the tenant's areas lie: both plots fall in the same category.
    const detail = await api.get<{ within_operational_area: { count: number }; overlapping_farmlands: { count: number } }>(`/api/custom-analysis/${id}/`);
    expect(detail.overlapping_farmlands.count).toBe(0);
    const kind = detail.within_operational_area.count === 2 ? 'within' : 'outside';

    await page.goto(`/admin/farm-analysis/${id}`);
    const card = page.getByTestId(`result-card-${kind}`);
    await card.waitFor();
    await card.click();
    const list = page.getByTestId(`result-list-${kind}`);
    await list.waitFor();
    await expect.poll(() => list.getByTestId('overlap-sliver').count()).toBe(2);
    const line = await list.getByTestId('overlap-sliver').first().innerText();
    expect(line).toMatch(/^Row 2: 0\.\d\d sqm · .* · IoU 0\.00 · touching or sliver$/);
    expect(await list.getByTestId('overlap-pair').count()).toBe(0);
    await screenshot(page, 'ot3-result-sliver-pair');
  });
});
