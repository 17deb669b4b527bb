// EUDR reference layers in a real browser, as the demo tenant admin (tenant B, Green Harvest: tenant A's first sign-in
// and its enrolment belong to sign-in.e2e.ts): the Reference Layers screen empty, an upload of a small forest-2020
// GeoJSON layer made from a demo farm's own boundary (read through the API) followed to "ready", the list with the
// layer, then that farm's drawer in Farmlands with its verdict ("Needs review": forest at the 2020 cut-off), the
// evidence table, and the layer drawn on the map under the farm; then the Farmlands map coloured by EUDR risk (issue 29:
// the farms' stored verdicts, once the layer's sweep has stored them) and the farm's popup with its verdict.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ACCOUNTS, sidebarItems, signIn } from './support/app';
import { consoleApi } from './support/api';
import { launchBrowser, openPage, screenshot, type Session } from './support/browser';
import { clickFarmMarker, waitForMap } from './support/map';
import { chooseOption } from './support/ui';

const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;
let page: Page;
let farm: { id: string; name: string; coordinates: Array<[number, number]> };
let layerFile = '';
const LAYER_NAME = 'E2E forest cover 2020';

beforeAll(async () => {
  browser = await launchBrowser();
  s = await openPage(browser, baseUrl);
  page = s.page;
  await signIn(page, ACCOUNTS.adminB);
  // A mapped (not overlapping) demo farm, and a forest layer that covers it: its bounding box widened by ~50 m.
  const api = await consoleApi(page);
  // Other files (analysis-layers, eudr-reports) upload tenant B layers of their own before this one may run: remove
  // tenant B's own layers, so the empty state below is the screen's real one.
  const existing = await api.get<Array<{ id: string; owner: string }>>('/api/reference-layers/');
  for (const layer of existing.filter((l) => l.owner === 'tenant')) {
    const res = await api.call('DELETE', `/api/reference-layers/${layer.id}/`);
    if (res.status >= 300) throw new Error(`could not delete layer ${layer.id}: ${res.status}`);
  }
  const list = (await api.get('/api/farms/?page_size=50')) as { results: Array<typeof farm & { is_overlapping: boolean }> };
  const chosen = list.results.find((f) => !f.is_overlapping && f.coordinates.length >= 3);
  if (!chosen) throw new Error('no mapped demo farm');
  farm = chosen;
  const lngs = farm.coordinates.map((p) => p[0]);
  const lats = farm.coordinates.map((p) => p[1]);
  const [w, e, so, n] = [Math.min(...lngs) - 0.0005, Math.max(...lngs) + 0.0005, Math.min(...lats) - 0.0005, Math.max(...lats) + 0.0005];
  const geojson = {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { name: 'Forest patch' },
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [w, so],
              [e, so],
              [e, n],
              [w, n],
              [w, so],
            ],
          ],
        },
      },
    ],
  };
  layerFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'layers-e2e-')), 'forest-2020.geojson');
  fs.writeFileSync(layerFile, JSON.stringify(geojson));
});
afterAll(async () => {
  await browser?.close();
});

describe('Reference Layers (/admin/reference-layers)', () => {
  it('is in the tenant sidebar after Reports and opens on the empty list with the plot-risk thresholds', async () => {
    // The empty list's text is the screen's own (no .ant-empty, which openList waits for).
    await page.goto('/admin/reference-layers');
    await page.getByRole('heading', { name: 'Reference Layers' }).waitFor();
    await page.getByText(/No reference layers yet/).waitFor();
    const labels = await sidebarItems(page);
    expect(labels.indexOf('Reference Layers')).toBe(labels.indexOf('Reports') + 1);
    expect(labels.indexOf('Reports')).toBeGreaterThan(0);
    const thresholds = page.getByTestId('risk-settings');
    await expect.poll(() => thresholds.getByRole('textbox', { name: 'Minimum overlap' }).inputValue()).toBe('10');
    await screenshot(page, 'eudr-1-reference-layers-empty');
  });

  it('uploads a forest-2020 GeoJSON layer in the drawer and follows its load to ready', async () => {
    await page.getByRole('button', { name: /Upload Layer/ }).click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: 'Upload Reference Layer' });
    await drawer.getByLabel('Name', { exact: true }).fill(LAYER_NAME);
    await chooseOption(page, drawer.getByRole('combobox', { name: 'Kind' }), 'Forest cover 2020');
    const date = drawer.getByLabel('Reference date');
    await date.fill('31/12/2020');
    await date.press('Enter');
    await drawer.getByLabel('Source').fill('Made from a demo farm for the browser test');
    await drawer.getByLabel('Licence').fill('CC0-1.0');
    await drawer.locator('input[type=file]').setInputFiles(layerFile);
    await drawer.getByTestId('layer-upload-zone-file').waitFor();
    await screenshot(page, 'eudr-2-upload-drawer');
    await drawer.getByTestId('layer-upload-submit').click();
    await drawer.getByText('The layer is ready').waitFor({ timeout: 120_000 });
    expect(await drawer.innerText()).toMatch(/1 features loaded/);
    await screenshot(page, 'eudr-3-upload-ready');
    await drawer.getByRole('button', { name: 'Close' }).last().click();
    await drawer.waitFor({ state: 'hidden' });
    const row = page.locator('.ant-table-row').filter({ hasText: LAYER_NAME });
    await expect.poll(() => row.locator('[data-testid=layer-status]').getAttribute('data-status')).toBe('ready');
    expect(await row.innerText()).toMatch(/Forest cover 2020[\s\S]*31\/12\/2020[\s\S]*This organisation/);
    await screenshot(page, 'eudr-4-reference-layers-list');
  });

  it("shows the farm's verdict and evidence in its Farmlands drawer, with the layer drawn on the map", async () => {
    await page.goto(`/admin/mapping?search=${encodeURIComponent(farm.name)}`);
    await page.getByRole('heading', { name: 'All Mapped Farmlands' }).waitFor();
    const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: farm.name }).first();
    await row.getByRole('button', { name: 'View Details' }).click();
    const drawer = page.getByRole('dialog');
    const panel = drawer.getByTestId('verdict-panel');
    await panel.getByTestId('verdict-tag').first().waitFor();
    await expect.poll(() => panel.getByTestId('verdict-tag').first().innerText()).toBe('Needs review');
    expect(await panel.getByTestId('verdict-reasons').innerText()).toMatch(/Forest at the end of 2020 \(E2E forest cover 2020\)/);
    const figures = await panel.getByTestId('verdict-figures').innerText();
    expect(figures).toMatch(/E2E forest cover 2020/);
    expect(figures).toMatch(/100\.0 %/);
    await waitForMap(page, 'farm-drawer-map');
    await expect.poll(() => drawer.getByTestId('farm-drawer-map').getAttribute('data-reference')).toBe('1');
    expect(await drawer.getByTestId('reference-legend').innerText()).toMatch(/E2E forest cover 2020 \(Forest cover 2020\)/);
    await waitForMap(page, 'farm-drawer-map');
    await screenshot(page, 'eudr-5-farm-drawer-verdict');
  });

  it('colours the Farmlands map by EUDR risk, and the farm popup shows its verdict', async () => {
    // The layer's end asked for a verdict sweep of tenant B: wait until the farm's stored verdict is the drawer's.
    const api = await consoleApi(page);
    type Fc = { features: Array<{ id: string; properties: { verdict?: string | null } }> };
    await expect
      .poll(async () => (await api.get<Fc>('/api/farms/?all=true')).features.find((f) => f.id === farm.id)?.properties.verdict, { timeout: 60_000 })
      .toBe('review');
    await page.goto('/admin/mapping?view=map');
    await waitForMap(page, 'farm-map');
    const legend = page.getByTestId('map-legend');
    await legend.getByRole('switch', { name: 'Colour by EUDR risk' }).click();
    await expect.poll(() => page.getByTestId('farm-map').getAttribute('data-color-by')).toBe('verdict');
    expect(await legend.innerText()).toMatch(/Low risk[\s\S]*Needs review[\s\S]*High risk[\s\S]*No verdict/);
    // The fill layer paints by the verdict property.
    const paint = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="farm-map"]') as (HTMLElement & { __map?: { getPaintProperty(l: string, p: string): unknown } }) | null;
      return JSON.stringify(el?.__map?.getPaintProperty('farms-fill', 'fill-color'));
    });
    expect(paint).toContain('verdict');
    await clickFarmMarker(page, 'farm-map', farm.id, 16);
    const popup = page.getByTestId('farm-popup');
    await expect.poll(() => popup.getByTestId('popup-verdict').innerText()).toBe('Needs review');
    await waitForMap(page, 'farm-map');
    await screenshot(page, 'eudr-6-farmlands-map-by-risk');
  });
});
