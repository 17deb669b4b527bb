// The console in French (issue 30, item 3): the language is chosen in Profile, remembered on the device (after a
// reload too, with <html lang="fr">), and then every screen of the console shows no English outside names and data.
// The screens are the router's (apps/web/src/app/router.tsx), which are the spec's screens of both areas
// (docs/requirements.md §2: the provider's dashboard, tenants, tenant details, licenses, farmlands, reports, activity
// log and profile; the tenant's dashboard, farmers, agents, farmlands, operational areas, reports, custom farm
// analysis, configurations, activity log and profile) with the ones added since (reference layers, an analysis's
// result, the in-frame not-found page), and the sign-in page. Each is photographed into e2e/artifacts (i18n-fr-*.png).
// English is found by the heuristic of support/english.ts (a catalogue text whose French differs, or an English
// function word outside names and data, which are marked translate="no"); the failure lists, per screen, what was found.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ACCOUNTS, createAdminLink, signIn } from './support/app';
import { launchBrowser, openPage, screenshot } from './support/browser';
import { englishCatalogueTexts, englishOnPage, type EnglishFound } from './support/english';
import { PROVIDER_SCREENS, TENANT_SCREENS, providerDetailScreens, settle, tenantDetailScreens, visit, type Screen, WALK_TIMEOUT_MS } from './support/screens';

const server = { dataDir: inject('dataDir'), appSecret: inject('appSecret') };
const baseUrl = inject('baseUrl');
let browser: Browser;
const catalogue = englishCatalogueTexts();

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Chooses Français in Profile (the page reloads in French) and checks the choice holds after another reload. */
async function chooseFrench(page: Page, profilePath: string): Promise<void> {
  await visit(page, { name: 'profile', path: profilePath });
  // Choosing reloads the page (every text is built in one language): the select is gone once the choice is made.
  await page.getByLabel('Language').click();
  const option = page.locator('.ant-select-item-option').filter({ hasText: 'Français' });
  await option.waitFor();
  const reloaded = page.waitForNavigation({ waitUntil: 'load' });
  await option.click();
  await reloaded;
  await settle(page);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
  await page.getByRole('heading', { level: 1, name: 'Profil' }).waitFor();
  await page.reload();
  await settle(page);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
  expect(await page.evaluate(() => localStorage.getItem('farmland.locale'))).toBe('fr');
  await page.getByRole('heading', { level: 1, name: 'Profil' }).waitFor();
  expect(await page.getByTestId('profile-language').innerText()).toContain('Français');
}

/** Visits each screen, photographs it and returns the English found, by screen (empty when none). */
async function walk(page: Page, screens: readonly Screen[]): Promise<Record<string, EnglishFound[]>> {
  const found: Record<string, EnglishFound[]> = {};
  for (const screen of screens) {
    await visit(page, screen);
    await screenshot(page, `i18n-fr-${screen.name.replace(/\W+/g, '-')}`);
    const english = await englishOnPage(page, catalogue);
    if (english.length > 0) found[screen.name] = english;
  }
  return found;
}

const report = (found: Record<string, EnglishFound[]>) =>
  Object.entries(found)
    .map(([screen, list]) => `${screen}:\n${list.map((f) => `  - "${f.text}" (${f.why}; ${f.where})`).join('\n')}`)
    .join('\n');

describe('the console in French', () => {
  it('reads the English catalogue to compare with', () => {
    // The heuristic has something to look for: the catalogue's texts, and the sidebar's among them.
    expect(catalogue.length).toBeGreaterThan(100);
    expect(catalogue).toContain('Dashboard');
  });

  it(
    'the provider area and the sign-in page: French chosen in Profile and remembered; no English on any screen',
    async () => {
      const s = await openPage(browser, baseUrl);
      await s.page.goto(`/?q=${createAdminLink(server)}`);
      await s.page.waitForURL(/\/super-admin\/dashboard$/);
      await chooseFrench(s.page, '/super-admin/profile');
      const screens = [...PROVIDER_SCREENS, ...(await providerDetailScreens(s.page))];
      const found = await walk(s.page, screens);
      // Signing out keeps the language: the sign-in page is in French too.
      await s.page.getByRole('button', { name: 'Déconnexion' }).click();
      await s.page.waitForURL(/\/login$/);
      await settle(s.page);
      expect(await s.page.evaluate(() => document.documentElement.lang)).toBe('fr');
      await screenshot(s.page, 'i18n-fr-sign-in');
      const signInEnglish = await englishOnPage(s.page, catalogue);
      if (signInEnglish.length > 0) found['sign in'] = signInEnglish;
      expect(found, `English on French screens:\n${report(found)}`).toEqual({});
      expect(s.errors).toEqual([]);
      await s.context.close();
    },
    WALK_TIMEOUT_MS,
  );

  it(
    'the tenant area: French chosen in Profile and remembered; no English on any screen',
    async () => {
      const s = await openPage(browser, baseUrl);
      await signIn(s.page, ACCOUNTS.adminA);
      await chooseFrench(s.page, '/admin/profile');
      const screens = [...TENANT_SCREENS, ...(await tenantDetailScreens(s.page))];
      const found = await walk(s.page, screens);
      expect(found, `English on French screens:\n${report(found)}`).toEqual({});
      expect(s.errors).toEqual([]);
      await s.context.close();
    },
    WALK_TIMEOUT_MS,
  );
});
