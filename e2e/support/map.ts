// Map helpers for the browser suite: wait until a MapLibre map (components/map) has drawn, and click a feature of a
// given category by projecting it to the screen (the map is a canvas, so there is no element to click).
import type { Page } from 'playwright-core';

type Picked = { x: number; y: number; id: string; name: string } | null;

/** Waits for the map in [data-testid=testId] to be ready, with its data drawn (MapLibre "idle"). */
export async function waitForMap(page: Page, testId = 'farm-map'): Promise<void> {
  await page.locator(`[data-testid="${testId}"][data-ready="true"]`).waitFor({ timeout: 30_000 });
  await page.evaluate(
    (id) =>
      new Promise<void>((resolve) => {
        const el = document.querySelector(`[data-testid="${id}"]`) as
          (HTMLElement & { __map?: { loaded(): boolean; areTilesLoaded(): boolean; once(e: string, cb: () => void): void } }) | null;
        const map = el?.__map;
        if (!map) return resolve();
        if (map.loaded() && map.areTilesLoaded()) return resolve();
        map.once('idle', () => resolve());
        setTimeout(resolve, 10_000);
      }),
    testId,
  );
}

/** Centres the map on a marker of the category, then clicks it. Returns the farm's id and name. */
export async function clickMarker(page: Page, testId: string, category: string, zoom = 17): Promise<{ id: string; name: string }> {
  return clickWhere(page, testId, 'category', category, zoom);
}

/** Centres the map on one farm's marker (by id), then clicks it. */
export async function clickFarmMarker(page: Page, testId: string, farmId: string, zoom = 17): Promise<{ id: string; name: string }> {
  return clickWhere(page, testId, 'id', farmId, zoom);
}

async function clickWhere(page: Page, testId: string, key: string, value: string, zoom: number): Promise<{ id: string; name: string }> {
  // The map may still be receiving its data: try for a few seconds.
  for (let i = 0; i < 20; i++) {
    const hit = await locateMarker(page, testId, key, value, zoom);
    if (hit) {
      await page.mouse.click(hit.x, hit.y);
      return { id: hit.id, name: hit.name };
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`no marker with ${key} ${value} on map ${testId}`);
}

async function locateMarker(page: Page, testId: string, key: string, value: string, zoom: number): Promise<Picked> {
  return page.evaluate(
    async ({ id, k, v, z }) => {
      type M = {
        getSource(
          s: string,
        ):
          | { getData(): Promise<{ features: Array<{ properties: Record<string, unknown>; geometry: { type: string; coordinates: [number, number] } }> }> }
          | undefined;
        jumpTo(o: object): void;
        project(ll: [number, number]): { x: number; y: number };
        once(e: string, cb: () => void): void;
      };
      const el = document.querySelector(`[data-testid="${id}"]`) as (HTMLElement & { __map?: M }) | null;
      const map = el?.__map;
      if (!el || !map) return null;
      // The source's whole data, not only what the current view has loaded.
      const data = await map.getSource('farm-points')?.getData();
      const f = data?.features.find((x) => String(x.properties[k]) === v);
      if (!f) return null;
      const c = f.geometry.coordinates;
      await new Promise<void>((resolve) => {
        map.once('idle', () => resolve());
        map.jumpTo({ center: c, zoom: z });
        setTimeout(resolve, 5000);
      });
      const p = map.project(c);
      const box = el.getBoundingClientRect();
      return { x: box.left + p.x, y: box.top + p.y, id: String(f.properties['id']), name: String(f.properties['name']) } satisfies Picked;
    },
    { id: testId, k: key, v: value, z: zoom },
  );
}

/** The number of farms handed to the map (data-features). */
export async function mapFeatureCount(page: Page, testId = 'farm-map'): Promise<number> {
  return Number(await page.getByTestId(testId).getAttribute('data-features'));
}
