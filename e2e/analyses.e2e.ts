// Custom Farm Analysis in a real browser, as a demo tenant admin (tenant B): upload the template csv with 3 bad rows
// through the drawers and watch its status reach Completed without a reload; the result page's cards, a list drawer,
// the category filter, a marker's farm drawer; fix a failed row and re-analyse it; and the same kind of rows as JSON
// through 'Upload via Endpoint' (with a parse error named by line and column first); a GeoJSON file named by its
// plot_name property; the re-analysis links both ways.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ACCOUNTS, signIn } from './support/app';
import { launchBrowser, openPage, screenshot, type Session } from './support/browser';
import { clickMarker, waitForMap } from './support/map';

const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;
let page: Page;

const NAME = `E2E upload ${Date.now().toString(36)}`;
const CSV = [
  'farm_name,farm_coordinates,operational_area_id,farmer_reference',
  'Adebayo Farm 1,"[[3.7712,7.6461],[3.7722,7.6461],[3.7722,7.6471],[3.7712,7.6471],[3.7712,7.6461]]",,FR-0001',
  'Ngozi Farm 2,"{""type"":""Polygon"",""coordinates"":[[[3.7730,7.6461],[3.7741,7.6461],[3.7741,7.6470],[3.7730,7.6470],[3.7730,7.6461]]]}",,FR-0002',
  'Two points,"[[3.78,7.65],[3.781,7.65]]",,FR-0003',
  ',"[[3.79,7.65],[3.791,7.65],[3.791,7.651]]",,FR-0004',
  'Unreadable,"not coordinates",,FR-0005',
  '',
].join('\r\n');

const cardCount = async (kind: string) => Number((await page.getByTestId(`result-card-${kind}`).locator('strong').innerText()).replace(/,/g, ''));

beforeAll(async () => {
  browser = await launchBrowser();
  s = await openPage(browser, baseUrl);
  page = s.page;
  await signIn(page, ACCOUNTS.adminB);
});
afterAll(async () => {
  await browser?.close();
});

describe('Custom Farm Analysis (/admin/farm-analysis)', () => {
  it('uploads a csv through the drawers and follows its status to Completed without a reload', async () => {
    await page
      .getByTestId('sidebar')
      .getByRole('link', { name: /Analysis/ })
      .click();
    await page.waitForURL(/\/admin\/farm-analysis$/);
    await page.getByText('Upload Farmlands Data').waitFor();
    expect(await page.getByRole('button', { name: 'Start Analysis' }).isDisabled()).toBe(true);
    await screenshot(page, '80-analysis-upload-empty');

    await page
      .getByTestId('analysis-drop-zone')
      .locator('input[type=file]')
      .setInputFiles({ name: 'farms.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await page.getByTestId('analysis-drop-zone-file').waitFor();
    expect(await page.getByTestId('analysis-drop-zone-file').innerText()).toContain('farms.csv');
    await page.getByRole('button', { name: 'Start Analysis' }).click();

    const details = page.locator('.ant-drawer').filter({ hasText: 'Analysis Details' });
    await details.waitFor();
    await details.getByLabel('Title').fill(NAME);
    await details.getByLabel('Description').fill('Template rows and three bad ones');
    await details.getByRole('button', { name: 'Continue' }).click();

    const areas = page.locator('.ant-drawer').filter({ hasText: 'Operational Areas' });
    await areas.getByText(/Select all/).waitFor();
    expect(await areas.getByRole('button', { name: 'Proceed to Analyse' }).isDisabled()).toBe(true);
    await areas.getByText(/Select all/).click();
    await screenshot(page, '81-analysis-areas-drawer');
    await areas.getByRole('button', { name: 'Proceed to Analyse' }).click();
    await page.getByText('Upload successful').first().waitFor();
    await page.getByTestId('analysis-drop-zone').waitFor();

    const row = page.locator('.ant-table-row').filter({ hasText: NAME });
    await expect.poll(async () => (await row.locator('.ant-tag').innerText()).trim(), { timeout: 60_000 }).toBe('Completed');
    await screenshot(page, '82-analysis-completed');
  });

  it('shows the results: cards, a list drawer, the filter and a farm drawer from a marker', async () => {
    await page.locator('.ant-table-row').filter({ hasText: NAME }).getByRole('button', { name: 'View' }).click();
    await page.waitForURL(/\/admin\/farm-analysis\/[0-9a-f-]{36}/);
    await page.getByTestId('analysis-result').waitFor();
    await waitForMap(page, 'analysis-map');
    expect(await cardCount('errors')).toBe(3);
    expect(await cardCount('outside')).toBe(2);
    expect(await cardCount('within')).toBe(0);
    await screenshot(page, '83-analysis-result');

    await page.getByTestId('result-card-outside').click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: '2 Farmlands outside Op. Areas' });
    await drawer.waitFor();
    await expect.poll(() => drawer.locator('.ant-list-item').count()).toBe(2);
    const download = page.waitForEvent('download');
    await drawer.getByRole('button', { name: 'Export GeoJSON' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/-outside\.geojson$/);
    const fc = JSON.parse(await fs.promises.readFile(await file.path(), 'utf8'));
    expect(fc.features).toHaveLength(2);
    await screenshot(page, '84-analysis-list-drawer');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Hide panel' }).click();
    expect(await page.getByTestId('result-card-errors').count()).toBe(0);
    await page.getByRole('button', { name: 'Show panel' }).click();

    // Both farms are unknown to tenant B's registry: orange (unrecognized) on the map, and still outside in the counts.
    expect(await cardCount('unrecognized')).toBe(2);
    await clickMarker(page, 'analysis-map', 'unrecognized');
    await page.getByTestId('result-popup').getByRole('button', { name: 'View farm' }).click();
    const farm = page.getByTestId('result-farm-drawer');
    await farm.waitFor();
    expect(await farm.innerText()).toContain('Farm Coordinate');
    expect(await farm.innerText()).toContain('Not Available');
    expect(await page.getByTestId('result-farm-points').locator('li').count()).toBeGreaterThanOrEqual(4);
    await screenshot(page, '85-analysis-farm-drawer');
    await page.locator('.ant-drawer').filter({ has: farm }).getByRole('button', { name: 'Close' }).click();
  });

  it('fixes a failed row in the Failed Data table and re-analyses it as a follow-up', async () => {
    await page.getByTestId('result-card-errors').click();
    const modal = page.getByRole('dialog').filter({ hasText: 'Failed Data' });
    await modal.waitFor();
    expect(await modal.innerText()).toContain('Hover on the icon to see reason for the failed cell');
    expect(await modal.locator('.ant-table-row').count()).toBe(3);
    await screenshot(page, '86-analysis-failed-data');
    await modal.getByLabel('File row 4 farm_coordinates', { exact: true }).fill('[[3.78,7.65],[3.781,7.65],[3.781,7.651],[3.78,7.651]]');
    const first = new URL(page.url()).pathname;
    await modal.getByRole('button', { name: /Re-analyse fixed rows \(1\)/ }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/admin/farm-analysis/') && url.pathname !== first);
    await expect.poll(async () => (await page.getByTestId('analysis-result').count()) > 0, { timeout: 60_000 }).toBe(true);
    await expect.poll(() => cardCount('outside')).toBe(1);
    expect(await cardCount('errors')).toBe(0);
    expect(await page.getByRole('heading', { name: `${NAME} (fixed rows)` }).count()).toBe(1);
    // The follow-up names and links its parent; the parent's page lists the follow-up (parent_analysis_id).
    const followUp = new URL(page.url()).pathname;
    const parentLink = page.getByTestId('analysis-parent').getByRole('link', { name: NAME, exact: true });
    expect(await parentLink.getAttribute('href')).toBe(first);
    await parentLink.click();
    await page.waitForURL((url) => url.pathname === first);
    const children = page.getByTestId('analysis-re-analyses');
    await children.waitFor();
    const childLink = children.getByRole('link', { name: `${NAME} (fixed rows)`, exact: true });
    expect(await childLink.getAttribute('href')).toBe(followUp);
    await screenshot(page, '86b-analysis-re-analyses');
    await childLink.click();
    await page.waitForURL((url) => url.pathname === followUp);
    await page.getByTestId('analysis-parent').waitFor();
  });

  it("names GeoJSON farms from the property given as 'Farm name property' (plot_name)", async () => {
    // owner comes first: left to the defaults (farm_name, name, the first text property) the farms would be named after it.
    const ring = (x: number) => [
      [
        [x, 7.66],
        [x + 0.001, 7.66],
        [x + 0.001, 7.661],
        [x, 7.661],
        [x, 7.66],
      ],
    ];
    const geojson = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { owner: 'Adebayo', plot_name: 'Plot A1' }, geometry: { type: 'Polygon', coordinates: ring(3.8) } },
        { type: 'Feature', properties: { owner: 'Ngozi', plot_name: 'Plot B2' }, geometry: { type: 'Polygon', coordinates: ring(3.803) } },
      ],
    };
    const title = `${NAME} plots`;
    await page
      .getByTestId('sidebar')
      .getByRole('link', { name: /Analysis/ })
      .click();
    await page.waitForURL(/\/admin\/farm-analysis$/);
    await page
      .getByTestId('analysis-drop-zone')
      .locator('input[type=file]')
      .setInputFiles({ name: 'plots.geojson', mimeType: 'application/geo+json', buffer: Buffer.from(JSON.stringify(geojson)) });
    await page.getByTestId('analysis-drop-zone-file').waitFor();
    await page.getByRole('button', { name: 'Start Analysis' }).click();
    const details = page.locator('.ant-drawer').filter({ hasText: 'Analysis Details' });
    await details.waitFor();
    expect(await details.getByTestId('name-field-help').innerText()).toContain('farm_name is used, then name');
    await details.getByLabel('Title').fill(title);
    await details.getByLabel('Farm name property').fill('plot_name');
    await details.getByRole('button', { name: 'Continue' }).click();
    const areas = page.locator('.ant-drawer').filter({ hasText: 'Operational Areas' });
    await areas.getByText(/Select all/).click();
    await areas.getByRole('button', { name: 'Proceed to Analyse' }).click();
    await page.getByText('Upload successful').first().waitFor();
    const row = page.locator('.ant-table-row').filter({ hasText: title });
    await expect.poll(async () => (await row.locator('.ant-tag').innerText()).trim(), { timeout: 60_000 }).toBe('Completed');
    await row.getByRole('button', { name: 'View' }).click();
    await page.getByTestId('analysis-result').waitFor();
    await expect.poll(() => cardCount('outside')).toBe(2);
    await page.getByTestId('result-card-outside').click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: 'Farmlands outside Op. Areas' });
    await expect.poll(() => drawer.locator('.ant-list-item').count()).toBe(2);
    const text = await drawer.innerText();
    expect(text).toContain('Plot A1');
    expect(text).toContain('Plot B2');
    expect(text).not.toContain('Adebayo');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'hidden' });
  });

  it('uploads rows as JSON through Upload via Endpoint, naming a parse error by line and column', async () => {
    await page
      .getByTestId('sidebar')
      .getByRole('link', { name: /Analysis/ })
      .click();
    await page.waitForURL(/\/admin\/farm-analysis$/);
    await page.getByRole('button', { name: 'Upload via Endpoint' }).click();
    const details = page.locator('.ant-drawer').filter({ hasText: 'Analysis Details' });
    await details.getByLabel('Title').fill(`${NAME} JSON`);
    await details.getByRole('button', { name: 'Continue' }).click();
    const areas = page.locator('.ant-drawer').filter({ hasText: 'Operational Areas' });
    await areas.getByText(/Select all/).click();
    await areas.getByRole('button', { name: 'Continue' }).click();

    const endpoint = page.locator('.ant-drawer').filter({ hasText: 'Endpoint Upload' });
    await endpoint.waitFor();
    expect(await endpoint.getByRole('button', { name: 'Validate Code' }).isDisabled()).toBe(true);
    await expect.poll(async () => endpoint.getByLabel('Minimum land size').inputValue()).not.toBe('');
    await endpoint.getByLabel('JSON payload').fill('[\n  { "farm_name": "A",\n    "farm_coordinates": [[3.77, 7.64] [3.771, 7.64]] }\n]');
    await endpoint.getByRole('button', { name: 'Validate Code' }).click();
    expect(await page.getByTestId('endpoint-problem').innerText()).toMatch(/line 3, column \d+/);
    await screenshot(page, '87-analysis-endpoint-error');
    await endpoint.getByLabel('JSON payload').fill(
      JSON.stringify([
        {
          farm_name: 'JSON farm',
          farm_coordinates: [
            [3.77, 7.64],
            [3.771, 7.64],
            [3.771, 7.641],
          ],
        },
      ]),
    );
    await endpoint.getByRole('button', { name: 'Validate Code' }).click();
    await page.getByText('Upload successful').first().waitFor();
    await endpoint.waitFor({ state: 'hidden' });
    const row = page.locator('.ant-table-row').filter({ hasText: `${NAME} JSON` });
    await expect.poll(async () => (await row.locator('.ant-tag').innerText()).trim(), { timeout: 60_000 }).toBe('Completed');
  });
});

describe('Configurations (/admin/configurations)', () => {
  it('names a negative or non-numeric value, saves a valid one, and the endpoint upload starts from it', async () => {
    await page
      .getByTestId('sidebar')
      .getByRole('link', { name: /Configurations/ })
      .click();
    await page.waitForURL(/\/admin\/configurations$/);
    const size = page.getByLabel('Minimum farm size');
    await expect.poll(() => size.inputValue()).not.toBe('');
    const original = await size.inputValue();

    await size.fill('-5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Minimum farm size cannot be negative').waitFor();
    await size.fill('lots');
    await page.getByText(/Enter a number of square metres/).waitFor();
    await page.getByLabel('Recognition threshold').fill('1.5');
    await page.getByText('The recognition threshold must be at most 1').waitFor();
    await screenshot(page, '88-configurations-errors');

    await size.fill('2,500');
    await page.getByLabel('Recognition threshold').fill('0.5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Configuration updated successfully').first().waitFor();

    await page
      .getByTestId('sidebar')
      .getByRole('link', { name: /Analysis/ })
      .click();
    await page.getByRole('button', { name: 'Upload via Endpoint' }).click();
    await page.locator('.ant-drawer').filter({ hasText: 'Analysis Details' }).getByRole('button', { name: 'Continue' }).click();
    const areas = page.locator('.ant-drawer').filter({ hasText: 'Operational Areas' });
    await areas.getByText(/Select all/).click();
    await areas.getByRole('button', { name: 'Continue' }).click();
    const endpoint = page.locator('.ant-drawer').filter({ hasText: 'Endpoint Upload' });
    await expect.poll(() => endpoint.getByLabel('Minimum land size').inputValue()).toBe('2,500');
    await endpoint.getByRole('button', { name: 'Close' }).click();

    // Put the demo tenant back as it was (the other browser tests read its farms).
    await page
      .getByTestId('sidebar')
      .getByRole('link', { name: /Configurations/ })
      .click();
    await expect.poll(() => page.getByLabel('Minimum farm size').inputValue()).toBe('2500');
    await page.getByLabel('Minimum farm size').fill(original);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Configuration updated successfully').first().waitFor();
  });
});
