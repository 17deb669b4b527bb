// The provider console in a real browser: the activity log (search, filter modal, columns, export, details drawer,
// selection; axe-checked), the profile (an edit that persists, a photo upload), the sidebar collapse, role guards,
// not-found pages.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createAdminLink } from './support/app';
import { launchBrowser, openPage, screenshot, seriousA11yViolations, type Session } from './support/browser';
import { chooseMenuItem, chooseOption, closeMenu } from './support/ui';

const server = { dataDir: inject('dataDir'), appSecret: inject('appSecret') };
const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;
let page: Page;

const rows = () => page.locator('.ant-table-tbody tr.ant-table-row');
const columnTexts = async (index: number) => rows().locator(`td:nth-child(${index})`).allInnerTexts();
const headerTexts = async () => (await page.locator('.ant-table-thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
/** Cells under a header; the first td is the selection checkbox. */
const column = async (title: string) => columnTexts((await headerTexts()).indexOf(title) + 2);
const countBadge = async () => Number((await page.getByTestId('count-badge').innerText()).replace(/,/g, ''));
const ddmmyyyy = (d: Date) => `${String(d.getDate()).padStart(2, '0')}/${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`;

beforeAll(async () => {
  browser = await launchBrowser();
  s = await openPage(browser, baseUrl);
  page = s.page;
  await page.goto(`/?q=${createAdminLink(server)}`);
  await page.waitForURL(/\/super-admin\/dashboard$/);
});
afterAll(async () => {
  await browser?.close();
});

describe('provider console', () => {
  it('lists the activity log with the spec columns and a page size of 30, and passes axe', async () => {
    await page.getByTestId('sidebar').getByRole('link', { name: 'Activity Log' }).click();
    await page.waitForURL(/\/super-admin\/activity-log$/);
    await expect.poll(() => rows().count()).toBe(30);
    expect(await headerTexts()).toEqual(['User', 'Role', 'Description', 'Platform', 'Country', 'Timestamp']);
    expect(await countBadge()).toBeGreaterThan(300);
    await page.getByText('30 / page').waitFor();
    await screenshot(page, '22-provider-activity-log');
    const violations = await seriousA11yViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });

  it('searches (debounced) and every row matches', async () => {
    const before = await countBadge();
    await page.getByLabel('Search activity log').fill('farm boundary');
    await expect.poll(countBadge).toBeLessThan(before);
    const descriptions = await column('Description');
    expect(descriptions.length).toBeGreaterThan(0);
    for (const d of descriptions) expect(d).toContain('farm boundary');
    expect(new URL(page.url()).searchParams.get('search')).toBe('farm boundary');
    await screenshot(page, '23-activity-log-search');
  });

  it('filters by action and date range in the modal (Apply disabled until chosen; Reset clears)', async () => {
    await page.getByLabel('Search activity log').fill('');
    await expect.poll(countBadge).toBeGreaterThan(300);
    const all = await countBadge();
    await page.getByRole('button', { name: 'Filter' }).click();
    const modal = page.getByRole('dialog');
    await modal.getByText('Filter', { exact: true }).waitFor();
    expect(await modal.getByRole('button', { name: 'Apply Filter' }).isDisabled()).toBe(true);
    await chooseOption(page, modal.getByLabel('Action'), /Create/);
    expect(await modal.getByRole('button', { name: 'Apply Filter' }).isEnabled()).toBe(true);
    const from = new Date(Date.now() - 20 * 86_400_000);
    const to = new Date();
    await modal.locator('#filter-date').click();
    await modal.locator('#filter-date').fill(ddmmyyyy(from));
    await page.keyboard.press('Enter');
    await modal.locator('#filter-date-end').fill(ddmmyyyy(to));
    await page.keyboard.press('Enter');
    await screenshot(page, '24-activity-log-filter-modal');
    await modal.getByRole('button', { name: 'Apply Filter' }).click();
    await expect.poll(countBadge).toBeLessThan(all);
    await page.getByRole('button', { name: 'Filter (2)' }).waitFor();

    // Show the Action column through the column menu, and check every row is a Create within the range.
    await chooseMenuItem(page, page.getByRole('button', { name: 'Columns' }), 'Action', { keepOpen: true });
    await closeMenu(page);
    await expect.poll(headerTexts).toContain('Action');
    const actions = await column('Action');
    expect(actions.length).toBeGreaterThan(0);
    for (const a of actions) expect(a).toBe('Create');
    for (const t of await column('Timestamp')) {
      const [d, m, y] = t.slice(0, 10).split('/').map(Number);
      const day = new Date(y!, m! - 1, d);
      expect(day.getTime()).toBeGreaterThanOrEqual(new Date(from.getFullYear(), from.getMonth(), from.getDate()).getTime());
      // The console shows times in Africa/Lagos (UTC+1) while the date filter works on UTC days, so between 23:00 and
      // 24:00 UTC an entry of the range's last day shows the next date.
      expect(day.getTime()).toBeLessThanOrEqual(new Date(to.getFullYear(), to.getMonth(), to.getDate() + 1).getTime());
    }
    await screenshot(page, '25-activity-log-filtered');
  });

  it('exports the table as activity-logs.csv with the visible columns and the filters', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export table' }).click();
    await page.getByText('Exporting, please wait...').first().waitFor();
    const file = await download;
    expect(file.suggestedFilename()).toBe('activity-logs.csv');
    const csv = fs.readFileSync(await file.path(), 'utf8');
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('User,Role,Action,Description,Platform,Country,Timestamp');
    expect(lines.length - 1).toBe(await countBadge());
    for (const line of lines.slice(1)) expect(line.split(',')[2]).toBe('Create');
  });

  it('opens an entry in the side drawer, selects rows, and Reset clears the filters', async () => {
    await rows().first().locator('td').nth(4).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByText('Activity details').waitFor();
    await screenshot(page, '26-activity-details-drawer');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await rows().nth(0).locator('.ant-checkbox-input').check();
    await rows().nth(1).locator('.ant-checkbox-input').check();
    await page.getByText('2 selected').waitFor();
    await page.getByRole('button', { name: 'Filter (2)' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('button', { name: 'Filter', exact: true }).waitFor();
    await expect.poll(countBadge).toBeGreaterThan(300);
  });

  it('shows the empty state, and the error state with a toast when the list fails', async () => {
    await page.getByLabel('Search activity log').fill('no-such-entry-zzz');
    await page.getByText('No activity matches your search or filters').waitFor();
    await expect.poll(countBadge).toBe(0);
    await screenshot(page, '26a-activity-log-empty');
    const failing = '**/api/activity-logs/**';
    await page.route(failing, (r) =>
      r.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Something went wrong on our side. The error has been logged.', code: 'internal_error' }),
      }),
    );
    await page.getByLabel('Search activity log').fill('farm');
    await page.getByText('This list could not be loaded.').waitFor();
    await page.getByText('Something went wrong on our side. The error has been logged.').first().waitFor();
    await screenshot(page, '26b-activity-log-error');
    await page.unroute(failing);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => rows().count()).toBeGreaterThan(0);
    await page.getByLabel('Search activity log').fill('');
    await expect.poll(countBadge).toBeGreaterThan(300);
  });

  it('edits the profile in the three-step wizard, and the change persists after a reload', async () => {
    await page.getByRole('link', { name: 'Profile', exact: true }).first().click();
    await page.waitForURL(/\/super-admin\/profile$/);
    await expect.poll(() => page.getByTestId('profile-name').innerText()).toBe('Ada Okafor');
    await screenshot(page, '27-provider-profile');
    await page.getByRole('button', { name: 'Edit profile' }).click();
    const wizard = page.getByRole('dialog');
    expect(await wizard.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    await wizard.getByLabel('First name').fill('Adaeze');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByLabel('Phone number').fill('not a phone');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Enter a valid phone number').waitFor();
    await wizard.getByLabel('Phone number').fill('+234 803 000 1234');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Confirm Entries').first().waitFor();
    await screenshot(page, '28-edit-profile-confirm');
    await wizard.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Profile updated successfully').first().waitFor();
    await expect.poll(() => page.getByTestId('profile-name').innerText()).toBe('Adaeze Okafor');
    await page.reload();
    await expect.poll(() => page.getByTestId('profile-name').innerText()).toBe('Adaeze Okafor');
    await page.getByText('+234 803 000 1234').waitFor();
  });

  it('uploads a profile photo', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAJ0lEQVR42mNkYPhfz0AEYBxVSF+F/6kUMDIyMjIwMDAwMAwMAADvXQv9nG5qLQAAAABJRU5ErkJggg==',
      'base64',
    );
    await page.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page.getByText('Profile image updated successfully').first().waitFor();
    await expect.poll(() => page.locator('img[alt^="Photo of"]').count()).toBe(1);
    await screenshot(page, '29-profile-photo');
  });

  it('collapses the sidebar from 200 px to 80 px and back', async () => {
    const width = async () => (await page.getByTestId('sidebar').boundingBox())?.width;
    expect(await width()).toBe(200);
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect.poll(width).toBe(80);
    await screenshot(page, '30-sidebar-collapsed');
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect.poll(width).toBe(200);
  });

  it('opens a provider screen from the sidebar, a not-found page inside the frame, and guards roles', async () => {
    await page.getByTestId('sidebar').getByRole('link', { name: 'Tenant' }).click();
    await page.waitForURL(/\/super-admin\/tenant$/);
    await page.getByRole('heading', { name: 'All Tenants' }).waitFor();
    await page.goto('/super-admin/no-such-screen');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.getByTestId('sidebar').isVisible()).toBe(true);
    await screenshot(page, '32-not-found-in-frame');
    await page.goto('/admin/dashboard');
    await page.waitForURL(/\/super-admin\/dashboard$/);
  });

  it('searches tenants from the header and opens the one picked (issue 33: it used to open the activity log)', async () => {
    await page.getByRole('search').getByLabel('Search tenants and farms', { exact: true }).fill('Green Harvest');
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Green Harvest SDK Ltd' }).first();
    await option.waitFor();
    await option.click();
    await page.waitForURL(/\/super-admin\/tenant\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Green Harvest SDK Ltd' }).waitFor();
  });

  it('raised no uncaught errors in the page', () => {
    expect(s.errors).toEqual([]);
  });
});
