// The tenant's EUDR readiness in a real browser (issue 29), as a demo tenant admin (tenant B; tenant A's first sign-in
// belongs to sign-in.e2e.ts). The demo has no screening, so the test uploads a tree-cover-loss layer of the tenant's
// own over one demo farm (waits for it to be ready), then opens Reports: the cards equal the API's summary, the
// needing-action list holds the farm, and the due-diligence report of its area (or of chosen farms, when the area is
// past the report's cap) shows the evidence. The report is printed to PDF with Chromium (page.pdf): a %PDF file with
// pages, and a picture of the print-emulated page is kept to look at.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { consoleApi, type ConsoleApi } from './support/api';
import { ACCOUNTS, signIn } from './support/app';
import { ARTIFACTS, launchBrowser, openPage, screenshot, type Session } from './support/browser';
import { waitForMap } from './support/map';
import { chooseOption } from './support/ui';

const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;
let page: Page;
let api: ConsoleApi;
let farm: { id: string; name: string; operational_area_id: string | null; polygon: { coordinates: number[][][] } };
const LAYER = `Loss e2e ${crypto.randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  browser = await launchBrowser();
  s = await openPage(browser, baseUrl);
  page = s.page;
  await signIn(page, ACCOUNTS.adminB);
  api = await consoleApi(page);
  const farms = await api.get<{ results: Array<typeof farm> }>('/api/farms/?page_size=20');
  farm = farms.results.find((f) => f.operational_area_id) ?? farms.results[0]!;
  // A square 50 m wider than the farm on each side: the farm lies wholly in the layer (share 1 → high risk).
  const ring = farm.polygon.coordinates[0]!;
  const xs = ring.map((p) => p[0]!);
  const ys = ring.map((p) => p[1]!);
  const d = 0.0005;
  const [x0, x1, y0, y1] = [Math.min(...xs) - d, Math.max(...xs) + d, Math.min(...ys) - d, Math.max(...ys) + d];
  const geojson = JSON.stringify({
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { name: 'Loss' },
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [x0, y0],
              [x1, y0],
              [x1, y1],
              [x0, y1],
              [x0, y0],
            ],
          ],
        },
      },
    ],
  });
  // Multipart bodies travel unencrypted (the spec's exception); the answer is encrypted to a throwaway key, so the
  // layer is read back through the list.
  const { kty, crv, x, y } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
  const res = await page.request.fetch('/api/reference-layers/', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${await api.token()}`,
      'x-platform': 'web',
      'x-client-key': Buffer.from(JSON.stringify({ kty, crv, x, y })).toString('base64url'),
    },
    multipart: {
      name: LAYER,
      kind: 'tree_cover_loss',
      reference_date: '2024-12-31',
      source: 'Synthetic e2e layer',
      licence: 'CC0-1.0',
      file: { name: 'loss.geojson', mimeType: 'application/geo+json', buffer: Buffer.from(geojson) },
    },
  });
  expect(res.status(), await res.text()).toBe(202);
});
afterAll(async () => {
  await browser?.close();
});

/** Page count of a PDF: its page objects (/Type /Page, not /Pages), read from the uncompressed object headers. */
const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g) ?? []).length;

describe('EUDR readiness (tenant Reports)', () => {
  it("loads the tenant's layer and screens the farms", async () => {
    await expect
      .poll(async () => (await api.get<Array<{ name: string; status: string }>>('/api/reference-layers/')).find((l) => l.name === LAYER)?.status ?? 'missing', {
        timeout: 120_000,
        interval: 500,
      })
      .toBe('ready');
    expect((await api.get<{ verdict: { level: string } }>(`/api/farms/${farm.id}/screening/`)).verdict.level).toBe('high');
  }, 150_000);

  it("shows the API's figures and the farm among the plots needing action", async () => {
    await page
      .getByTestId('sidebar')
      .getByRole('link', { name: /Reports/ })
      .click();
    await page.waitForURL(/\/admin\/reports$/);
    const summary = await api.get<{ plots: number; ready: number; low: number; review: number; high: number; with_warnings: number }>(
      '/api/eudr-reports/summary/',
    );
    expect(summary.high).toBeGreaterThanOrEqual(1);
    const fmt = (n: number) => n.toLocaleString('en-US');
    await expect.poll(() => page.getByTestId('eudr-plots').innerText()).toBe(fmt(summary.plots));
    for (const k of ['ready', 'low', 'review', 'high'] as const) expect(await page.getByTestId(`eudr-${k}`).innerText(), k).toBe(fmt(summary[k]));
    expect(await page.getByTestId('eudr-warnings').innerText()).toBe(fmt(summary.with_warnings));
    await page.getByTestId('eudr-verdict-chart').waitFor();
    await page.getByTestId('eudr-by-area').getByRole('row').nth(1).waitFor();
    // The list narrowed to high risk holds the farm, linked to its drawer.
    await page.goto('/admin/reports?verdict=high&page_size=50');
    const link = page.locator(`a[href*="farm_id=${farm.id}"]`);
    await link.waitFor();
    expect(await link.innerText()).toBe(farm.name);
    await screenshot(page, 'eudr1-reports');
  });

  it('opens the due-diligence report and prints it to PDF', async () => {
    const byArea = (await api.get<{ by_area: Array<{ id: string | null; name: string; plots: number }> }>('/api/eudr-reports/summary/')).by_area;
    const area = byArea.find((a) => a.id === farm.operational_area_id);
    if (area && area.id && area.plots <= 500) {
      await page.goto('/admin/reports');
      await chooseOption(
        page,
        page.getByRole('combobox', { name: 'Operational area for the due-diligence report' }),
        new RegExp(`^${area.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`),
      );
      await page.getByRole('button', { name: 'Due-diligence report' }).click();
      await page.waitForURL(/\/admin\/reports\/due-diligence\?area_id=/);
    } else {
      const ids = (await api.get<{ results: Array<{ farm_id: string }> }>('/api/eudr-reports/plots/?page_size=20')).results.map((p) => p.farm_id);
      await page.goto(`/admin/reports/due-diligence?farm_ids=${[farm.id, ...ids.filter((i) => i !== farm.id)].slice(0, 20).join(',')}`);
    }
    await page.getByTestId('dd-summary').waitFor();
    const plot = page.getByTestId('dd-plot').filter({ hasText: farm.id });
    await plot.waitFor();
    expect(await plot.innerText()).toContain(LAYER);
    expect(await plot.getByTestId('verdict-high').count()).toBe(1);
    await waitForMap(page, 'dd-map');
    await screenshot(page, 'eudr2-due-diligence-screen');

    await page.emulateMedia({ media: 'print' });
    expect(await page.getByTestId('sidebar').isVisible()).toBe(false);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'eudr3-due-diligence-print.png'), fullPage: true });
    const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'eudr-due-diligence.pdf'), pdf);
    expect(pdf.length).toBeGreaterThan(10_000);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The summary and map on the first page, then each verdict group on its own pages.
    const groups = await page.locator('[data-testid^="dd-group-"]').count();
    expect(pdfPages(pdf)).toBeGreaterThanOrEqual(1 + groups);
    await page.emulateMedia({ media: 'screen' });
  });
});
