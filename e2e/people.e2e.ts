// Agents and farmers in a real browser, as a demo tenant admin (tenant B, Green Harvest): an agent created through the
// three-step wizard, opened in its drawer, its account reset, suspended and unsuspended, then deleted; a farmer created
// with Create Single, its drawer and (once the field has captured a farm for it through the SDK license) its farm drawer,
// both back after a reload; a farmers file with 5 good and 3 bad rows, the 3 corrected in the table and re-sent without
// a new file, the count up by 8; the Filter modal; both lists exported.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { consoleApi } from './support/api';
import { ACCOUNTS, signIn } from './support/app';
import { launchBrowser, openPage, screenshot, seriousA11yViolations, type Session } from './support/browser';
import { waitForMap } from './support/map';
import { chooseMenuItem, chooseOption, closeDrawer, closeMenu, openList, openedDialog, waitUntilStill } from './support/ui';

const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;
let page: Page;

const TAG = Date.now().toString(36);
const AGENT = { first: 'Halima', last: `Wizard${TAG}`, email: `halima.${TAG}@agents.example`, phone: '+2348031234567' };
const FARMER = { first: 'Bayo', last: `Single${TAG}`, email: `bayo.${TAG}@farmers.example`, phone: '+2348039876543', address: '7 Ring Road, Ogbomosho' };
const ring = (lng: number, lat: number, d = 0.001) =>
  JSON.stringify([
    [lng, lat],
    [lng + d, lat],
    [lng + d, lat + d],
    [lng, lat + d],
  ]);

const HEADER = 'first_name,last_name,email,phone_number,gender,address,location,folio_id,farm_name,operational_area_id,farm_coordinates';
const q = (v: string) => `"${v.replace(/"/g, '""')}"`;
const BULK_CSV = [
  HEADER,
  `Kemi,Ajayi,kemi.${TAG}@example.com,+2348030000101,Female,1 Oja Road,Ogbomosho,BU-${TAG}-1,Kemi Farm,,${q(ring(3.9, 7.9))}`,
  `Sola,Bello,,08030000102,Male,2 Oja Road,Oyo,BU-${TAG}-2,,,`,
  `Femi,Cole,femi.${TAG}@example.com,,male,3 Oja Road,,BU-${TAG}-3,,,`,
  `Ngozi,Dike,ngozi.${TAG}@example.com,+2348030000104,Female,,,BU-${TAG}-4,,,`,
  `Musa,Eze,,+2348030000105,,5 Oja Road,,BU-${TAG}-5,Musa Farm,,${q(ring(3.91, 7.91))}`,
  // Row 6: a bad email. Row 7: no last name and an unknown gender. Row 8: a farm of two points.
  `Tola,Fash,not-an-email,+2348030000106,Female,6 Oja Road,,BU-${TAG}-6,,,`,
  `Uche,,uche.${TAG}@example.com,+2348030000107,Other,7 Oja Road,,BU-${TAG}-7,,,`,
  `Zara,Gana,zara.${TAG}@example.com,+2348030000108,Female,8 Oja Road,,BU-${TAG}-8,Zara Farm,,${q('[[3.92,7.92],[3.921,7.92]]')}`,
  '',
].join('\r\n');

const count = async () => Number((await page.getByTestId('count-badge').first().innerText()).replace(/,/g, ''));
/** The list's own rows (tables in drawers and modals are not the list). */
const rows = () => page.locator('section[aria-labelledby] .ant-table-row');
const row = (text: string) => rows().filter({ hasText: text });
const toast = (text: string) => page.locator('.ant-notification-notice').filter({ hasText: text }).first();

async function downloadCsv(button: string): Promise<{ name: string; lines: string[] }> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: button, exact: true }).click();
  const file = await download;
  const text = await fs.promises.readFile(await file.path(), 'utf8');
  return { name: file.suggestedFilename(), lines: text.split(/\r?\n/).filter(Boolean) };
}

async function rowMenu(name: string, item: string): Promise<void> {
  await chooseMenuItem(page, row(name).getByRole('button', { name: `Actions for ${name}` }), item);
}
/** Types into the list's search box and waits until the list shows `expected` rows. */
async function searchFor(label: string, text: string, expected?: number): Promise<void> {
  await page.getByLabel(label).fill(text);
  if (expected !== undefined) await expect.poll(() => rows().count()).toBe(expected);
}

beforeAll(async () => {
  browser = await launchBrowser();
  s = await openPage(browser, baseUrl);
  page = s.page;
  await signIn(page, ACCOUNTS.adminB);
});
afterAll(async () => {
  await browser?.close();
});

describe("Agents' List (/admin/agents)", () => {
  let before = 0;
  const name = `${AGENT.first} ${AGENT.last}`;

  it('lists the agents with the spec columns, then creates one through the 3-step wizard', async () => {
    await page.getByTestId('sidebar').getByRole('link', { name: 'Agents' }).click();
    await page.waitForURL(/\/admin\/agents$/);
    await page.getByRole('heading', { name: 'All Agents' }).waitFor();
    await expect.poll(() => rows().count()).toBeGreaterThan(0);
    // The spec's columns fit a 1366 px screen: the list does not scroll sideways.
    const table = page.locator('section[aria-labelledby] .ant-table-content, section[aria-labelledby] .ant-table-body').first();
    expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    before = await count();
    const headers = (await page.locator('.ant-table-thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    // 'Actions' is the row-action column's heading, visually hidden (an empty header fails axe).
    expect(headers).toEqual([
      'Agent name',
      'Phone',
      'Email',
      'Farmers',
      'Mapped farmlands',
      'Progress',
      'Operational area',
      'Status',
      'Total area mapped',
      'Actions',
    ]);
    await screenshot(page, 'p01-agents-list');
    // An e-mail wraps instead of being cut (issue 33): the whole address is in the cell, nothing hidden by an ellipsis.
    const emailCell = rows().first().locator('td').nth(2);
    const email = (await emailCell.innerText()).trim();
    expect(email).toMatch(/@[^.]+\./);
    expect(await emailCell.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await emailCell.locator('.ant-typography-ellipsis, [class*="ellipsis"]').count()).toBe(0);
    expect((await seriousA11yViolations(page)).map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    await chooseMenuItem(page, page.getByRole('button', { name: /New Agent/ }), 'Create Single');
    const wizard = await openedDialog(page, 'Add New Agent');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('First name is required').waitFor();
    await wizard.getByLabel('First name').fill(AGENT.first);
    await wizard.getByLabel('Last name').fill(AGENT.last);
    await wizard.getByLabel('Email').fill('not-an-email');
    await wizard.getByLabel('Phone number').fill(AGENT.phone);
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Enter a valid email address').waitFor();
    await wizard.getByLabel('Email').fill(AGENT.email);
    await screenshot(page, 'p02-agent-wizard-details');
    await wizard.getByRole('button', { name: 'Next' }).click();

    const areaName = await chooseOption(page, wizard.getByLabel('Operational area'), { first: true });
    await screenshot(page, 'p03-agent-wizard-location');
    await wizard.getByRole('button', { name: 'Next' }).click();
    const confirm = wizard.getByTestId('agent-confirm');
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain(AGENT.email);
    expect(await confirm.innerText()).toContain(areaName);
    await screenshot(page, 'p04-agent-wizard-confirm');
    await wizard.getByRole('button', { name: 'Create Agent' }).click();
    await toast('Agent created successfully').waitFor();
    await wizard.waitFor({ state: 'hidden' });
    await expect.poll(count).toBe(before + 1);

    await searchFor('Search all agents', AGENT.email, 1);
    expect(await row(name).innerText()).toContain(areaName);
    expect(await row(name).innerText()).toContain('Active');
  });

  it('opens the agent drawer from the row', async () => {
    await openList(page, '/admin/agents', 'All Agents');
    await searchFor('Search all agents', AGENT.email, 1);
    await row(name).locator('td').nth(2).click();
    const drawer = page.getByTestId('agent-drawer');
    await drawer.waitFor();
    const text = await drawer.innerText();
    expect(text).toContain(name);
    expect(text).toContain(AGENT.email);
    expect(text).toContain('Recent captures');
    expect(text).toContain('This agent has not mapped any farm yet.');
    await screenshot(page, 'p05-agent-drawer');
    await closeDrawer(page, drawer);
  });

  it('edits the agent in the same wizard, prefilled', async () => {
    await openList(page, '/admin/agents', 'All Agents');
    await searchFor('Search all agents', AGENT.email, 1);
    await rowMenu(name, 'Edit Agent');
    const wizard = await openedDialog(page, 'Edit Agent');
    await expect.poll(() => wizard.getByLabel('Email').inputValue()).toBe(AGENT.email);
    await wizard.getByLabel('Phone number').fill('+2348031112222');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    expect(await wizard.getByTestId('agent-confirm').innerText()).toContain('+2348031112222');
    await wizard.getByRole('button', { name: 'Save changes' }).click();
    await toast('Agent edited successfully').waitFor();
    await wizard.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await row(name).innerText()).includes('+2348031112222')).toBe(true);
  });

  it('resets the account, suspends and unsuspends the agent', async () => {
    await openList(page, '/admin/agents', 'All Agents');
    await searchFor('Search all agents', AGENT.email, 1);
    await rowMenu(name, 'Reset Agent Account');
    const reset = await openedDialog(page, 'Reset Agent Account');
    await reset.getByRole('button', { name: 'Reset' }).click();
    await toast('Account reset successfully').waitFor();
    await reset.waitFor({ state: 'hidden' });

    await rowMenu(name, 'Suspend Agent');
    const suspend = await openedDialog(page, 'Suspend Agent');
    expect(await suspend.innerText()).toContain('Are you sure you want to suspend');
    await screenshot(page, 'p06-agent-suspend-confirm');
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await toast('Agent suspended successfully').waitFor();
    await suspend.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await row(name).innerText()).includes('Suspended')).toBe(true);

    await rowMenu(name, 'Unsuspend Agent');
    const unsuspend = await openedDialog(page, 'Unsuspend Agent');
    await unsuspend.getByRole('button', { name: 'Unsuspend' }).click();
    await toast('Agent unsuspended successfully').waitFor();
    await unsuspend.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await row(name).innerText()).includes('Active')).toBe(true);
  });

  it('deletes the agent after the spec confirmation', async () => {
    await openList(page, '/admin/agents', 'All Agents');
    await searchFor('Search all agents', AGENT.email, 1);
    await rowMenu(name, 'Delete Agent');
    const del = await openedDialog(page, 'Delete Agent');
    expect(await del.innerText()).toContain('Are you sure you want to delete this agent? This action cannot be undone.');
    await screenshot(page, 'p07-agent-delete-confirm');
    await del.getByRole('button', { name: 'Delete' }).click();
    await toast('Agent deleted successfully').waitFor();
    await del.waitFor({ state: 'hidden' });
    await page.getByText('No agents match your search or filters').waitFor();
    await page.getByLabel('Search all agents').fill('');
    await expect.poll(count).toBe(before);
  });

  it('exports the agents list (agents.csv, agent_name as first and last name), with the visible columns only', async () => {
    await openList(page, '/admin/agents', 'All Agents');
    const { name: file, lines } = await downloadCsv('Export');
    expect(file).toBe('agents.csv');
    expect(lines[0]).toBe('First name,Last name,Phone,Email,Farmers,Mapped farmlands,Progress (%),Operational area,Status,Total area mapped (sqm)');
    expect(lines.length - 1).toBe(before);

    await chooseMenuItem(page, page.getByRole('button', { name: 'Columns' }), 'Email', { keepOpen: true });
    await closeMenu(page);
    await expect
      .poll(async () => (await page.locator('section[aria-labelledby] .ant-table-thead th').allInnerTexts()).map((t) => t.trim()).includes('Email'))
      .toBe(false);
    const narrower = await downloadCsv('Export');
    expect(narrower.lines[0]).toBe('First name,Last name,Phone,Farmers,Mapped farmlands,Progress (%),Operational area,Status,Total area mapped (sqm)');
    await chooseMenuItem(page, page.getByRole('button', { name: 'Columns' }), 'Email', { keepOpen: true });
    await closeMenu(page);
    await expect
      .poll(async () => (await page.locator('section[aria-labelledby] .ant-table-thead th').allInnerTexts()).map((t) => t.trim()).includes('Email'))
      .toBe(true);
  });

  it('bulk-uploads agents through the same modal: a duplicate email is corrected in the table', async () => {
    await openList(page, '/admin/agents', 'All Agents');
    const start = await count();
    const csv = [
      'first_name,last_name,email,phone_number,gender,operational_area_id',
      `Amaka,Bulk${TAG},amaka.${TAG}@agents.example,+2348030000201,Female,`,
      `Ike,Bulk${TAG},amaka.${TAG}@agents.example,+2348030000202,male,`,
      '',
    ].join('\r\n');
    await chooseMenuItem(page, page.getByRole('button', { name: /New Agent/ }), 'Bulk Upload');
    const modal = await openedDialog(page, 'Bulk Upload Agents');
    await page
      .getByTestId('agents-bulk-upload-zone')
      .locator('input[type=file]')
      .setInputFiles({ name: 'agents.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('agents-bulk-upload-zone-file').waitFor();
    await modal.getByRole('button', { name: 'Upload' }).click();
    await page.getByTestId('agents-bulk-upload-failed-rows').waitFor();
    expect(await page.getByTestId('agents-bulk-upload-failed-rows').locator('.ant-table-row').count()).toBe(1);
    expect(await modal.getByRole('img', { name: 'Why file row 3 email failed' }).getAttribute('data-error')).toMatch(/email/i);
    await expect.poll(count).toBe(start + 1);
    await screenshot(page, 'p08-agents-bulk-failed');
    await modal.getByLabel('File row 3 email', { exact: true }).fill(`ike.${TAG}@agents.example`);
    await modal.getByRole('button', { name: 'Submit fixed rows (1)' }).click();
    await toast('Bulk upload successful').waitFor();
    await modal.waitFor({ state: 'hidden' });
    await expect.poll(count).toBe(start + 2);
  });
});

describe("Farmer's List (/admin/farmers)", () => {
  let before = 0;
  let farmerId = '';
  const name = `${FARMER.first} ${FARMER.last}`;

  it('creates a farmer with Create Single', async () => {
    await page.getByTestId('sidebar').getByRole('link', { name: 'Farmers' }).click();
    await page.waitForURL(/\/admin\/farmers$/);
    await page.getByRole('heading', { name: 'All Farmers' }).waitFor();
    await expect.poll(() => rows().count()).toBe(10);
    before = await count();
    const headers = (await page.locator('.ant-table-thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    expect(headers).toEqual(['Farmer name', 'Phone', 'Farmer id', 'Address', 'Number of farms', 'Total farm size', 'Actions']);
    await screenshot(page, 'p10-farmers-list');
    expect((await seriousA11yViolations(page)).map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    await chooseMenuItem(page, page.getByRole('button', { name: /New Farmer/ }), 'Create Single');
    const modal = await openedDialog(page, 'Create Farmer');
    // Nothing filled: the required fields say so, and nothing is sent.
    await modal.getByRole('button', { name: 'Create Farmer' }).click();
    await modal.getByText('Address is required').waitFor();
    await modal.getByLabel('First name').fill(FARMER.first);
    await modal.getByLabel('Last name').fill(FARMER.last);
    await modal.getByLabel('Email').fill(FARMER.email);
    await modal.getByLabel('Phone number').fill(FARMER.phone);
    await modal.getByLabel('Address').fill(FARMER.address);
    await screenshot(page, 'p11-farmer-create');
    await modal.getByRole('button', { name: 'Create Farmer' }).click();
    await toast('Farmer created successfully').waitFor();
    await modal.waitFor({ state: 'hidden' });
    await expect.poll(count).toBe(before + 1);
  });

  it('opens the farmer drawer from the row (?farmer_id&view=list), with no farm yet', async () => {
    await openList(page, '/admin/farmers', 'All Farmers');
    await searchFor('Search all farmers', FARMER.last, 1);
    await row(name).locator('td').nth(1).click();
    await page.waitForURL(/farmer_id=[0-9a-f-]{36}&view=list/);
    farmerId = new URL(page.url()).searchParams.get('farmer_id')!;
    const drawer = page.getByTestId('farmer-drawer');
    await drawer.waitFor();
    const profile = await page.getByTestId('farmer-profile').innerText();
    expect(profile).toContain("Farmer's id");
    expect(profile).toContain(FARMER.address);
    expect(profile).toContain(FARMER.email);
    await drawer.getByText('This farmer has no mapped farmland yet.').waitFor();
    await screenshot(page, 'p12-farmer-drawer-empty');
  });

  it('shows the farm the field captured, opens its farm drawer, and both drawers survive a reload', async () => {
    // The field captures a farm for the farmer, as a tenant's own app does with its SDK license key.
    // Encrypted as the console's own calls are (the suite's server requires it); the SDK speaks the same scheme.
    const api = await consoleApi(page);
    // Keys are stored hashed; the demo's were written once to the data directory when it was seeded.
    const keys = JSON.parse(fs.readFileSync(path.join(inject('dataDir'), 'demo-license-keys.json'), 'utf8')) as Array<{ type: string; key: string }>;
    const sdkKey = keys.find((k) => k.type === 'SDK')!.key;
    const captured = await api.call(
      'POST',
      '/api/farms/',
      {
        farmer_id: farmerId,
        name: `Bayo Farm ${TAG}`,
        coordinates: JSON.parse(ring(3.95, 7.95, 0.002)),
        time_taken_to_map: '00:12:30',
        gps_device_id: 'GPS-E2E',
      },
      { auth: false, headers: { 'x-license-key': sdkKey } },
    );
    expect(captured.status).toBe(201);

    // A known address: the drawer of the farmer, as the previous test left it (and as a reload shows it).
    await page.goto(`/admin/farmers?farmer_id=${farmerId}&view=list`);
    const drawer = page.getByTestId('farmer-drawer');
    await drawer.waitFor();
    await expect.poll(() => page.getByTestId('farm-card').count()).toBe(1);
    expect(await page.getByTestId('farm-card').innerText()).toContain(`Bayo Farm ${TAG}`);
    await screenshot(page, 'p13-farmer-drawer-farms');

    await page.getByRole('button', { name: `View Bayo Farm ${TAG}` }).click();
    await page.waitForURL(/farm_id=[0-9a-f-]{36}/);
    const farm = page.getByTestId('farm-drawer');
    await farm.waitFor();
    await waitUntilStill(page, page.locator('.ant-drawer-content-wrapper').filter({ has: farm }));
    expect(await page.getByTestId('farm-points').locator('.ant-table-row').count()).toBeGreaterThanOrEqual(4);
    const facts = await page.getByTestId('farm-facts').innerText();
    expect(facts).toMatch(/Farm size\s+[\d.]+ ha/);
    expect(facts).toMatch(/Area\s+[\d,.]+ sqm/);
    expect(await farm.innerText()).toContain('Snapshots');
    await farm.getByRole('button', { name: 'View map' }).click();
    await waitForMap(page, 'farm-drawer-map');
    await screenshot(page, 'p14-farm-drawer');

    const url = page.url();
    await page.reload();
    await page.getByTestId('farm-drawer').waitFor();
    await page.getByTestId('farmer-drawer').waitFor({ state: 'attached' });
    expect(page.url()).toBe(url);
    expect(
      await page
        .locator('.ant-drawer')
        .filter({ has: page.getByTestId('farm-drawer') })
        .locator('.ant-drawer-title')
        .innerText(),
    ).toBe(`Bayo Farm ${TAG}`);
    await screenshot(page, 'p15-farm-drawer-after-reload');

    await waitUntilStill(page, page.locator('.ant-drawer-content-wrapper').filter({ has: page.getByTestId('farm-drawer') }));
    await page.getByTestId('farm-drawer').getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('farm-drawer').waitFor({ state: 'hidden' });
    expect(new URL(page.url()).searchParams.get('farm_id')).toBeNull();
    await page.getByRole('tab', { name: 'Map View' }).click();
    await waitForMap(page, 'farmer-map');
    expect(new URL(page.url()).searchParams.get('view')).toBe('map');
    await chooseMenuItem(page, page.getByRole('button', { name: /Select farm/ }), `Bayo Farm ${TAG}`);
    await page.waitForURL((u) => /^7\.95/.test(u.searchParams.get('lat') ?? ''));
    await screenshot(page, 'p16-farmer-map-view');

    await closeDrawer(page, page.getByTestId('farmer-drawer'));
    await page.waitForURL((u) => u.pathname === '/admin/farmers' && u.search === '');
  });

  it('bulk-uploads 5 good and 3 bad rows, corrects the 3 in the table and re-sends them: the count rises by 8', async () => {
    await openList(page, '/admin/farmers', 'All Farmers');
    await expect.poll(() => rows().count()).toBe(10);
    const start = await count();
    await chooseMenuItem(page, page.getByRole('button', { name: /New Farmer/ }), 'Bulk Upload');
    const modal = await openedDialog(page, 'Bulk Upload Farmers');
    const template = page.waitForEvent('download');
    await modal.getByRole('button', { name: 'Download Template' }).click();
    expect((await template).suggestedFilename()).toBe('farmers-template.csv');
    await screenshot(page, 'p20-bulk-upload');

    await page
      .getByTestId('farmers-bulk-upload-zone')
      .locator('input[type=file]')
      .setInputFiles({ name: 'farmers.csv', mimeType: 'text/csv', buffer: Buffer.from(BULK_CSV) });
    await page.getByTestId('farmers-bulk-upload-zone-file').waitFor();
    await modal.getByRole('button', { name: 'Upload' }).click();
    const table = page.getByTestId('farmers-bulk-upload-failed-rows');
    await table.waitFor();
    expect(await table.locator('.ant-table-row').count()).toBe(3);
    expect(await modal.innerText()).toContain('Please note only columns required for creation are shown');
    expect(await page.getByTestId('farmers-bulk-upload-summary').innerText()).toContain('5 created so far; 3 rows need correcting.');
    await expect.poll(count).toBe(start + 5);

    // Each failed cell tells its first error on hover; valid cells have a green tick.
    const reason = async (label: string, expected: string, shot?: string) => {
      const icon = modal.getByRole('img', { name: label, exact: true });
      await icon.hover();
      await expect.poll(async () => (await page.locator('.ant-tooltip:visible').allInnerTexts()).map((t) => t.trim())).toContainEqual(expected);
      expect(await icon.getAttribute('data-error')).toBe(expected);
      if (shot) await screenshot(page, shot);
      await page.mouse.move(0, 0);
    };
    await reason('Why file row 7 email failed', 'Enter a valid email address');
    await reason('Why file row 8 last_name failed', 'Last name is required', 'p21-bulk-failed-rows-hover');
    await reason('Why file row 8 gender failed', 'Gender must be Male or Female');
    const coords = await modal.getByRole('img', { name: 'Why file row 9 farm_coordinates failed', exact: true }).getAttribute('data-error');
    expect(coords).toMatch(/3/);
    await reason('Why file row 9 farm_coordinates failed', coords!);
    expect(await modal.getByRole('img', { name: 'File row 7 first_name valid' }).count()).toBe(1);
    // 3 failed rows × 13 columns (the farmer's, the farm's and its point-plot pair), 4 of them invalid.
    expect(await modal.getByRole('img', { name: /valid$/ }).count()).toBe(3 * 13 - 4);
    await screenshot(page, 'p21-bulk-failed-rows');

    // Closing while rows are left asks first (Close and Escape alike); Keep editing returns to the table as it was.
    for (const how of ['button', 'escape'] as const) {
      if (how === 'button') await modal.locator('.ant-modal-footer').getByRole('button', { name: 'Close', exact: true }).click();
      else await page.keyboard.press('Escape');
      const ask = await openedDialog(page, 'Discard 3 failed rows?');
      expect(await ask.getByTestId('farmers-bulk-upload-discard-text').innerText()).toBe(
        '3 rows have not been created. If you close now, they are discarded with your changes in the table; to add them later, upload them again from your file.',
      );
      if (how === 'button') await screenshot(page, 'p21b-bulk-discard-confirm');
      await ask.getByRole('button', { name: 'Keep editing' }).click();
      await ask.waitFor({ state: 'hidden' });
      expect(await table.locator('.ant-table-row').count()).toBe(3);
    }

    await modal.getByLabel('File row 7 email', { exact: true }).fill(`tola.${TAG}@example.com`);
    await modal.getByLabel('File row 8 last_name', { exact: true }).fill('Ibe');
    await modal.getByLabel('File row 8 gender', { exact: true }).fill('Male');
    await modal.getByLabel('File row 9 farm_coordinates', { exact: true }).fill(ring(3.92, 7.92));
    expect(await modal.getByRole('img', { name: /failed$/ }).count()).toBe(0);
    await screenshot(page, 'p22-bulk-fixed-rows');
    await modal.getByRole('button', { name: 'Submit fixed rows (3)' }).click();
    await toast('Bulk upload successful').waitFor();
    await modal.waitFor({ state: 'hidden' });
    await expect.poll(count).toBe(start + 8);

    // A corrected row landed with its farm; a farmer uploaded without an email shows '--'.
    await searchFor('Search all farmers', `BU-${TAG}-8`);
    await expect.poll(async () => (await rows().allInnerTexts()).join(' ')).toContain('Zara Gana');
    await searchFor('Search all farmers', `BU-${TAG}-2`);
    await expect.poll(async () => (await rows().allInnerTexts()).join(' ')).toContain('Sola Bello');
    await row('Sola Bello').locator('td').nth(1).click();
    await page.getByTestId('farmer-profile').waitFor();
    expect(await page.getByTestId('farmer-profile').innerText()).toMatch(/Email\s+--/);
    await closeDrawer(page, page.getByTestId('farmer-drawer'));
  });

  it('edits a farmer from the row menu', async () => {
    await openList(page, '/admin/farmers', 'All Farmers');
    await searchFor('Search all farmers', FARMER.last, 1);
    await rowMenu(name, 'Edit Farmer');
    const modal = await openedDialog(page, 'Edit Farmer');
    await expect.poll(() => modal.getByLabel('Address').inputValue()).toBe(FARMER.address);
    await modal.getByLabel('Address').fill('9 New Road, Ogbomosho');
    await modal.getByRole('button', { name: 'Save changes' }).click();
    await toast('Farmer edited successfully').waitFor();
    await modal.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await row(name).innerText()).includes('9 New Road')).toBe(true);
  });

  it('filters by status in the Filter modal (applied on Apply Filter, cleared by Reset)', async () => {
    await openList(page, '/admin/farmers', 'All Farmers');
    await expect.poll(() => rows().count()).toBe(10);
    const all = await count();
    await page.getByRole('button', { name: /^Filter/ }).click();
    const modal = await openedDialog(page, 'Filter');
    const apply = modal.getByRole('button', { name: 'Apply Filter' });
    expect(await apply.isDisabled()).toBe(true);
    await chooseOption(page, modal.getByLabel('Status'), /^Unmapped$/);
    await expect.poll(() => apply.isEnabled()).toBe(true);
    await screenshot(page, 'p23-farmers-filter');
    await apply.click();
    await modal.waitFor({ state: 'hidden' });
    await expect.poll(count).toBeLessThan(all);
    const unmapped = await count();
    expect(unmapped).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Filter (1)' }).click();
    const again = await openedDialog(page, 'Filter');
    await again.getByRole('button', { name: 'Reset' }).click();
    await again.waitFor({ state: 'hidden' });
    await expect.poll(count).toBe(all);
  });

  it("refuses to delete a farmer with farms alone, then deletes it with its farms after the spec's confirmation", async () => {
    await openList(page, '/admin/farmers', 'All Farmers');
    await expect.poll(() => rows().count()).toBe(10);
    const total = await count();
    await searchFor('Search all farmers', FARMER.last, 1);
    await rowMenu(name, 'Delete Farmer');
    const del = await openedDialog(page, 'Delete Farmer');
    expect(await del.innerText()).toContain('Are you sure you want to delete this farmer? This action cannot be undone.');
    expect(await del.getByTestId('farmer-has-farms').innerText()).toContain('has 1 mapped farm');
    expect(await del.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    await del.getByText("Also delete this farmer's 1 farm").click();
    await screenshot(page, 'p24-farmer-delete-confirm');
    await del.getByRole('button', { name: 'Delete farmer and farms' }).click();
    await toast('Farmer and 1 farm deleted successfully').waitFor();
    await del.waitFor({ state: 'hidden' });
    await page.getByText('No farmers match your search or filters').waitFor();
    await page.getByLabel('Search all farmers').fill('');
    await expect.poll(count).toBe(total - 1);
  });

  it('exports the farmers list (farmers.csv with the visible columns, farmer_name as first and last name)', async () => {
    await openList(page, '/admin/farmers', 'All Farmers');
    await expect.poll(() => rows().count()).toBe(10);
    const total = await count();
    const { name: file, lines } = await downloadCsv('Export Table');
    expect(file).toBe('farmers.csv');
    expect(lines[0]).toBe("First name,Last name,Phone,Farmer's id,Address,Number of farms,Total farm size (sqm)");
    expect(lines.length - 1).toBe(total);
    expect(s.errors).toEqual([]);
  });
});
