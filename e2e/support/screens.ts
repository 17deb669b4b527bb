// Every screen of the two console areas, for the checks that walk them all (axe, the phone layout): the list pages by
// their path, the detail pages through an id the API gives (a tenant, an analysis), and a wait until a screen has
// finished loading (no spinner, no skeleton, no request in flight, maps drawn).
import type { Page } from 'playwright-core';
import { consoleApi } from './api';
import { motionsSettled } from './ui';

export type Screen = { name: string; path: string };

export const PROVIDER_SCREENS: Screen[] = [
  { name: 'provider dashboard', path: '/super-admin/dashboard' },
  { name: 'tenants', path: '/super-admin/tenant' },
  { name: 'licenses', path: '/super-admin/license' },
  { name: 'provider farmlands', path: '/super-admin/farmlands' },
  { name: 'provider reports', path: '/super-admin/reports' },
  { name: 'provider activity log', path: '/super-admin/activity-log' },
  { name: 'provider profile', path: '/super-admin/profile' },
  { name: 'provider not found', path: '/super-admin/no-such-page' },
];

export const TENANT_SCREENS: Screen[] = [
  { name: 'tenant dashboard', path: '/admin/dashboard' },
  { name: 'farmers', path: '/admin/farmers' },
  { name: 'agents', path: '/admin/agents' },
  { name: 'farmlands', path: '/admin/mapping' },
  { name: 'operational areas', path: '/admin/operational-areas' },
  { name: 'tenant reports', path: '/admin/reports' },
  { name: 'custom farm analysis', path: '/admin/farm-analysis' },
  { name: 'configurations', path: '/admin/configurations' },
  { name: 'tenant activity log', path: '/admin/activity-log' },
  { name: 'tenant profile', path: '/admin/profile' },
];

/** The provider's detail screens: the first tenant's page. */
export async function providerDetailScreens(page: Page): Promise<Screen[]> {
  const tenants = (await (await consoleApi(page)).get('/api/base/tenants/?page_size=1')) as { results: { uuid: string }[] };
  const first = tenants.results[0];
  return first ? [{ name: 'tenant details', path: `/super-admin/tenant/${first.uuid}` }] : [];
}

/** The tenant's detail screens: the newest finished analysis's result page, when there is one. */
export async function tenantDetailScreens(page: Page): Promise<Screen[]> {
  const list = (await (await consoleApi(page)).get('/api/custom-analysis/?page_size=20')) as { results: { id: string; status?: string }[] };
  const done = list.results.find((a) => a.status === undefined || /complete|done|finished|success/i.test(a.status)) ?? list.results[0];
  return done ? [{ name: 'analysis result', path: `/admin/farm-analysis/${done.id}` }] : [];
}

/** Waits until the screen has loaded: no request in flight, no spinner or skeleton, every map drawn, motions over. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () =>
      !document.querySelector('.ant-spin-spinning, .ant-skeleton-active, [aria-busy="true"]') &&
      Array.from(document.querySelectorAll('[data-testid$="-map"], [data-testid="farm-map"]')).every((el) => el.getAttribute('data-ready') !== 'false'),
    undefined,
    { timeout: 30_000 },
  );
  await page.waitForLoadState('networkidle');
  await motionsSettled(page).catch(() => undefined);
}

/** Opens a screen by its path (a full load, as a bookmark would) and waits until it has loaded. */
export async function visit(page: Page, screen: Screen): Promise<void> {
  await page.goto(screen.path);
  await page.waitForURL((u) => u.pathname === screen.path);
  await settle(page);
}
