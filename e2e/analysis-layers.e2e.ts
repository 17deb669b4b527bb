// Issue 29 in a real browser: a tenant admin loads a forest layer through the API, runs an analysis choosing it in the
// upload wizard's details drawer, and sees each row's EUDR verdict in the result list drawer (a plot inside the forest
// needs review, one outside is low risk), with the evidence (reason, overlap and share per layer) one click away; then
// the result map coloured by verdict ("Colour by EUDR risk") and a row's popup with its verdict.
import crypto from 'node:crypto';
import { compactDecrypt } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ACCOUNTS, signIn } from './support/app';
import { consoleApi, type ConsoleApi } from './support/api';
import { launchBrowser, openPage, screenshot, type Session } from './support/browser';
import { clickFarmMarker, waitForMap } from './support/map';
import { waitUntilStill } from './support/ui';

const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;
let page: Page;
let api: ConsoleApi;
let resultId = '';

const tag = Date.now().toString(36);
const LAYER = `E2E forest ${tag}`;
const NAME = `E2E screened ${tag}`;
const ring = (x0: number, y0: number, x1: number, y1: number) => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
];
/** A ~330 m square (about 11 ha, above any minimum farm size) with 7 decimals. */
const plot = (x: number, y: number) => ring(x, y, Math.round((x + 0.003) * 1e7) / 1e7, Math.round((y + 0.003) * 1e7) / 1e7);
const CSV = [
  'farm_name,farm_coordinates',
  `Forest plot,"${JSON.stringify(plot(3.8452345, 7.7012345))}"`,
  `Clear plot,"${JSON.stringify(plot(3.8852345, 7.7412345))}"`,
].join('\n');

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

/**
 * Uploads a GeoJSON layer as multipart with the session's token. Multipart bodies go as they are, but the server
 * encrypts its answers (PAYLOAD_ENCRYPTION=required): a client key is sent, and the answer decrypted with it.
 */
async function uploadLayer(): Promise<string> {
  const token = await api.token();
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const geojson = {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: { name: 'Forest block' }, geometry: { type: 'Polygon', coordinates: [ring(3.84, 7.696, 3.852, 7.708)] } }],
  };
  const res = await page.request.post('/api/reference-layers/', {
    headers: {
      authorization: `Bearer ${token}`,
      'x-platform': 'web',
      accept: 'application/json',
      'x-client-key': Buffer.from(JSON.stringify({ kty, crv, x, y })).toString('base64url'),
    },
    multipart: {
      name: LAYER,
      kind: 'forest_2020',
      reference_date: '2020-12-31',
      source: 'E2E synthetic layer',
      licence: 'CC0-1.0',
      file: { name: 'forest.geojson', mimeType: 'application/geo+json', buffer: Buffer.from(JSON.stringify(geojson)) },
    },
  });
  const text = await res.text();
  const body = (res.headers()['content-type'] ?? '').startsWith('application/jose')
    ? new TextDecoder().decode((await compactDecrypt(text, privateKey)).plaintext)
    : text;
  expect(res.status(), body).toBe(202);
  return (JSON.parse(body) as { data: { id: string } }).data.id;
}

describe('an analysis screened against a reference layer (issue 29)', () => {
  it('chooses the layer in the wizard and shows verdicts and evidence in the results', async () => {
    const layerId = await uploadLayer();
    await expect.poll(async () => (await api.get<{ status: string }>(`/api/reference-layers/${layerId}/`)).status, { timeout: 60_000 }).toBe('ready');

    await page.goto('/admin/farm-analysis');
    await page.getByText('Upload Farmlands Data').waitFor();
    await page
      .getByTestId('analysis-drop-zone')
      .locator('input[type=file]')
      .setInputFiles({ name: 'screened.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await page.getByTestId('analysis-drop-zone-file').waitFor();
    await page.getByRole('button', { name: 'Start Analysis' }).click();

    const details = page.locator('.ant-drawer').filter({ hasText: 'Analysis Details' });
    await details.waitFor();
    await details.getByLabel('Title').fill(NAME);
    // The multi-select stays open after a choice: pick the layer, then close the list with Escape.
    const layers = details.getByRole('combobox', { name: 'Reference layers' });
    await layers.click();
    const listId = await layers.getAttribute('aria-controls');
    const popup = page.locator('.ant-select-dropdown').filter({ has: page.locator(`[id="${listId}"]`) });
    await waitUntilStill(page, popup);
    await popup.locator('.ant-select-item-option').filter({ hasText: LAYER }).click();
    await details.locator('.ant-select-selection-item').filter({ hasText: LAYER }).waitFor();
    await page.keyboard.press('Escape');
    await popup.waitFor({ state: 'hidden' });
    await screenshot(page, 'layers-1-wizard-layer-chosen');
    await details.getByRole('button', { name: 'Continue' }).click();

    const areas = page.locator('.ant-drawer').filter({ hasText: 'Operational Areas' });
    await areas.getByText(/Select all/).click();
    await areas.getByRole('button', { name: 'Proceed to Analyse' }).click();
    await page.getByText('Upload successful').first().waitFor();

    const row = page.locator('.ant-table-row').filter({ hasText: NAME });
    await expect.poll(async () => (await row.locator('.ant-tag').innerText()).trim(), { timeout: 60_000 }).toBe('Completed');
    await row.getByRole('button', { name: 'View' }).click();
    await page.waitForURL(/\/admin\/farm-analysis\/[0-9a-f-]{36}/);
    await page.getByTestId('analysis-result').waitFor();
    await waitForMap(page, 'analysis-map');

    // Which card holds the plots depends on the tenant's areas: open the category the API counts them in.
    const id = page.url().split('/').pop()!;
    resultId = id;
    const detail = await api.get<Record<string, any>>(`/api/custom-analysis/${id}/`);
    expect(detail.reference_layers).toEqual([{ id: layerId, name: LAYER, kind: 'forest_2020', owner: 'tenant', version: 1 }]);
    const kind = detail.within_operational_area.count === 2 ? 'within' : 'outside';
    expect(detail[kind === 'within' ? 'within_operational_area' : 'outside_operational_area'].count).toBe(2);
    await page.getByTestId(`result-card-${kind}`).click();
    const drawer = page.locator('.ant-drawer').filter({ has: page.getByTestId(`result-list-${kind}`) });
    await drawer.waitFor();
    await expect.poll(() => drawer.locator('.ant-list-item').count()).toBe(2);
    const item = (name: string) => drawer.locator('.ant-list-item').filter({ hasText: name });
    expect((await item('Forest plot').getByTestId('row-verdict').innerText()).trim()).toBe('Needs review');
    expect((await item('Clear plot').getByTestId('row-verdict').innerText()).trim()).toBe('Low risk');

    await item('Forest plot').getByRole('button', { name: 'Evidence' }).click();
    const evidence = item('Forest plot').getByTestId('row-evidence');
    await evidence.waitFor();
    expect(await evidence.locator('[data-reason]').evaluateAll((els) => els.map((e) => e.getAttribute('data-reason')))).toEqual(['forest_2020']);
    const figures = evidence.getByTestId('verdict-figures');
    expect(await figures.innerText()).toContain(LAYER);
    expect(await figures.innerText()).toContain('100');
    await screenshot(page, 'layers-2-result-verdicts-and-evidence');
  });

  it('colours the result map by verdict, and a row popup shows its verdict', async () => {
    expect(resultId).not.toBe('');
    const map = await api.get<{ features: Array<{ row_number: number; name: string; risk_level?: string }> }>(`/api/custom-analysis/${resultId}/map/`);
    const forest = map.features.find((f) => f.name === 'Forest plot')!;
    expect(forest.risk_level).toBe('review');
    expect(map.features.find((f) => f.name === 'Clear plot')!.risk_level).toBe('low');
    await page.goto(`/admin/farm-analysis/${resultId}`);
    await page.getByTestId('analysis-result').waitFor();
    await waitForMap(page, 'analysis-map');
    const legend = page.getByTestId('map-legend');
    await legend.getByRole('switch', { name: 'Colour by EUDR risk' }).click();
    await expect.poll(() => page.getByTestId('analysis-map').getAttribute('data-color-by')).toBe('verdict');
    expect(await legend.innerText()).toMatch(/Low risk[\s\S]*Needs review[\s\S]*High risk/);
    await clickFarmMarker(page, 'analysis-map', String(forest.row_number), 14);
    const popup = page.getByTestId('result-popup');
    await expect.poll(() => popup.getByTestId('popup-verdict').innerText()).toBe('Needs review');
    await waitForMap(page, 'analysis-map');
    await screenshot(page, 'layers-3-result-map-by-risk');
  });
});
