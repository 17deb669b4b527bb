// The audit's remaining rows in a real browser (issue 33, item 16): a tenant deactivated and activated from the provider's
// list (its admin refused with tenant_inactive, then let in), the agents' Region and Operational area filters ('License Key
// copied' is checked on Rotate key's shown-once key in spec-fidelity.e2e.ts), an operational area edited through its modal,
// the regional landmap's 1 to 30 colour scale and count legend, and the location fallback of an analysis with no farm
// within its areas (the browser's position when allowed, 'Error getting location' when not).
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { consoleApi } from './support/api';
import { ACCOUNTS, DEMO_PASSWORD, createAdminLink, signIn } from './support/app';
import { launchBrowser, openPage, screenshot, type Session } from './support/browser';
import { waitForMap } from './support/map';
import { chooseOption, openedDialog } from './support/ui';

const server = { dataDir: inject('dataDir'), appSecret: inject('appSecret') };
const baseUrl = inject('baseUrl');
const TAG = Date.now().toString(36);
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const toast = (page: Page, text: string) => page.locator('.ant-notification, .ant-message').getByText(text, { exact: true }).first().waitFor();
const badge = async (page: Page): Promise<number> => {
  const el = page.getByTestId('count-badge').first();
  await expect.poll(async () => /^[\d,]+$/.test((await el.innerText()).trim())).toBe(true);
  return Number((await el.innerText()).replace(/,/g, ''));
};

async function rowAction(page: Page, row: Locator, item: string): Promise<void> {
  await row.getByRole('button', { name: /^Actions for/ }).click();
  await page.locator('.ant-dropdown:visible').getByText(item, { exact: true }).click();
}

async function confirm(page: Page, label: string): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: label, exact: true }) });
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('provider area', () => {
  let s: Session;
  beforeAll(async () => {
    s = await openPage(browser, baseUrl);
    await s.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await s.page.goto(`/?q=${createAdminLink(server)}`);
    await s.page.waitForURL(/\/super-admin\/dashboard$/);
  });
  afterAll(async () => {
    await s?.context.close();
  });

  it('deactivates a tenant after confirmation (its admin is refused with tenant_inactive), then activates it again', async () => {
    const { page } = s;
    const name = 'Oyo Agro Cooperative';
    const api = await consoleApi(page);
    const login = () => api.call('POST', '/api/auth/login/', { email: ACCOUNTS.adminA, password: DEMO_PASSWORD }, { auth: false });
    const tenant = ((await api.get(`/api/base/tenants/?search=${encodeURIComponent(name)}`)) as { results: Array<{ id: string; is_active: boolean }> })
      .results[0]!;
    expect(tenant.is_active).toBe(true);
    // The demo tenant is shared with later files: whatever happens here, it is left active.
    onTestFinished(async () => {
      const now = ((await api.get(`/api/base/tenants/?search=${encodeURIComponent(name)}`)) as { results: Array<{ is_active: boolean }> }).results[0]!;
      if (!now.is_active) await api.call('PUT', `/api/base/tenants/${tenant.id}/suspend-deactivate/`, { is_active: true });
    });
    await page.goto('/super-admin/tenant');
    await page.getByLabel('Search all tenants').fill(name);
    const row = page.locator('tr', { hasText: name }).first();
    await row.getByText('Active', { exact: true }).waitFor();
    await rowAction(page, row, 'Deactivate');
    await page.getByRole('dialog').getByText(`Deactivate ${name}?`, { exact: false }).waitFor();
    await screenshot(page, 'audit-deactivate-confirm');
    await confirm(page, 'Deactivate');
    await toast(page, 'Tenant deactivated successfully');
    await row.getByText('Inactive', { exact: true }).waitFor();
    const list = (await api.get(`/api/base/tenants/?search=${encodeURIComponent(name)}`)) as { results: Array<{ status: string; is_active: boolean }> };
    expect(list.results[0]).toMatchObject({ status: 'Inactive', is_active: false });
    const refused = await login();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('tenant_inactive');

    await rowAction(page, row, 'Activate');
    await confirm(page, 'Activate');
    await toast(page, 'Tenant activated successfully');
    await row.getByText('Active', { exact: true }).waitFor();
    expect((await login()).status).toBe(200);
  });
});

describe('tenant area', () => {
  let s: Session;
  beforeAll(async () => {
    s = await openPage(browser, baseUrl);
    await signIn(s.page, ACCOUNTS.adminB);
  });
  afterAll(async () => {
    await s?.context.close();
  });

  it('filters the agents by region and by operational area, each matching the API', async () => {
    const { page } = s;
    const api = await consoleApi(page);
    const areas = (await api.get('/api/operational-areas/?page_size=100')) as {
      results: Array<{ id: string; name: string; region: string; region_id: string }>;
    };
    const area = areas.results[0]!;
    await page.goto('/admin/agents');
    const all = await badge(page);

    await page.getByRole('button', { name: /^Filter/ }).click();
    let modal = await openedDialog(page, 'Filter');
    await chooseOption(page, modal.getByLabel('Region'), new RegExp(`^\\s*${area.region}\\s*$`));
    await modal.getByRole('button', { name: 'Apply Filter' }).click();
    await modal.waitFor({ state: 'hidden' });
    const byRegion = (await api.get(`/api/accounts/agents/?region=${area.region_id}&page_size=1`)) as { count: number };
    await expect.poll(() => badge(page)).toBe(byRegion.count);
    await screenshot(page, 'audit-agents-region-filter');

    await page.getByRole('button', { name: 'Filter (1)' }).click();
    modal = await openedDialog(page, 'Filter');
    await modal.getByRole('button', { name: 'Reset' }).click();
    await modal.waitFor({ state: 'hidden' });
    await expect.poll(() => badge(page)).toBe(all);

    await page.getByRole('button', { name: /^Filter/ }).click();
    modal = await openedDialog(page, 'Filter');
    await chooseOption(page, modal.getByLabel('Operational area'), new RegExp(`^\\s*${area.name}\\s*$`));
    await modal.getByRole('button', { name: 'Apply Filter' }).click();
    await modal.waitFor({ state: 'hidden' });
    const byArea = (await api.get(`/api/accounts/agents/?operational_area=${area.id}&page_size=1`)) as { count: number };
    await expect.poll(() => badge(page)).toBe(byArea.count);
    expect(byArea.count).toBeLessThanOrEqual(all);
  });

  it('edits an operational area through its modal: renamed in the list and the API, its polygon kept', async () => {
    const { page } = s;
    const api = await consoleApi(page);
    const before = (
      (await api.get('/api/operational-areas/?page_size=100')) as { results: Array<{ id: string; name: string; coordinates: number[][] }> }
    ).results.at(-1)!;
    const renamed = `${before.name.slice(0, 40)} ${TAG}`;
    await page.goto('/admin/operational-areas');
    const row = page.getByTestId('area-row').filter({ hasText: before.name }).first();
    await row.getByRole('button', { name: `Actions for ${before.name}` }).click();
    await page.locator('.ant-dropdown:visible').getByText('Edit Area', { exact: true }).click();
    const modal = page.getByRole('dialog').filter({ hasText: 'Editing operational area' });
    await modal.waitFor();
    expect(await modal.getByLabel('Area Name').inputValue()).toBe(before.name);
    await modal.getByLabel('Area Name').fill(renamed);
    await modal.getByRole('button', { name: 'Proceed to Map' }).click();
    await waitForMap(page, 'draw-map');
    const popup = page.getByTestId('area-popup');
    await popup.getByRole('button', { name: 'Proceed' }).click();
    await popup.getByText('Are you sure you want to update this operational area').waitFor();
    await screenshot(page, 'audit-area-edit-confirm');
    await popup.getByRole('button', { name: 'Yes' }).click();
    await toast(page, 'Operational area edited successfully');
    await modal.waitFor({ state: 'hidden' });
    await page.getByTestId('area-row').filter({ hasText: renamed }).waitFor();
    const after = (await api.get(`/api/operational-areas/${before.id}/`)) as { name: string; coordinates: number[][] };
    expect(after.name).toBe(renamed);
    expect(after.coordinates).toEqual(before.coordinates);
  });

  it('colours the regional landmap on the 1 to 30 scale and shows its count legend', async () => {
    const { page } = s;
    await page.goto('/admin/dashboard');
    await page.getByTestId('global-landmap').getByText('REGIONAL MAP', { exact: true }).click();
    await waitForMap(page, 'landmap');
    const legend = page.getByTestId('landmap-legend');
    await legend.getByText('Mapped Farmlands').waitFor();
    const scale = legend.getByTestId('landmap-scale');
    await scale.waitFor();
    expect(await scale.locator('[data-step]').count()).toBe(30);
    const max = Number(await page.getByTestId('landmap').getAttribute('data-max'));
    expect(max).toBeGreaterThan(0);
    expect(await scale.innerText()).toContain(`${max.toLocaleString('en-US')} farms`);
    // The state with the most farms is drawn in class 30's colour, the darkest.
    const darkest = await scale.locator('[data-step="30"]').evaluate((el) => getComputedStyle(el).backgroundColor);
    const top = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="landmap"]') as HTMLElement & {
        __map: { queryRenderedFeatures(o: object): Array<{ properties: { total: number }; layer: { paint?: Record<string, unknown> } }> };
      };
      const feats = el.__map.queryRenderedFeatures({ layers: ['landmap-places'] });
      const biggest = feats.reduce((a, b) => (b.properties.total > a.properties.total ? b : a));
      // The paint of a queried feature is evaluated for that feature: MapLibre's Color, 0 to 1 per channel.
      const c = biggest.layer.paint?.['circle-color'] as { r: number; g: number; b: number };
      return { count: feats.length, max: biggest.properties.total, rgb: [c.r, c.g, c.b].map((v) => Math.round(v * 255)) };
    });
    expect(top.count).toBeGreaterThan(0);
    expect(top.max).toBe(max);
    expect(top.rgb).toEqual([8, 28, 21]);
    expect(darkest).toBe('rgb(8, 28, 21)');
    await screenshot(page, 'audit-regional-landmap');
  });

  it("centres an analysis with no farm within its areas on the browser's position, or says 'Error getting location'", async () => {
    const api = await consoleApi(s.page);
    const area = ((await api.get('/api/operational-areas/?page_size=1')) as { results: Array<{ id: string }> }).results[0]!;
    // Two farms far outside every area (the Sahara): nothing is within.
    const square = (x: number, y: number) => [
      [x, y],
      [x + 0.001, y],
      [x + 0.001, y + 0.001],
      [x, y + 0.001],
    ];
    const res = await api.call('POST', '/api/custom-analysis/', {
      name: `No farm within ${TAG}`,
      operational_areas: [area.id],
      locations: [
        { farm_name: 'Far 1', farm_coordinates: square(12.5, 22.5) },
        { farm_name: 'Far 2', farm_coordinates: square(12.51, 22.51) },
      ],
    });
    expect(res.status).toBe(201);
    const id = res.body.data.id as string;
    await expect.poll(async () => ((await api.get(`/api/custom-analysis/${id}/`)) as { status: string }).status, { timeout: 30_000 }).toMatch(/complete/i);

    // Allowed: the map centres on the browser's position (Kano).
    const here = { latitude: 12.0022, longitude: 8.592 };
    await s.context.grantPermissions(['geolocation']);
    await s.context.setGeolocation(here);
    await s.page.goto(`/admin/farm-analysis/${id}`);
    await waitForMap(s.page, 'analysis-map');
    await expect
      .poll(() =>
        s.page.evaluate(() => {
          const el = document.querySelector('[data-testid="analysis-map"]') as HTMLElement & { __map: { getCenter(): { lng: number; lat: number } } };
          const c = el.__map.getCenter();
          return [Math.round(c.lng * 100) / 100, Math.round(c.lat * 100) / 100];
        }),
      )
      .toEqual([8.59, 12]);
    await screenshot(s.page, 'audit-location-fallback-allowed');

    // Refused: the spec's error.
    await s.context.clearPermissions();
    await s.page.goto(`/admin/farm-analysis/${id}`);
    await toast(s.page, 'Error getting location');
    await screenshot(s.page, 'audit-location-fallback-refused');
  });
});
