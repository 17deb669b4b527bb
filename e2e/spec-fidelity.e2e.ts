// Issue 33's spec-fidelity checks in a real browser: Rotate key on the license list (and in the Manage License drawer)
// shows a new key once, its copy
// button copies the full key ('License Key copied'), and that key signs an SDK capture (POST /api/farms/ with
// X-License-Key) while the old key is refused; the Analysis Report deletes one analysis by its own row action; and the
// walk's findings: Agent Ranking from the server, what Mapped/Unmapped count, the agents table at 1440 px with its
// progress explained, a refused upload named in the drop zone, the Farmlands filter, the provider's agents drawer, the
// header search, the analysis map's first view and the failed rows' file row.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { consoleApi, type ConsoleApi } from './support/api';
import { ACCOUNTS, signIn } from './support/app';
import { launchBrowser, openPage, screenshot } from './support/browser';
import { waitForMap } from './support/map';
import { chooseMenuItem, chooseOption, openedConfirm, openedDialog, openList } from './support/ui';

const baseUrl = inject('baseUrl');
const stamp = Date.now().toString(36);
const NIGERIA = '1e7050d0-9e8f-5e82-9ca3-884850256d74';
const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const square = (lng: number, lat: number, d = 0.001) => [
  [lng, lat],
  [lng + d, lat],
  [lng + d, lat + d],
  [lng, lat + d],
  [lng, lat],
];

let browser: Browser;
let provider: Page;
let admin: Page;

const toast = (page: Page, text: string) => page.locator('.ant-notification').getByText(text, { exact: true }).first().waitFor();

beforeAll(async () => {
  browser = await launchBrowser();
  provider = (await openPage(browser, baseUrl)).page;
  await signIn(provider, ACCOUNTS.superAdmin);
  admin = (await openPage(browser, baseUrl)).page;
  await signIn(admin, ACCOUNTS.adminB);
});
afterAll(async () => {
  await browser?.close();
});

/** An SDK capture as a tenant's own app sends it: a farmer, then a farm, each signed by the license key alone. */
async function capture(api: ConsoleApi, key: string, n: number): Promise<number[]> {
  const headers = { 'x-license-key': key };
  const farmer = await api.call('POST', '/api/farmers/', { first_name: 'Rotated', last_name: `Key ${n}` }, { auth: false, headers });
  if (farmer.status !== 201) return [farmer.status];
  const farm = await api.call(
    'POST',
    '/api/farms/',
    {
      farmer_id: farmer.body.data.id,
      name: `Rotation farm ${stamp} ${n}`,
      coordinates: square(3.9 + n * 0.01, 7.9),
      time_taken_to_map: '00:05:00',
      gps_device_id: 'GPS-ROTATE',
    },
    { auth: false, headers },
  );
  return [farmer.status, farm.status];
}

describe('License keys (/super-admin/license)', () => {
  it('rotates a key: the new key is shown once, copies in full, and signs an SDK capture; the old key is refused', async () => {
    const api = await consoleApi(provider);
    const name = `Rotation Growers ${stamp}`;
    const created = await api.call('POST', '/api/base/tenants/', {
      name,
      address: '2 Key Street',
      phone_number: '+2348031112222',
      email: `ops-${stamp}@rotation.example`,
      country_id: NIGERIA,
      city: 'Ibadan',
      enable_farm_sync: true,
      admin: { email: `admin-${stamp}@rotation.example`, first_name: 'Kemi', last_name: 'Key', phone_number: '+2348031113333' },
      license: { type: 'SDK', issued_date: today(), expiry_date: inDays(365), price: '220000' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const oldKey: string = created.body.data.license_key;
    expect(await capture(api, oldKey, 1)).toEqual([201, 201]);

    await provider.goto('/super-admin/license');
    await provider.getByLabel('Search all licenses').fill(name);
    const row = provider.locator('tr', { hasText: name }).first();
    await row.waitFor();
    // The list shows the hint, labelled as a hint
    expect(await row.getByLabel(`Key hint ${oldKey.slice(0, 10)}`).count()).toBe(1);
    await row.getByRole('button', { name: /^Actions for/ }).click();
    await provider.locator('.ant-dropdown:visible').getByText('Rotate key', { exact: true }).click();
    const dialog = provider.getByRole('dialog').filter({ hasText: 'stops working at once' });
    await dialog.waitFor();
    await screenshot(provider, 's1-rotate-key-confirm');
    const answered = provider.waitForResponse((r) => r.url().includes('/rotate-key/') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Rotate key' }).click();
    expect((await answered).status()).toBe(200);
    await toast(provider, 'License key rotated successfully');

    const keyModal = provider.getByRole('dialog').filter({ hasText: 'License key' });
    const newKey = (await keyModal.getByTestId('created-license-key').innerText()).trim();
    expect(newKey).toMatch(/^SDK-[A-Za-z0-9_-]{43}$/);
    expect(newKey).not.toBe(oldKey);
    await screenshot(provider, 's2-rotated-key-shown-once');
    await provider.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await keyModal.getByRole('button', { name: 'Copy key' }).click();
    await toast(provider, 'License Key copied');
    expect(await provider.evaluate(() => navigator.clipboard.readText())).toBe(newKey);
    await keyModal.getByRole('button', { name: 'Done' }).click();
    await keyModal.waitFor({ state: 'hidden' });

    // The new key signs a capture; the old one gets the usual answer for a revoked license
    expect(await capture(api, newKey, 2)).toEqual([201, 201]);
    const refused = await api.call(
      'POST',
      '/api/farms/',
      { farmer_id: '00000000-0000-4000-8000-000000000000', name: 'Old key farm', coordinates: square(3.95, 7.9) },
      { auth: false, headers: { 'x-license-key': oldKey } },
    );
    expect([refused.status, refused.body.code]).toEqual([403, 'license_revoked']);
    // The list now holds the new license (Active) and the old one (Revoked), each by its hint; no full key anywhere
    await expect.poll(() => provider.locator('tr', { hasText: name }).count()).toBe(2);
    await provider
      .locator('tr', { hasText: name })
      .filter({ hasText: 'Revoked' })
      .getByLabel(`Key hint ${oldKey.slice(0, 10)}`)
      .waitFor();
    await provider
      .locator('tr', { hasText: name })
      .filter({ hasText: 'Active' })
      .getByLabel(`Key hint ${newKey.slice(0, 10)}`)
      .waitFor();
    expect(await provider.locator('body').innerText()).not.toContain(newKey);
    await screenshot(provider, 's3-license-list-after-rotation');

    // The same flow from the tenant's Manage License drawer: a third key, shown once; the second is refused from then on
    await provider.goto(`/super-admin/tenant/${created.body.data.id}`);
    await provider.getByRole('button', { name: 'Manage License' }).click();
    const drawer = provider.locator('.ant-drawer').filter({ has: provider.getByTestId('manage-license') });
    await drawer.getByRole('button', { name: 'Rotate key' }).click();
    const again = provider.getByRole('dialog').filter({ hasText: 'stops working at once' });
    await again.waitFor();
    expect(await again.innerText()).toContain(newKey.slice(0, 10));
    await again.getByRole('button', { name: 'Rotate key' }).click();
    await toast(provider, 'License key rotated successfully');
    const thirdKey = (await keyModal.getByTestId('created-license-key').innerText()).trim();
    expect(thirdKey).toMatch(/^SDK-[A-Za-z0-9_-]{43}$/);
    expect(thirdKey).not.toBe(newKey);
    await screenshot(provider, 's4-rotated-from-manage-license');
    await keyModal.getByRole('button', { name: 'Done' }).click();
    await keyModal.waitFor({ state: 'hidden' });
    expect(await capture(api, thirdKey, 3)).toEqual([201, 201]);
    const second = await api.call('POST', '/api/farmers/', { first_name: 'Old', last_name: 'Key' }, { auth: false, headers: { 'x-license-key': newKey } });
    expect([second.status, second.body.code]).toEqual([403, 'license_revoked']);
  });
});

describe('Analysis Report (/admin/farm-analysis)', () => {
  it('deletes one analysis by its own row action and leaves the others', async () => {
    const api = await consoleApi(admin);
    const areas = (await api.get('/api/operational-areas/?page_size=100')).results as Array<{ id: string }>;
    expect(areas.length).toBeGreaterThan(0);
    const names = [`Row delete ${stamp} A`, `Row delete ${stamp} B`];
    for (const name of names) {
      const res = await api.call('POST', '/api/custom-analysis/', {
        name,
        operational_areas: areas.map((a) => a.id),
        locations: [{ farm_name: 'Only farm', farm_coordinates: square(3.77, 7.64) }],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    await admin.goto('/admin/farm-analysis');
    await admin.getByLabel('Search analysis report').fill(`Row delete ${stamp}`);
    const rowOf = (name: string) => admin.locator('.ant-table-row').filter({ hasText: name });
    await rowOf(names[0]!).waitFor();
    await rowOf(names[1]!).waitFor();
    await screenshot(admin, 's4-analysis-row-actions');

    await rowOf(names[0]!).getByRole('button', { name: 'Delete' }).click();
    const dialog = admin.getByRole('dialog').filter({ hasText: 'Are you sure you want to delete this analysis? This action cannot be undone.' });
    await dialog.waitFor();
    // Clicked once still: a click during the opening motion can be lost (support/ui.ts).
    await (await openedConfirm(admin, 'Are you sure you want to delete this analysis?')).getByRole('button', { name: 'Delete' }).click();
    await toast(admin, 'Analysis deleted successfully');
    await rowOf(names[0]!).waitFor({ state: 'detached' });
    expect(await rowOf(names[1]!).count()).toBe(1);
    const left = (await api.get(`/api/custom-analysis/?search=${encodeURIComponent(`Row delete ${stamp}`)}`)).results as Array<{ name: string }>;
    expect(left.map((a) => a.name)).toEqual([names[1]]);

    // View opens the analysis page, like a row click
    await rowOf(names[1]!).getByRole('button', { name: 'View' }).click();
    await admin.waitForURL(/\/admin\/farm-analysis\/[0-9a-f-]{36}/);
  });
});

describe("the walk's findings", () => {
  it('ranks agents on the server and says what Mapped and Unmapped farms count (tenant dashboard)', async () => {
    const api = await consoleApi(admin);
    const ranking = await api.get('/api/analytics/agent-ranking/');
    await admin.goto('/admin/dashboard');
    const card = admin.getByTestId('agent-ranking');
    await card.locator('.ant-table-row').first().waitFor();
    const names = await card.locator('.ant-table-row td:nth-child(2)').allInnerTexts();
    expect(names).toEqual((ranking.results as Array<{ agent_name: string }>).map((r) => r.agent_name));
    expect(await card.innerText()).toContain(`of ${ranking.total_agents} agents`);
    const counts = await api.get('/api/analytics/');
    await expect
      .poll(() => admin.getByTestId('overall-activity').innerText())
      .toContain(`Counted in farmers: ${counts.mapped_farmers} with at least one mapped farm, ${counts.unmapped_farmers} with none.`);
    await admin.getByTestId('total-mapped-chart').locator('canvas').waitFor();
    await screenshot(admin, 's5-tenant-dashboard');
  });

  it('shows agents at 1440 px without cutting names, e-mails or areas, and explains progress', async () => {
    await admin.setViewportSize({ width: 1440, height: 900 });
    await openList(admin, '/admin/agents', 'All Agents');
    await admin.locator('.ant-table-row').first().waitFor();
    const cut = await admin.evaluate(() =>
      [...document.querySelectorAll('.ant-table-row td')]
        .flatMap((td) => [td as HTMLElement, ...td.querySelectorAll<HTMLElement>('span')])
        .filter((el) => el.scrollWidth > el.clientWidth + 1 || getComputedStyle(el).textOverflow === 'ellipsis')
        .map((el) => el.textContent),
    );
    expect(cut).toEqual([]);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    await admin.getByTestId('agent-progress').first().hover();
    await admin
      .locator('.ant-tooltip:visible')
      .getByText(/Progress = mapped farms ÷ farmers registered × 100/)
      .waitFor();
    await screenshot(admin, 's6-agents-1440');
  });

  it('names a refused file and why in the drop zone (type, then size)', async () => {
    await admin.goto('/admin/farm-analysis');
    const zone = admin.getByTestId('analysis-drop-zone');
    await zone.locator('input[type=file]').setInputFiles({ name: 'farms.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await expect.poll(() => zone.getByRole('alert').innerText()).toMatch(/“farms\.pdf” was not taken: only .*CSV.* files can be uploaded here\./);
    await zone.locator('input[type=file]').setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.alloc(3_145_728 + 1, 'a') });
    await expect
      .poll(() => zone.getByRole('alert').innerText())
      .toBe('“big.csv” was not taken: it is 3,145,729 bytes, and the limit is 3 MB (3,145,728 bytes).');
    await screenshot(admin, 's7-upload-refused');
  });

  it('filters Farmlands by operational area', async () => {
    const api = await consoleApi(admin);
    const areas = (await api.get('/api/operational-areas/?page_size=100')).results as Array<{ id: string; name: string }>;
    // The first area that holds farms (other browser files add empty areas to the same tenant, so not simply the first).
    let area: { id: string; name: string } | undefined;
    let expected: { count: number } = { count: 0 };
    for (const a of areas) {
      expected = (await api.get(`/api/farms/?operational_area=${a.id}&page_size=10`)) as { count: number };
      if (expected.count > 0) {
        area = a;
        break;
      }
    }
    expect(area, 'an operational area with farms').toBeDefined();
    expect(expected.count).toBeGreaterThan(0);
    const areaName = area!.name;
    await openList(admin, '/admin/mapping', 'All Mapped Farmlands');
    await admin.locator('.ant-table-row').first().waitFor();
    await admin
      .getByRole('button', { name: /^Filter/ })
      .first()
      .click();
    const modal = await openedDialog(admin, 'Filter');
    await chooseOption(admin, modal.getByLabel('Operational area'), new RegExp(`^${areaName}$`));
    await modal.getByRole('button', { name: 'Apply Filter' }).click();
    await modal.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await admin.locator('.ant-table-row').allInnerTexts()).every((t) => t.includes(areaName))).toBe(true);
    await expect.poll(() => admin.getByTestId('count-badge').first().innerText()).toBe(String(expected.count));
    await screenshot(admin, 's8-farmlands-filtered');
  });

  it("opens a tenant's agents for provider staff", async () => {
    const api = await consoleApi(provider);
    const tenant = (await api.get(`/api/base/tenants/?search=${encodeURIComponent('Green Harvest')}`)).results[0] as { id: string };
    const agents = await api.get(`/api/accounts/agents/?tenant_id=${tenant.id}`);
    await provider.goto(`/super-admin/tenant/${tenant.id}`);
    await provider.getByRole('button', { name: /^Agents \(/ }).click();
    const drawer = provider.getByTestId('tenant-agents');
    await drawer.locator('.ant-table-row').first().waitFor();
    await expect.poll(() => drawer.locator('.ant-table-row').count()).toBe(Math.min(10, agents.count));
    const names = await drawer.locator('.ant-table-row td:first-child').allInnerTexts();
    expect(names.sort()).toEqual(
      (agents.results as Array<{ agent_name: string }>)
        .map((a) => a.agent_name)
        .slice(0, 10)
        .sort(),
    );
    await screenshot(provider, 's9-provider-tenant-agents');
  });

  it('searches farmers from the header and opens the one picked', async () => {
    const api = await consoleApi(admin);
    const farmer = (await api.get('/api/farmers/?page_size=1')).results[0] as { id: string; first_name: string; last_name: string };
    await admin.goto('/admin/dashboard');
    const box = admin.getByLabel('Search farms, farmers and agents');
    await box.fill(`${farmer.first_name} ${farmer.last_name}`);
    const option = admin
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: `${farmer.first_name} ${farmer.last_name}` })
      .first();
    await option.waitFor();
    await screenshot(admin, 's10-header-search');
    await option.click();
    await admin.waitForURL(/\/admin\/(farmers\?farmer_id=|agents\?agent=)/);
  });

  it('opens an analysis map fitted to its farms, not zoomed out to specks', async () => {
    const api = await consoleApi(admin);
    const areas = (await api.get('/api/operational-areas/?page_size=100')).results as Array<{ id: string }>;
    const res = await api.call('POST', '/api/custom-analysis/', {
      name: `Map fit ${stamp}`,
      operational_areas: areas.map((a) => a.id),
      // Four farms together, and one with latitude and longitude swapped (a valid position, ~600 km away)
      locations: [
        ...[0, 1, 2, 3].map((i) => ({ farm_name: `Fit ${i}`, farm_coordinates: square(3.77 + i * 0.004, 7.64, 0.002) })),
        { farm_name: 'Swapped', farm_coordinates: square(7.64, 3.77, 0.002) },
      ],
    });
    expect(res.status).toBe(201);
    const id = res.body.data.id as string;
    await expect.poll(async () => (await api.get(`/api/custom-analysis/${id}/`)).status, { timeout: 60_000 }).toBe('completed');
    await admin.goto(`/admin/farm-analysis/${id}`);
    await waitForMap(admin, 'analysis-map');
    const view = await admin.evaluate(() => {
      const map = (
        document.querySelector('[data-testid="analysis-map"]') as HTMLElement & {
          __map: { getZoom(): number; getBounds(): { getWest(): number; getEast(): number } };
        }
      ).__map;
      const b = map.getBounds();
      return { zoom: map.getZoom(), west: b.getWest(), east: b.getEast() };
    });
    // The four farms span about 1.4 km: the first view shows them all, large (not the ~zoom 6 of a country view)
    expect(view.west).toBeLessThanOrEqual(3.77);
    expect(view.east).toBeGreaterThanOrEqual(3.784);
    expect(view.zoom).toBeGreaterThanOrEqual(13);
    expect(view.zoom).toBeLessThanOrEqual(18);
    expect(await admin.getByTestId('map-outliers').innerText()).toMatch(/^1 far from the others is outside this first view/);
    await screenshot(admin, 's11-analysis-map-fitted');
  });

  it('says which file row failed in a bulk upload, and keeps the table inside its modal', async () => {
    await openList(admin, '/admin/agents', 'All Agents');
    const csv = [
      'first_name,last_name,email,phone_number,gender,operational_area_id',
      `Rowan,Ok${stamp},rowan.${stamp}@agents.example,+2348030000301,Male,`,
      `Rowan,Bad${stamp},not-an-email,+2348030000302,Male,`,
      '',
    ].join('\r\n');
    await chooseMenuItem(admin, admin.getByRole('button', { name: /New Agent/ }), 'Bulk Upload');
    const modal = await openedDialog(admin, 'Bulk Upload Agents');
    await admin
      .getByTestId('agents-bulk-upload-zone')
      .locator('input[type=file]')
      .setInputFiles({ name: 'agents.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await admin.getByTestId('agents-bulk-upload-zone-file').waitFor();
    await modal.getByRole('button', { name: 'Upload' }).click();
    const table = admin.getByTestId('agents-bulk-upload-failed-rows');
    await table.waitFor();
    // The bad line is the file's third row (the header is row 1)
    expect(await table.getByRole('columnheader', { name: 'File row' }).count()).toBe(1);
    expect(await table.getByTestId('file-row').allInnerTexts()).toEqual(['3']);
    const fits = await modal.evaluate((el) => {
      const dialog = (el.querySelector('.ant-modal-content') ?? el.closest('.ant-modal-content') ?? el) as HTMLElement;
      return [...dialog.querySelectorAll<HTMLElement>('.ant-table')].every((t) => t.getBoundingClientRect().right <= dialog.getBoundingClientRect().right + 1);
    });
    expect(fits).toBe(true);
    await screenshot(admin, 's12-bulk-failed-file-row');
  });
});
