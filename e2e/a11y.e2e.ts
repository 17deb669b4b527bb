// Accessibility of every console screen (issue 33, item 14): axe-core (WCAG 2.1 A and AA and best practices) finds no
// violation of any impact (the issue asks for 0 serious and 0 moderate; the minor ones, such as empty table headers,
// are held at 0 too) on any screen of the provider area or the tenant area, each with its page heading (one h1).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ACCOUNTS, createAdminLink, signIn } from './support/app';
import { a11yViolations, launchBrowser, openPage, screenshot, type Session } from './support/browser';
import { PROVIDER_SCREENS, TENANT_SCREENS, providerDetailScreens, tenantDetailScreens, visit, type Screen, WALK_TIMEOUT_MS } from './support/screens';

const server = { dataDir: inject('dataDir'), appSecret: inject('appSecret') };
const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function check(s: Session, screens: Screen[]): Promise<Record<string, unknown>> {
  const found: Record<string, unknown> = {};
  for (const screen of screens) {
    await visit(s.page, screen);
    await screenshot(s.page, `a11y-${screen.name.replace(/\W+/g, '-')}`);
    const violations = await a11yViolations(s.page);
    const h1 = await s.page.locator('main h1').count();
    if (violations.length > 0 || h1 !== 1) found[screen.name] = { h1, violations };
  }
  return found;
}

describe('accessibility of every screen', () => {
  it(
    'the provider area: no axe violation at all, one h1 per screen',
    async () => {
      const s = await openPage(browser, baseUrl);
      await s.page.goto(`/?q=${createAdminLink(server)}`);
      await s.page.waitForURL(/\/super-admin\/dashboard$/);
      const screens = [...PROVIDER_SCREENS, ...(await providerDetailScreens(s.page))];
      expect(screens.length).toBe(PROVIDER_SCREENS.length + 1);
      const found = await check(s, screens);
      expect(found, JSON.stringify(found, null, 2)).toEqual({});
      expect(s.errors).toEqual([]);
      await s.context.close();
    },
    WALK_TIMEOUT_MS,
  );

  it(
    'the tenant area: no axe violation at all, one h1 per screen',
    async () => {
      const s = await openPage(browser, baseUrl);
      await signIn(s.page, ACCOUNTS.adminB);
      const screens = [...TENANT_SCREENS, ...(await tenantDetailScreens(s.page))];
      const found = await check(s, screens);
      expect(found, JSON.stringify(found, null, 2)).toEqual({});
      expect(s.errors).toEqual([]);
      await s.context.close();
    },
    WALK_TIMEOUT_MS,
  );
});
