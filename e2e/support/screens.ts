// Every screen of the two console areas, for the checks that walk them all (axe, the phone layout): the list pages by
// their path, the detail pages through an id the API gives (a tenant, an analysis), and a wait until a screen has
// finished loading (no spinner, no skeleton, no request in flight, maps drawn).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { consoleApi } from './api';
import { motionsSettled } from './ui';

export type Screen = { name: string; path: string };

/**
 * The time allowed to one walk of an area: a dozen full page loads, each settled, after a sign-in (and, in the tenant
 * area, perhaps an analysis to finish). More than the suite's 90 s per test once the machine is loaded (seen at load
 * average 12: the tenant walk reached its last screens at 90 s). A ceiling, not a wait.
 */
export const WALK_TIMEOUT_MS = 300_000;

export const PROVIDER_SCREENS: Screen[] = [
  { name: 'provider dashboard', path: '/super-admin/dashboard' },
  { name: 'tenants', path: '/super-admin/tenant' },
  { name: 'licenses', path: '/super-admin/license' },
  { name: 'provider farmlands', path: '/super-admin/farmlands' },
  { name: 'provider reports', path: '/super-admin/reports' },
  { name: 'provider reference layers', path: '/super-admin/reference-layers' },
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
  { name: 'reference layers', path: '/admin/reference-layers' },
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

/**
 * The tenant's detail screens: a finished analysis's result page. When no other browser file has left one, a small
 * analysis is made and waited for (its state, not a clock), so the screen is always walked whatever order files run in.
 */
export async function tenantDetailScreens(page: Page): Promise<Screen[]> {
  const api = await consoleApi(page);
  const list = (await api.get('/api/custom-analysis/?page_size=20')) as { results: { id: string; status: string }[] };
  let id = list.results.find((a) => a.status === 'completed')?.id;
  if (!id) {
    const areas = (await api.get('/api/operational-areas/?page_size=100')) as { results: { id: string }[] };
    // Two ~110 m squares near Ibadan, 7 decimals, closed.
    const square = (x: number, y: number) => [
      [x, y],
      [x + 0.001, y],
      [x + 0.001, y + 0.001],
      [x, y + 0.001],
      [x, y],
    ];
    const created = await api.call('POST', '/api/custom-analysis/', {
      name: `E2E screens ${Date.now().toString(36)}`,
      operational_areas: areas.results.map((a) => a.id),
      minimum_farm_size: 1,
      require_farm_recognition: false,
      locations: [
        { farm_name: 'Screen plot 1', farm_coordinates: square(3.8012345, 7.6612345) },
        { farm_name: 'Screen plot 2', farm_coordinates: square(3.8052345, 7.6612345) },
      ],
    });
    if (created.status !== 201) throw new Error(`the screens' analysis was refused: ${JSON.stringify(created.body)}`);
    id = created.body.data.id as string;
    const made = id;
    await expect.poll(async () => ((await api.get(`/api/custom-analysis/${made}/`)) as { status: string }).status, { timeout: 60_000 }).toBe('completed');
  }
  return [{ name: 'analysis result', path: `/admin/farm-analysis/${id}` }];
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
