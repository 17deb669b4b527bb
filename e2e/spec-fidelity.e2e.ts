// Issue 33's spec-fidelity checks in a real browser: Rotate key on the license list shows a new key once, its copy
// button copies the full key ('License Key copied'), and that key signs an SDK capture (POST /api/farms/ with
// X-License-Key) while the old key is refused; the Analysis Report deletes one analysis by its own row action.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { consoleApi, type ConsoleApi } from './support/api';
import { ACCOUNTS, signIn } from './support/app';
import { launchBrowser, openPage, screenshot } from './support/browser';

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
    { farmer_id: farmer.body.data.id, name: `Rotation farm ${stamp} ${n}`, coordinates: square(3.9 + n * 0.01, 7.9), time_taken_to_map: '00:05:00', gps_device_id: 'GPS-ROTATE' },
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
    await provider.locator('tr', { hasText: name }).filter({ hasText: 'Revoked' }).getByLabel(`Key hint ${oldKey.slice(0, 10)}`).waitFor();
    await provider.locator('tr', { hasText: name }).filter({ hasText: 'Active' }).getByLabel(`Key hint ${newKey.slice(0, 10)}`).waitFor();
    expect(await provider.locator('body').innerText()).not.toContain(newKey);
    await screenshot(provider, 's3-license-list-after-rotation');
  });
});

describe('Analysis Report (/admin/farm-analysis)', () => {
  it("deletes one analysis by its own row action and leaves the others", async () => {
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
    await dialog.getByRole('button', { name: 'Delete' }).click();
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
