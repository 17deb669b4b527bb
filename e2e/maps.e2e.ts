// Maps in a real browser (Chromium with WebGL on SwiftShader), as a demo tenant admin: the Farmlands screen in its
// three views, the farm and Overlapping Farmlands drawers (each farm's overlap pairs with their measures), Retain from a
// marker popup (the overlap count drops), and the operational-area editor drawing a polygon by clicking 4 points.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ACCOUNTS, signIn } from './support/app';
import { launchBrowser, openPage, screenshot, type Session } from './support/browser';
import { clickMarker, mapFeatureCount, waitForMap } from './support/map';
import { chooseOption } from './support/ui';

const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;
let page: Page;
/** The farm that Retain cut in the Overlapping Farmlands test (its history is checked next). */
let cutFarm: string | null = null;

const rows = () => page.locator('.ant-table-tbody tr.ant-table-row');
const overlapCount = async () => Number((await page.getByTestId('overlap-count').innerText()).split(' ')[0]!.replace(/,/g, ''));

beforeAll(async () => {
  browser = await launchBrowser();
  s = await openPage(browser, baseUrl);
  page = s.page;
  // Tenant B's admin (Green Harvest, 160 demo farms): tenant A's two-factor enrolment belongs to sign-in.e2e.ts, and an
  // admin link is for provider staff only.
  await signIn(page, ACCOUNTS.adminB);
});
afterAll(async () => {
  await browser?.close();
});

describe('Farmlands (/admin/mapping)', () => {
  it('lists the farms in Table View with the spec columns and statuses', async () => {
    await page
      .getByTestId('sidebar')
      .getByRole('link', { name: /Farmlands/ })
      .click();
    await page.waitForURL(/\/admin\/mapping/);
    await page.getByRole('heading', { name: 'All Mapped Farmlands' }).waitFor();
    await expect.poll(() => rows().count()).toBe(10);
    const headers = (await page.locator('.ant-table-thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    // 'Actions' is the row-action column's heading, visually hidden (an empty header fails axe).
    expect(headers).toEqual(['Name', 'Farmer', 'Area (sqm)', 'Operational area', 'Updated at', 'Status', 'Actions']);
    for (const status of await rows().locator('td:nth-child(6)').allInnerTexts()) expect(['Mapped', 'Overlap']).toContain(status.trim());
    expect(await overlapCount()).toBeGreaterThan(0);
    await screenshot(page, '60-farmlands-table');
  });

  it('exports the farms as EUDR GeoJSON (a FeatureCollection of every farm)', async () => {
    await page.getByRole('button', { name: 'Export GeoJSON' }).click();
    const modal = page.getByRole('dialog').filter({ hasText: 'Export for EUDR' });
    await modal.waitFor();
    await screenshot(page, '67-eudr-export');
    const [download] = await Promise.all([page.waitForEvent('download'), modal.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('farms-eudr.geojson');
    const text = fs.readFileSync(await download.path(), 'utf8');
    const fc = JSON.parse(text) as { type: string; features: Array<{ properties: { farm_id: string } }> };
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features.length).toBe(Number((await page.getByTestId('count-badge').first().innerText()).replace(/,/g, '')));
    await modal.waitFor({ state: 'hidden' });
  });

  it('opens the farm drawer from View Details (coordinates, size, operational area, mapping record)', async () => {
    const mapped = rows().filter({ hasText: 'Mapped' }).first();
    await mapped.getByRole('button', { name: 'View Details' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByTestId('farm-details').waitFor();
    await expect.poll(() => drawer.innerText()).toMatch(/Time taken to map/);
    expect(await drawer.innerText()).toMatch(/ha/);
    await waitForMap(page, 'farm-drawer-map');
    await screenshot(page, '61-farm-drawer');
    await drawer.getByRole('button', { name: 'Back' }).click();
    await drawer.waitFor({ state: 'hidden' });
  });

  it('shows every farm on the map in Combined View (map 40% beside the list) and writes ?lat&lng', async () => {
    await page.getByRole('tab', { name: 'Combined View' }).click();
    await waitForMap(page);
    expect(await mapFeatureCount(page)).toBeGreaterThan(100);
    expect(await page.getByTestId('farm-map').getAttribute('data-offline')).toBe('true');
    const widths = await page.evaluate(() => {
      const map = document.querySelector('[data-testid="farm-map"]')!.parentElement!.parentElement!.parentElement!;
      return { map: map.getBoundingClientRect().width, row: map.parentElement!.getBoundingClientRect().width };
    });
    expect(widths.map / widths.row).toBeGreaterThan(0.35);
    expect(widths.map / widths.row).toBeLessThan(0.45);
    await expect.poll(() => new URL(page.url()).searchParams.get('lat')).not.toBeNull();
    await screenshot(page, '62-farmlands-combined');
  });

  it('Map View: a marker popup offers Retain on an overlapping farm; Retain lowers the overlap count', async () => {
    await page.getByRole('tab', { name: 'Map View' }).click();
    await waitForMap(page);
    await screenshot(page, '63-farmlands-map');
    const before = await overlapCount();
    await clickMarker(page, 'farm-map', 'overlap');
    const popup = page.getByTestId('farm-popup');
    await popup.waitFor();
    await screenshot(page, '64-farm-popup-retain');
    await popup.getByRole('button', { name: 'Retain' }).click();
    await page.getByText('Farm coordinates retained successfully').waitFor();
    await expect.poll(overlapCount).toBeLessThan(before);
  });

  it('opens the Overlapping Farmlands drawer with the group map, and Retain there resolves the group', async () => {
    await waitForMap(page);
    await clickMarker(page, 'farm-map', 'overlap');
    await page.getByTestId('farm-popup').getByRole('button', { name: 'View Details' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByText('Overlapping Farmlands').waitFor();
    await waitForMap(page, 'overlap-map');
    expect(await mapFeatureCount(page, 'overlap-map')).toBeGreaterThanOrEqual(2);
    await screenshot(page, '65-overlapping-drawer');
    // Each farm of the group lists its overlap pairs with their measures (issue 28); a grouped pair is seen from both
    // of its farms, so a group of n farms shows at least 2(n - 1) of them.
    const cards = await drawer.locator('.ant-card').count();
    await expect.poll(() => drawer.getByTestId('overlap-pairs').count()).toBe(cards);
    await expect.poll(() => drawer.getByTestId('overlap-pair').count()).toBeGreaterThanOrEqual(2 * (cards - 1));
    const pair = drawer.getByTestId('overlap-pair').first();
    expect(await pair.innerText()).toMatch(/sqm · [\d.]+% of this farm · [\d.]+% of the other · IoU \d\.\d\d/);
    await pair.scrollIntoViewIfNeeded();
    await screenshot(page, '65b-overlapping-pairs');
    const before = await overlapCount();
    const names = (await drawer.locator('.ant-card-head-title').allInnerTexts()).map((t) => t.trim());
    const retained = await clickMarker(page, 'overlap-map', 'overlap');
    await drawer.getByTestId('farm-popup').getByRole('button', { name: 'Retain' }).click();
    await page.getByText('Farm coordinates retained successfully').first().waitFor();
    await expect.poll(overlapCount).toBeLessThan(before);
    await screenshot(page, '66-after-retain');
    cutFarm = names.find((n) => n !== retained.name) ?? null;
  });

  it("lists the cut farm's earlier boundary in its drawer, and draws it on the map", async () => {
    await page.keyboard.press('Escape');
    expect(cutFarm).not.toBeNull();
    await page.getByRole('tab', { name: 'Table View' }).click();
    await page.getByLabel('Search all mapped farmlands').fill(cutFarm!);
    await expect.poll(() => rows().count()).toBe(1);
    const row = rows().first();
    if ((await row.locator('td:nth-child(6)').innerText()).trim() === 'Overlap') return; // still in a chain: nothing more to show here
    await row.getByRole('button', { name: 'View Details' }).click();
    const history = page.getByTestId('boundary-history');
    await history.getByText(/Cut by Retain/).waitFor();
    await history.getByRole('switch', { name: 'Draw earlier boundaries on the map' }).click();
    await waitForMap(page, 'farm-drawer-map');
    await expect.poll(() => mapFeatureCount(page, 'farm-drawer-map')).toBe(2);
    await screenshot(page, '68-boundary-history');
    await page.keyboard.press('Escape');
  });

  it('shows the empty state on the map and in the list when a search finds nothing', async () => {
    await page.getByRole('tab', { name: 'Map View' }).click();
    await page.getByLabel('Search farmlands').fill('zzzz-no-such-farm');
    await page.getByText('No farms to show on the map.').waitFor();
    await page.getByRole('tab', { name: 'Combined View' }).click();
    await page.getByText('No farmlands found').filter({ visible: true }).first().waitFor();
    await screenshot(page, '69-farmlands-empty');
    await page.getByLabel('Search farmlands').fill('');
    await expect.poll(() => mapFeatureCount(page)).toBeGreaterThan(100);
  });

  it('reads vector tiles above the tile threshold: clusters at low zoom that count every farm, and a click zooms in', async () => {
    // The demo registry (160 farms) is below the default threshold of 5,000: this page load is told a threshold of 10
    // (the rest of /api/config as the server sends it), so the map reads the server's real tiles.
    await page.route('**/api/config', async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { data: Record<string, unknown> };
      await route.fulfill({ response: res, json: { ...body, data: { ...body.data, map_tile_threshold: 10 } } });
    });
    try {
      await page.goto(`${baseUrl}/admin/mapping?view=table`);
      await expect.poll(() => rows().count()).toBe(10);
      const total = Number((await page.getByTestId('count-badge').first().innerText()).replace(/,/g, ''));
      await page.getByRole('tab', { name: 'Map View' }).click();
      await waitForMap(page);
      await expect.poll(() => mapFeatureCount(page)).toBe(-1);
      const state = await page.evaluate(async () => {
        type F = { properties: Record<string, unknown>; geometry: { type: string; coordinates: [number, number] } };
        type M = {
          jumpTo(o: object): void;
          once(e: string, cb: () => void): void;
          querySourceFeatures(s: string, o: object): F[];
          project(ll: [number, number]): { x: number; y: number };
          getZoom(): number;
        };
        const el = document.querySelector('[data-testid="farm-map"]') as HTMLElement & { __map: M };
        const map = el.__map;
        await new Promise<void>((resolve) => {
          map.once('idle', () => resolve());
          map.jumpTo({ center: [3.7717, 7.6466], zoom: 8 });
          setTimeout(resolve, 15_000);
        });
        const clusters = map.querySourceFeatures('farms', { sourceLayer: 'farm_clusters' });
        const polygons = map.querySourceFeatures('farms', { sourceLayer: 'farms' });
        const big = clusters.filter((f) => Number(f.properties['count']) > 1).sort((a, b) => Number(b.properties['count']) - Number(a.properties['count']))[0];
        const p = big ? map.project(big.geometry.coordinates) : null;
        const box = el.getBoundingClientRect();
        return {
          // Each cluster sits in exactly one tile (its cells'), so the counts add up without duplicates.
          counted: clusters.reduce((n, f) => n + Number(f.properties['count']), 0),
          clusters: clusters.length,
          polygons: polygons.length,
          click: p ? { x: box.left + p.x, y: box.top + p.y } : null,
          zoom: map.getZoom(),
        };
      });
      expect(state.polygons).toBe(0);
      expect(state.clusters).toBeGreaterThan(0);
      expect(state.counted).toBe(total);
      expect(state.click).not.toBeNull();
      await screenshot(page, '69b-farmlands-tile-clusters');
      await page.mouse.click(state.click!.x, state.click!.y);
      await expect
        .poll(() => page.evaluate(() => (document.querySelector('[data-testid="farm-map"]') as HTMLElement & { __map: { getZoom(): number } }).__map.getZoom()))
        .toBeGreaterThan(state.zoom + 1);
    } finally {
      await page.unroute('**/api/config');
    }
  });

  it('has no uncaught page errors', () => {
    expect(s.errors).toEqual([]);
  });
});

describe('Operational Areas (/admin/operational-areas)', () => {
  const areaName = `E2E Area ${Date.now() % 100000}`;

  it('shows the areas on a map beside the list', async () => {
    await page.goto('/admin/operational-areas');
    await page.getByRole('heading', { name: 'Operational Areas' }).waitFor();
    await expect.poll(() => page.getByTestId('area-row').count()).toBeGreaterThan(0);
    await waitForMap(page);
    expect(await mapFeatureCount(page)).toBeGreaterThan(0);
    await screenshot(page, '70-operational-areas');
  });

  it('step 1 checks the form with the spec messages', async () => {
    await page.getByRole('button', { name: 'Create Area' }).click();
    const modal = page.getByRole('dialog').filter({ hasText: 'Creating operational area' });
    await modal.waitFor();
    await modal.getByRole('button', { name: 'Proceed to Map' }).click();
    await modal.getByText('Name is required').waitFor();
    await modal.getByText('Please select a region').waitFor();
    await modal.getByText('Please select a city').waitFor();
    await modal.getByLabel('Area Name').fill('X');
    await modal.getByText('Name should have at least 2 letters').waitFor();
    await screenshot(page, '71-area-form-errors');
  });

  it('draws a new area by clicking 4 points, confirms, and it appears in the list and on the map', async () => {
    const modal = page.getByRole('dialog').filter({ hasText: 'Creating operational area' });
    await modal.getByLabel('Area Name').fill(areaName);
    await chooseOption(page, modal.getByLabel('Region'), { first: true });
    await modal.getByLabel('City / Town / District').click();
    await modal.getByLabel('City / Town / District').fill('Ibadan');
    await chooseOption(page, modal.getByLabel('City / Town / District'), /Ibadan/);
    await modal.getByRole('button', { name: 'Proceed to Map' }).click();
    await waitForMap(page, 'draw-map');
    await expect.poll(() => new URL(page.url()).searchParams.get('lat')).not.toBeNull();
    const before = await mapFeatureCount(page);
    const box = (await page.getByTestId('draw-map').boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const points: [number, number][] = [
      [cx - 120, cy - 80],
      [cx + 120, cy - 90],
      [cx + 130, cy + 90],
      [cx - 110, cy + 100],
    ];
    for (const [x, y] of points) {
      await page.mouse.click(x, y);
      await page.waitForTimeout(250);
    }
    await page.mouse.click(points[0]![0], points[0]![1]);
    const popup = page.getByTestId('area-popup');
    await popup.getByText('The polygon has 4 points').waitFor();
    await screenshot(page, '72-area-drawn');
    await popup.getByRole('button', { name: 'Proceed' }).click();
    await popup.getByText('Are you sure you want to create this operational area').waitFor();
    await popup.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Operational Area created successfully').waitFor();
    await modal.waitFor({ state: 'hidden' });
    await page.getByTestId('area-row').filter({ hasText: areaName }).waitFor();
    await waitForMap(page);
    await expect.poll(() => mapFeatureCount(page)).toBeGreaterThan(before);
    await screenshot(page, '73-area-created');
  });

  it('offers Undo after a vertex is dragged, and shows the API error with the retry hint for a self-intersecting area', async () => {
    await page.getByRole('button', { name: 'Create Area' }).click();
    const modal = page.getByRole('dialog').filter({ hasText: 'Creating operational area' });
    await modal.getByLabel('Area Name').fill(`${areaName} bow`);
    await chooseOption(page, modal.getByLabel('Region'), { first: true });
    await modal.getByLabel('City / Town / District').click();
    await modal.getByLabel('City / Town / District').fill('Ibadan');
    await chooseOption(page, modal.getByLabel('City / Town / District'), /Ibadan/);
    await modal.getByRole('button', { name: 'Proceed to Map' }).click();
    await waitForMap(page, 'draw-map');
    const box = (await page.getByTestId('draw-map').boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // A bow tie: the second and third points are crossed.
    const points: [number, number][] = [
      [cx - 120, cy - 80],
      [cx + 120, cy + 90],
      [cx + 130, cy - 90],
      [cx - 110, cy + 100],
    ];
    for (const [x, y] of points) {
      await page.mouse.click(x, y);
      await page.waitForTimeout(250);
    }
    await page.mouse.click(points[0]![0], points[0]![1]);
    const popup = page.getByTestId('area-popup');
    await popup.getByText('The polygon has 4 points').waitFor();
    // Drag a vertex: Undo appears, and puts it back.
    await page.mouse.move(points[3]![0], points[3]![1]);
    await page.mouse.down();
    await page.mouse.move(points[3]![0] - 30, points[3]![1] + 20, { steps: 8 });
    await page.mouse.up();
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('button', { name: 'Undo' }).waitFor({ state: 'hidden' });
    await popup.getByRole('button', { name: 'Proceed' }).click();
    await popup.getByRole('button', { name: 'Yes' }).click();
    await popup.getByText('Please edit any point on the polygon and try again').waitFor();
    expect(await popup.innerText()).toMatch(/self-intersection|invalid|Self/i);
    await screenshot(page, '74-area-error');
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'hidden' });
  });

  it('creates a region from the Create Region modal', async () => {
    await page.getByRole('button', { name: 'Create Region' }).click();
    const modal = page.getByRole('dialog').filter({ hasText: 'Create Region' });
    await modal.getByLabel('Country').click();
    await modal.getByLabel('Country').fill('Niger');
    await chooseOption(page, modal.getByLabel('Country'), /Nigeria/);
    await modal.getByLabel('Region name').fill(`E2E Region ${Date.now() % 100000}`);
    await modal.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Region created successfully').waitFor();
  });

  it('has no uncaught page errors', () => {
    expect(s.errors).toEqual([]);
  });
});
