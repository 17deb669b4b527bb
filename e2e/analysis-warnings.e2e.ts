// Issue 28 §4 in a real browser: an analysis whose rows were repaired (an unclosed ring, repeated points, coarse
// coordinates, a point) shows how many rows carry a warning on its result page, each row's warnings in the list drawer,
// and a farm's warnings in the farm drawer opened from its marker. A clean row shows none.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ACCOUNTS, signIn } from './support/app';
import { consoleApi } from './support/api';
import { launchBrowser, openPage, screenshot, type Session } from './support/browser';
import { clickMarker, waitForMap } from './support/map';

const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;
let page: Page;

/** A ~110 m square at (x, y) with 7 decimals, closed. */
const square = (x: number, y: number): number[][] => {
  const r = (v: number) => Math.round(v * 1e7) / 1e7;
  const d = 0.0010003;
  return [
    [x, y],
    [x + d, y],
    [x + d, y + d],
    [x, y + d],
    [x, y],
  ].map(([a, b]) => [r(a!), r(b!)]);
};

beforeAll(async () => {
  browser = await launchBrowser();
  s = await openPage(browser, baseUrl);
  page = s.page;
  await signIn(page, ACCOUNTS.adminB);
});
afterAll(async () => {
  await browser?.close();
});

describe('analysis row warnings (issue 28)', () => {
  it('shows the warnings on the result page, in the list drawer and in the farm drawer', async () => {
    const api = await consoleApi(page);
    const areas = await api.get<{ results: Array<{ id: string }> }>('/api/operational-areas/?page_size=100');
    const created = await api.call('POST', '/api/custom-analysis/', {
      name: `E2E warnings ${Date.now().toString(36)}`,
      operational_areas: areas.results.map((a) => a.id),
      minimum_farm_size: 1,
      require_farm_recognition: true,
      locations: [
        {
          farm_name: 'Open ring plot',
          farm_coordinates: [...square(3.8052345, 7.6612345).slice(0, 2), square(3.8052345, 7.6612345)[1], ...square(3.8052345, 7.6612345).slice(2, 4)],
        },
        { farm_name: 'Coarse point', farm_coordinates: [3.81, 7.67] },
        { farm_name: 'Clean plot', farm_coordinates: square(3.8012345, 7.6612345) },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as string;
    await expect.poll(async () => (await api.get<{ status: string }>(`/api/custom-analysis/${id}/`)).status, { timeout: 60_000 }).toBe('completed');

    await page.goto(`/admin/farm-analysis/${id}`);
    await page.getByTestId('analysis-result').waitFor();
    await waitForMap(page, 'analysis-map');
    const banner = page.getByTestId('analysis-warnings');
    await banner.waitFor();
    expect(await banner.innerText()).toContain('2 rows were analysed with a warning');

    await page.getByTestId('result-card-outside').click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: 'Farmlands outside Op. Areas' });
    await drawer.waitFor();
    await expect.poll(() => drawer.locator('.ant-list-item').count()).toBe(3);
    const item = (name: string) => drawer.locator('.ant-list-item').filter({ hasText: name });
    expect(
      await item('Open ring plot')
        .locator('[data-warning]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-warning'))),
    ).toEqual(['ring_closed', 'duplicate_vertices_removed']);
    expect(await item('Open ring plot').innerText()).toContain('Ring closed');
    expect(
      await item('Coarse point')
        .locator('[data-warning]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-warning'))),
    ).toEqual(['fewer_than_6_decimals', 'point_not_polygon']);
    expect(await item('Clean plot').locator('[data-warning]').count()).toBe(0);
    await screenshot(page, 'warnings-1-list-drawer');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'hidden' });

    // Every farm is unknown to tenant B's registry (unrecognized on the map): a marker's farm drawer shows that row's
    // warnings (the open ring's, row 1, as a rule), and none for the clean row.
    const farm = page.getByTestId('result-farm-drawer');
    // On a loaded machine the map may still be settling when the marker is clicked: click again until its popup opens.
    const popup = page.getByTestId('result-popup');
    let picked = await clickMarker(page, 'analysis-map', 'unrecognized');
    for (
      let attempt = 1;
      attempt < 5 &&
      !(await popup.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      ));
      attempt++
    ) {
      picked = await clickMarker(page, 'analysis-map', 'unrecognized');
    }
    await popup.getByRole('button', { name: 'View farm' }).click();
    await farm.waitFor();
    const warnings = page.getByTestId('result-farm-warnings');
    const expected: Record<string, string[]> = {
      'Clean plot': [],
      'Open ring plot': ['ring_closed', 'duplicate_vertices_removed'],
      'Coarse point': ['fewer_than_6_decimals', 'point_not_polygon'],
    };
    expect(Object.keys(expected)).toContain(picked.name);
    const shown =
      (await warnings.count()) === 0 ? [] : await warnings.locator('[data-warning]').evaluateAll((els) => els.map((e) => e.getAttribute('data-warning')));
    expect(shown).toEqual(expected[picked.name]);
    if (shown.length > 0) expect(await farm.innerText()).toContain('Warnings');
    await screenshot(page, 'warnings-2-farm-drawer');
  });
});
