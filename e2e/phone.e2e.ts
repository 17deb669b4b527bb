// The console on a phone (issue 33, item 15), at 390 x 844: no screen of either area scrolls sideways
// (document.documentElement.scrollWidth <= 390), the sidebar is a drawer behind a hamburger in the header that opens
// and navigates, the header fits, a wide table scrolls inside its card, and dialogs and drawers take the full width.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ACCOUNTS, createAdminLink, signIn } from './support/app';
import { launchBrowser, openPage, screenshot } from './support/browser';
import { PROVIDER_SCREENS, TENANT_SCREENS, providerDetailScreens, settle, tenantDetailScreens, visit, type Screen, WALK_TIMEOUT_MS } from './support/screens';
import { waitUntilStill } from './support/ui';

const server = { dataDir: inject('dataDir'), appSecret: inject('appSecret') };
const baseUrl = inject('baseUrl');
const PHONE = { width: 390, height: 844 };
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** Every screen: no sideways scroll, no sidebar in the page, the header's last item (the avatar) inside the screen. */
async function walk(page: Page, screens: Screen[]): Promise<Record<string, number>> {
  const wide: Record<string, number> = {};
  for (const screen of screens) {
    await visit(page, screen);
    await screenshot(page, `phone-${screen.name.replace(/\W+/g, '-')}`);
    const width = await scrollWidth(page);
    if (width > PHONE.width) wide[screen.name] = width;
    expect(await page.locator('.ant-layout-sider').count(), screen.name).toBe(0);
    const avatar = await page.locator('header').getByTitle('Profile').boundingBox();
    expect(avatar && avatar.x + avatar.width <= PHONE.width, `${screen.name}: the header's avatar is on screen`).toBe(true);
  }
  return wide;
}

/** Opens the navigation drawer with the hamburger and follows one of its links. */
async function navigateWithDrawer(page: Page, label: string, path: RegExp): Promise<void> {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.locator('.console-nav-drawer .ant-drawer-content-wrapper');
  await waitUntilStill(page, drawer);
  await screenshot(page, `phone-drawer-${label.replace(/\W+/g, '-')}`);
  await drawer.getByRole('link', { name: label, exact: true }).click();
  await page.waitForURL(path);
  await drawer.waitFor({ state: 'hidden' });
  await settle(page);
}

describe('the console at 390 x 844', () => {
  it(
    'the provider area fits every screen, and its drawer opens and navigates',
    async () => {
      const { page, context, errors } = await openPage(browser, baseUrl, PHONE);
      await page.goto(`/?q=${createAdminLink(server)}`);
      await page.waitForURL(/\/super-admin\/dashboard$/);
      const wide = await walk(page, [...PROVIDER_SCREENS, ...(await providerDetailScreens(page))]);
      expect(wide).toEqual({});

      await visit(page, PROVIDER_SCREENS[0]!);
      await navigateWithDrawer(page, 'License', /\/super-admin\/license$/);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // The list's table is wider than the phone: it scrolls inside its card, not the page.
      const table = page.locator('.ant-table-content').first();
      expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
      expect(errors).toEqual([]);
      await context.close();
    },
    WALK_TIMEOUT_MS,
  );

  it(
    'the tenant area fits every screen; its drawer navigates; a dialog and a drawer take the full width',
    async () => {
      const { page, context, errors } = await openPage(browser, baseUrl, PHONE);
      await signIn(page, ACCOUNTS.adminB);
      const wide = await walk(page, [...TENANT_SCREENS, ...(await tenantDetailScreens(page))]);
      expect(wide).toEqual({});

      await visit(page, TENANT_SCREENS[0]!);
      await navigateWithDrawer(page, 'Farmers', /\/admin\/farmers$/);
      // A dialog: the list's Filter.
      await page.getByRole('button', { name: 'Filter' }).click();
      const modal = page.locator('.ant-modal').filter({ hasText: 'Filter' });
      await waitUntilStill(page, modal);
      expect((await modal.boundingBox())?.width).toBe(PHONE.width);
      await screenshot(page, 'phone-filter-modal');
      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'hidden' });
      // A drawer: the first farmer's details.
      await page.locator('.ant-table-tbody tr.ant-table-row').first().locator('td').nth(1).click();
      const drawer = page.locator('.ant-drawer:not(.console-nav-drawer) .ant-drawer-content-wrapper');
      await waitUntilStill(page, drawer);
      expect((await drawer.boundingBox())?.width).toBe(PHONE.width);
      await screenshot(page, 'phone-farmer-drawer');
      expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
      expect(errors).toEqual([]);
      await context.close();
    },
    WALK_TIMEOUT_MS,
  );
});
