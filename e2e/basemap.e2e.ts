// The basemap in a real browser (issue 33, item 17), as a demo tenant admin: the Farmlands map draws on the offline
// reference map with labelled places (country and town names, drawn from the browser's fonts: no glyph server) and
// rivers and lakes, with the
// tenant's operational areas as labelled outlines; and, when MAP_STYLE_URL names a satellite style, a switch chooses
// between it and the reference map and keeps the farms and outlines on either.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ACCOUNTS, signIn } from './support/app';
import { consoleApi } from './support/api';
import { launchBrowser, openPage, screenshot, type Session } from './support/browser';
import { waitForMap } from './support/map';

const baseUrl = inject('baseUrl');
let browser: Browser;
let s: Session;
let page: Page;

type Rendered = { layer: string; name: string };

/** The features MapLibre drew on the given layers (queryRenderedFeatures over the whole view), once the map is idle. */
async function rendered(layers: string[]): Promise<Rendered[]> {
  await waitForMap(page);
  return page.evaluate((ids) => {
    const el = document.querySelector('[data-testid="farm-map"]') as HTMLElement & {
      __map: { getLayer(id: string): unknown; queryRenderedFeatures(o: object): Array<{ layer: { id: string }; properties: Record<string, unknown> }> };
    };
    const present = ids.filter((id) => el.__map.getLayer(id));
    return el.__map.queryRenderedFeatures({ layers: present }).map((f) => ({ layer: f.layer.id, name: String(f.properties['name'] ?? '') }));
  }, layers);
}

/** Moves the map and waits until it has drawn the new view. */
async function view(center: [number, number], zoom: number): Promise<void> {
  await page.evaluate(
    ({ c, z }) =>
      new Promise<void>((resolve) => {
        const el = document.querySelector('[data-testid="farm-map"]') as HTMLElement & {
          __map: { jumpTo(o: object): void; once(e: string, cb: () => void): void };
        };
        el.__map.once('idle', () => resolve());
        el.__map.jumpTo({ center: c, zoom: z });
      }),
    { c: center, z: zoom },
  );
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

describe('the basemap', () => {
  it('the Farmlands map shows labelled places and the operational areas as labelled outlines, offline', async () => {
    const areas = (await (await consoleApi(page)).get('/api/operational-areas/?page_size=100')) as {
      results: Array<{ name: string; coordinates: [number, number][] }>;
    };
    expect(areas.results.length).toBeGreaterThan(0);
    await page.goto('/admin/mapping?view=map');
    await waitForMap(page);
    expect(await page.getByTestId('farm-map').getAttribute('data-basemap')).toBe('reference');
    await expect.poll(async () => Number(await page.getByTestId('farm-map').getAttribute('data-outlines'))).toBe(areas.results.length);

    // Centred on the first area at a zoom where the whole area shows.
    const ring = areas.results[0]!.coordinates;
    const lngs = ring.map((p) => p[0]);
    const lats = ring.map((p) => p[1]);
    await view([(Math.min(...lngs) + Math.max(...lngs)) / 2, (Math.min(...lats) + Math.max(...lats)) / 2], 10);
    const near = await rendered(['area-outlines-line', 'area-outlines-label']);
    expect(near.some((f) => f.layer === 'area-outlines-line' && f.name === areas.results[0]!.name)).toBe(true);
    expect(near.some((f) => f.layer === 'area-outlines-label')).toBe(true);
    await screenshot(page, 'basemap-area-outlines');

    // Zoomed out over West Africa: the country names are drawn (labels need no glyph server).
    await view([5, 9], 4.5);
    const places = await rendered(['country-labels']);
    const names = places.map((p) => p.name);
    expect(names).toContain('Nigeria');
    expect(names.length).toBeGreaterThan(3);
    // And Africa's major rivers (GSHHG), the Niger among them, and the large lakes (Natural Earth): Volta, Chad.
    expect((await rendered(['rivers'])).length).toBeGreaterThan(0);
    const lakeNames = (await rendered(['lakes'])).map((l) => l.name);
    expect(
      lakeNames.some((n) => n === 'Lake Volta' || n === 'Lake Chad'),
      lakeNames.join(', '),
    ).toBe(true);
    await screenshot(page, 'basemap-country-labels');

    // Closer, over south-west Nigeria: populated places with their names (Natural Earth), the largest ones among them.
    // (An operational area's name wins over a town's where they collide, so either of the two cities will do.)
    await view([3.6, 6.9], 7);
    const towns = (await rendered(['places-label'])).map((p) => p.name);
    expect(
      towns.some((t) => t === 'Lagos' || t === 'Ibadan'),
      towns.join(', '),
    ).toBe(true);
    expect(towns.length).toBeGreaterThan(5);
    await screenshot(page, 'basemap-places');
    expect(s.errors).toEqual([]);
  });

  it('with a satellite MAP_STYLE_URL, a switch chooses between it and the reference map, keeping the farms', async () => {
    // The deployment's config names a satellite style; the style itself is served beside the console (no internet here).
    await page.route('**/api/config', async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { data: Record<string, unknown> };
      await route.fulfill({ response: res, json: { ...body, data: { ...body.data, map_style_url: `${baseUrl}/e2e-satellite-style.json` } } });
    });
    await page.route('**/e2e-satellite-style.json', (route) =>
      route.fulfill({
        json: {
          version: 8,
          name: 'Satellite imagery',
          sources: {},
          layers: [{ id: 'imagery-background', type: 'background', paint: { 'background-color': '#33402f' } }],
        },
      }),
    );
    try {
      await page.goto('/admin/mapping?view=map');
      await waitForMap(page);
      const map = page.getByTestId('farm-map');
      expect(await map.getAttribute('data-basemap')).toBe('configured');
      const sw = page.getByRole('group', { name: 'Basemap' });
      await sw.getByRole('button', { name: 'Satellite' }).waitFor();
      expect(await sw.getByRole('button', { name: 'Satellite' }).getAttribute('aria-pressed')).toBe('true');
      const layersNow = () =>
        page.evaluate(() => {
          const el = document.querySelector('[data-testid="farm-map"]') as HTMLElement & { __map: { getStyle(): { layers: Array<{ id: string }> } } };
          return el.__map.getStyle().layers.map((l) => l.id);
        });
      expect(await layersNow()).toEqual(expect.arrayContaining(['imagery-background', 'farms-fill', 'area-outlines-line']));
      await screenshot(page, 'basemap-satellite');

      await sw.getByRole('button', { name: 'Reference' }).click();
      await expect.poll(() => map.getAttribute('data-basemap')).toBe('reference');
      await expect.poll(layersNow).toEqual(expect.arrayContaining(['country-labels', 'countries-fill', 'farms-fill', 'area-outlines-line']));
      expect(await layersNow()).not.toContain('imagery-background');
      expect((await rendered(['farms-fill', 'farms-markers', 'farms-clusters', 'farms-singles'])).length).toBeGreaterThan(0);
      await screenshot(page, 'basemap-switched-to-reference');

      await sw.getByRole('button', { name: 'Satellite' }).click();
      await expect.poll(layersNow).toEqual(expect.arrayContaining(['imagery-background', 'farms-fill']));
      expect(await layersNow()).not.toContain('country-labels');
    } finally {
      await page.unrouteAll();
    }
  });
});
