// The field app (issue 31) in Chromium on a phone viewport (360 × 740), as a demo agent of Oyo Agro Cooperative, with
// geolocation emulated: the issue's "How it will be checked" steps 1–6.
// 1. Sign in online (two-factor enrolment in the app), download the agent's area, go offline; the page reloads offline
//    from the service worker's shell.
// 2. Walk a boundary of 30 positions with one spike (dropped, with its notice) and save.
// 3. Draw a second farm over a registry farm: the overlap warning with its area; save with a reason. (3b: in draw mode the
//    live figures follow the corners as they are added and dragged.)
// 4. Register a farmer offline and capture a point plot (2 ha) for them.
// 5. Online again: all three sync (farmer first) with the agent as mapped_by, the walk's duration and the device id.
// 6. A capture whose answer is cut (the server made the farm, the app never heard) is sent again with the same
//    Idempotency-Key: one farm, not two.
// 7. The tenant admin finds the captures in Farmlands, and the provider in the tenant's details (Captures), with the
//    agent, the duration and the device.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { consoleApi, type ConsoleApi } from './support/api';
import { ACCOUNTS, DEMO_PASSWORD, signIn } from './support/app';
import { launchBrowser, openPage, screenshot, type Session } from './support/browser';
import { freshCode, readState, writeState } from './support/totp';

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: Session;
let api: ConsoleApi;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];

type LngLat = [number, number];
type Bundle = {
  area: { id: string; name: string; geometry: { coordinates: LngLat[][] } };
  farms: { id: string; name: string; farmer_id: string; geometry: { type: string; coordinates: unknown }; area_sqm: number }[];
};
let agentEmail = '';
let agentName = '';
let bundle: Bundle;
let tenantA = '';
let deviceId = '';
/** Where this file placed its captures (the walk, then the point plot), so later ones go elsewhere. */
const spots: LngLat[] = [];
const run = Date.now().toString(36);

const inside = (p: LngLat, ring: LngLat[]) => {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
};
const farmRing = (f: Bundle['farms'][number]): LngLat[] =>
  f.geometry.type === 'Polygon' ? (f.geometry.coordinates as LngLat[][])[0]! : (f.geometry.coordinates as LngLat[][][])[0]![0]!;
const centreOf = (ring: LngLat[]): LngLat => [ring.reduce((s, p) => s + p[0], 0) / ring.length, ring.reduce((s, p) => s + p[1], 0) / ring.length];

/**
 * The spot of the area farthest from every registry farm's centre and from the spots in `avoid` (earlier captures of
 * this file), on a 20 × 20 grid over the area: where a capture overlaps nothing (the demo farms differ from one seed to
 * the next, so a fixed offset from a spot could land on one).
 */
function emptySpot(avoid: LngLat[] = []): LngLat {
  const ring = bundle.area.geometry.coordinates[0]!;
  const xs = ring.map((p) => p[0]);
  const ys = ring.map((p) => p[1]);
  const centres = [...bundle.farms.map((f) => centreOf(farmRing(f))), ...avoid];
  let best: { p: LngLat; d: number } | null = null;
  for (let i = 1; i < 20; i++)
    for (let j = 1; j < 20; j++) {
      const p: LngLat = [Math.min(...xs) + ((Math.max(...xs) - Math.min(...xs)) * i) / 20, Math.min(...ys) + ((Math.max(...ys) - Math.min(...ys)) * j) / 20];
      if (!inside(p, ring)) continue;
      const d = Math.min(...centres.map((c) => Math.hypot(c[0] - p[0], c[1] - p[1])), 1);
      if (!best || d > best.d) best = { p, d };
    }
  return best!.p;
}

async function fixes(): Promise<number> {
  return Number(await page.getByTestId('live-stats').getAttribute('data-fixes'));
}

/** Moves the emulated GPS and waits until the app has handled the fix. */
async function moveTo(p: LngLat, accuracy = 4): Promise<void> {
  const before = await fixes();
  await context.setGeolocation({ longitude: p[0], latitude: p[1], accuracy });
  await expect.poll(fixes).toBeGreaterThan(before);
}

async function mapReady(): Promise<void> {
  await page.locator('[data-testid="field-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
}

/** Pixel position of a coordinate on the capture map, in page coordinates. */
async function pixel(p: LngLat): Promise<{ x: number; y: number }> {
  return page.evaluate((ll) => {
    const el = document.querySelector('[data-testid="field-map"]') as HTMLElement & { __map: { project: (l: [number, number]) => { x: number; y: number } } };
    const r = el.getBoundingClientRect();
    const pt = el.__map.project(ll);
    return { x: r.left + pt.x, y: r.top + pt.y };
  }, p);
}

async function jumpMap(centre: LngLat, zoom: number): Promise<void> {
  await page.evaluate(
    ([c, z]) => {
      const el = document.querySelector('[data-testid="field-map"]') as HTMLElement & {
        __map: { jumpTo: (o: object) => void; once: (e: string, f: () => void) => void };
      };
      el.__map.jumpTo({ center: c, zoom: z });
    },
    [centre, zoom] as const,
  );
}

/** A list page as the admin sees it ({ count, results }, or inside the envelope). */
async function list<T>(path: string): Promise<T[]> {
  const res = await api.call<{ results?: T[]; data?: { results?: T[] } }>('GET', path);
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
  return res.body.results ?? res.body.data?.results ?? [];
}

async function queueStates(): Promise<string[]> {
  return page
    .locator('[data-testid="queue-capture"], [data-testid="queue-farmer"]')
    .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-testid')}:${e.getAttribute('data-state')}`));
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await openPage(browser, baseUrl);
  // The provider reads tenant A's agents and farms: tenant A's admin is left to sign-in.e2e.ts, whose first sign-in of
  // that account enrols two-factor (the browser files run in an order of their own).
  await signIn(admin.page, ACCOUNTS.superAdmin);
  api = await consoleApi(admin.page);
  await api.token();
  tenantA = ((await api.get(`/api/base/tenants/?search=${encodeURIComponent('Oyo Agro')}`)) as { results: Array<{ id: string }> }).results[0]!.id;
  const agents = await list<{ email: string; first_name: string; last_name: string; is_suspended: boolean; operational_area_id: string | null }>(
    `/api/accounts/agents/?page_size=50&tenant_id=${tenantA}`,
  );
  const agent = agents.find((a) => !a.is_suspended && a.operational_area_id);
  if (!agent) throw new Error('no active demo agent with an operational area');
  agentEmail = agent.email;
  agentName = `${agent.first_name} ${agent.last_name}`;
  context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 360, height: 740 },
    locale: 'en-GB',
    timezoneId: 'Africa/Lagos',
    acceptDownloads: true,
  });
  await context.grantPermissions(['geolocation'], { origin: baseUrl });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (err) => errors.push(err.message));
});
afterAll(async () => {
  await browser?.close();
});

describe('the field app on a phone, offline', () => {
  it('1. signs in with two-factor enrolment, downloads the area, and starts again offline from the service worker', async () => {
    await page.goto('/field/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'field-sign-in');
    await page.getByLabel('Email').fill(agentEmail);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // A fresh demo agent enrols two-factor in the app; one enrolled by an earlier run of this file gets the code step.
    await page.getByLabel(/6-digit code/).waitFor();
    let secret = readState().secrets[agentEmail];
    if (await page.getByTestId('enrol-secret').isVisible()) {
      secret = (await page.getByTestId('enrol-secret').innerText()).replace(/^Key:\s*/, '').replace(/\s+/g, '');
      writeState((st) => void (st.secrets[agentEmail] = secret!));
    }
    if (!secret) throw new Error(`no two-factor secret known for ${agentEmail}`);
    await page.getByLabel(/6-digit code/).fill(await freshCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Operational areas' }).waitFor();
    const row = page.getByTestId('area-row').filter({ hasText: 'Yours' });
    await row.getByRole('button', { name: 'Download' }).click();
    await row.getByTestId('area-cached').waitFor();
    expect(await row.getByTestId('area-cached').innerText()).toMatch(/Cached .*farms?, \d+ farmers?, \d+ KB/);
    await screenshot(page, 'field-areas');
    bundle = await page.evaluate(async () => {
      const req = indexedDB.open('farmland-field');
      const d: IDBDatabase = await new Promise((r) => (req.onsuccess = () => r(req.result)));
      const all: unknown[] = await new Promise((r) => {
        const q = d.transaction('bundles').objectStore('bundles').getAll();
        q.onsuccess = () => r(q.result);
      });
      d.close();
      return all[0] as never;
    });
    expect(bundle.farms.length).toBeGreaterThan(0);

    // The shell is cached once the service worker controls the page.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    });
    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('net-status').filter({ hasText: 'Offline' }).waitFor();
    await page.getByRole('tab', { name: 'Walk' }).waitFor();
    await mapReady();
  });

  it('2. walks 30 positions with one spike and saves the boundary', async () => {
    const [x0, y0] = emptySpot();
    spots.push([x0, y0]);
    // A 44 m square walked in 5.5 m steps: 8 steps a side, 30 positions, plus one spike of ~150 m after the tenth.
    const d = 0.00005;
    const path: LngLat[] = [];
    for (let i = 0; i < 8; i++) path.push([x0 + i * d, y0]);
    for (let i = 0; i < 8; i++) path.push([x0 + 8 * d, y0 + i * d]);
    for (let i = 0; i < 8; i++) path.push([x0 + (8 - i) * d, y0 + 8 * d]);
    for (let i = 0; i < 6; i++) path.push([x0, y0 + (8 - i) * d]);
    expect(path).toHaveLength(30);
    // The GPS is at the first corner when the walk starts: its first fix is the first vertex.
    await context.setGeolocation({ longitude: path[0]![0], latitude: path[0]![1], accuracy: 4 });
    await page.getByRole('button', { name: 'Start walking' }).click();
    await expect.poll(fixes).toBe(1);
    for (const [i, p] of path.entries()) {
      if (i > 0) await moveTo(p);
      if (i === 10) await moveTo([p[0] + 0.0014, p[1]]);
    }
    await page.getByTestId('spike-notice').waitFor();
    expect(await page.getByTestId('spike-notice').innerText()).toMatch(/1 jump in the GPS dropped/);
    const stats = page.getByTestId('live-stats');
    expect(Number(await stats.getAttribute('data-points'))).toBe(30);
    await screenshot(page, 'field-walk');
    await page.getByRole('button', { name: 'Close the boundary' }).click();
    await page.getByTestId('review').waitFor();
    if (await page.getByTestId('warnings').isVisible()) await page.getByLabel(/Reason to save anyway/).fill('Walked along the hedge');
    await page.getByLabel('Choose the farmer').selectOption({ index: 1 });
    await page.getByLabel('Farm name').fill(`Walked ${run}`);
    await page.getByRole('button', { name: /^Save/ }).click();
    await page.getByText('Saved on the device').waitFor();
  });

  it('3. draws a farm over a registry farm, sees the overlap and saves with a reason', async () => {
    await page.getByRole('tab', { name: 'Draw' }).click();
    await mapReady();
    const target = bundle.farms.find((f) => f.area_sqm > 2000 && inside(centreOf(farmRing(f)), bundle.area.geometry.coordinates[0]!)) ?? bundle.farms[0]!;
    const [cx, cy] = centreOf(farmRing(target));
    await jumpMap([cx, cy], 17);
    // A ~55 m square with one corner at the farm's centre: it covers part of the farm.
    const s = 0.0005;
    const corners: LngLat[] = [
      [cx, cy],
      [cx + s, cy],
      [cx + s, cy + s],
      [cx, cy + s],
    ];
    for (const c of corners) {
      const p = await pixel(c);
      await page.mouse.click(p.x, p.y);
    }
    const first = await pixel(corners[0]!);
    await page.mouse.click(first.x, first.y);
    // The live figure before the boundary is used: the farms it overlaps and by how much (the review check's figures).
    // The figure comes from a worker a moment after the area: read it once it is for the boundary's vertex count.
    const liveOverlap = page.getByTestId('live-overlap');
    const overlapFor = async () => ({
      points: await liveOverlap.getAttribute('data-points'),
      of: await page.getByTestId('live-stats').getAttribute('data-points'),
    });
    await expect
      .poll(async () => {
        const f = await overlapFor();
        return f.points === f.of && Number((await liveOverlap.getAttribute('data-count')) || 0) > 0;
      })
      .toBe(true);
    const liveCount = Number(await liveOverlap.getAttribute('data-count'));
    expect(await liveOverlap.innerText()).toMatch(/Overlaps \d+ farms? by [\d,]+ m²/);
    await page.getByRole('button', { name: 'Use this boundary' }).click();
    await page.getByTestId('review').waitFor();
    const warnings = await page.getByTestId('warnings').innerText();
    expect(warnings).toMatch(/Overlaps registry farm .* by [\d,]+ m²/);
    expect(warnings.match(/Overlaps (registry farm|an earlier capture)/g)).toHaveLength(liveCount);
    await screenshot(page, 'field-overlap');
    await page.getByLabel(/Reason to save anyway/).fill('Boundary agreed with the neighbour; registry farm is out of date');
    await page.getByLabel('Choose the farmer').selectOption({ index: 1 });
    await page.getByLabel('Farm name').fill(`Drawn ${run}`);
    await page.getByRole('button', { name: 'Save anyway' }).click();
    await page.getByText('Saved on the device').waitFor();
  });

  it('3b. draw mode: the live figures follow each corner added and a corner dragged, before terra-draw finishes', async () => {
    await page.getByRole('tab', { name: 'Draw' }).click();
    await mapReady();
    const target = bundle.farms.find((f) => f.area_sqm > 2000 && inside(centreOf(farmRing(f)), bundle.area.geometry.coordinates[0]!)) ?? bundle.farms[0]!;
    const [cx, cy] = centreOf(farmRing(target));
    await jumpMap([cx, cy], 17);
    const s = 0.0005;
    const corners: LngLat[] = [
      [cx, cy],
      [cx + s, cy],
      [cx + s, cy + s],
      [cx, cy + s],
    ];
    const stats = page.getByTestId('live-stats');
    const livePoints = async () => Number(await stats.getAttribute('data-points'));
    // Corners placed, the ring not closed yet: the figures already count them, and the overlap shows with the fourth.
    for (const [i, c] of corners.entries()) {
      const p = await pixel(c);
      await page.mouse.click(p.x, p.y);
      if (i >= 2) await expect.poll(livePoints).toBeGreaterThanOrEqual(i + 1);
    }
    const liveOverlap = page.getByTestId('live-overlap');
    await expect.poll(async () => Number((await liveOverlap.getAttribute('data-count')) || 0)).toBeGreaterThan(0);
    const first = await pixel(corners[0]!);
    await page.mouse.click(first.x, first.y);
    await expect.poll(livePoints).toBe(4);
    // Drag the far corner outwards, the button held: the area grows while the corner moves, before it is let go.
    const sqm = async () => Number(await stats.getAttribute('data-sqm'));
    const before = await sqm();
    const from = await pixel(corners[2]!);
    const to = await pixel([cx + 2 * s, cy + 2 * s]);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 8 });
    await expect.poll(sqm).toBeGreaterThan(before * 1.5);
    expect(await livePoints()).toBe(4);
    await page.mouse.up();
    await screenshot(page, 'field-draw-drag');
    // Nothing is saved: step 4 changes mode, which discards the drawing.
  });

  it('4. registers a farmer offline and captures a point plot for them', async () => {
    await page.getByRole('tab', { name: 'Point' }).click();
    await mapReady();
    const spot = emptySpot(spots);
    spots.push(spot);
    await jumpMap(spot, 16);
    await page.getByRole('button', { name: 'Use the map centre' }).click();
    await page.getByTestId('point-centre').waitFor();
    await page.getByLabel(/Declared area/).fill('5');
    await page.getByText('A point plot may be at most 4 ha').waitFor();
    await page.getByLabel(/Declared area/).fill('2');
    await page.getByRole('button', { name: 'Use this point' }).click();
    await page.getByTestId('review').waitFor();
    expect(Number(await page.getByTestId('live-stats').getAttribute('data-sqm'))).toBe(20000);
    if (await page.getByTestId('warnings').isVisible()) await page.getByLabel(/Reason to save anyway/).fill('Point plot near the stream');
    await page.getByLabel('Choose the farmer').selectOption('new');
    await page.getByLabel('First name').fill('Kemi');
    await page.getByLabel('Last name').fill(`Offline${run}`);
    await page.getByLabel('Farm name').fill(`Point ${run}`);
    await screenshot(page, 'field-point-review');
    await page.getByRole('button', { name: /^Save/ }).click();
    await page.getByText('Saved on the device').waitFor();
    await page.getByRole('button', { name: /^Queue/ }).click();
    expect(await queueStates()).toEqual(['queue-farmer:waiting', 'queue-capture:waiting', 'queue-capture:waiting', 'queue-capture:waiting']);
    await screenshot(page, 'field-queue-offline');
  });

  it('5. syncs all three when the network returns, with mapped_by, duration and device id', async () => {
    await context.setOffline(false);
    await expect.poll(queueStates, { timeout: 30_000 }).toEqual(['queue-farmer:sent', 'queue-capture:sent', 'queue-capture:sent', 'queue-capture:sent']);
    await screenshot(page, 'field-queue-sent');
    deviceId = await page.evaluate(async () => {
      const req = indexedDB.open('farmland-field');
      const d: IDBDatabase = await new Promise((r) => (req.onsuccess = () => r(req.result)));
      const v = await new Promise((r) => {
        const q = d.transaction('kv').objectStore('kv').get('deviceId');
        q.onsuccess = () => r(q.result);
      });
      d.close();
      return v as string;
    });
    for (const name of [`Walked ${run}`, `Drawn ${run}`, `Point ${run}`]) {
      const hits = (await list<{ id: string; name: string }>(`/api/farms/?search=${encodeURIComponent(name)}`)).filter((f) => f.name === name);
      expect(hits, name).toHaveLength(1);
      const farm = (await api.get(`/api/farms/${hits[0]!.id}/`)) as {
        mapped_by: string;
        farmer: string;
        declared_area_sqm: number | null;
        point: [number, number] | null;
        mapping_record: { time_taken_to_map: string; gps_device_id: string; capture_note: string | null };
      };
      expect(farm.mapped_by).toBe(agentName);
      expect(farm.mapping_record.gps_device_id).toBe(deviceId);
      expect(farm.mapping_record.time_taken_to_map).toMatch(/^\d{2}:[0-5]\d:[0-5]\d$/);
      if (name.startsWith('Drawn')) expect(farm.mapping_record.capture_note).toMatch(/agreed with the neighbour/);
      if (name.startsWith('Point')) {
        expect(farm.farmer).toBe(`Kemi Offline${run}`);
        // The point plot's declared area and centre are API fields now (2 ha declared on the device).
        expect(farm.declared_area_sqm).toBe(20000);
        expect(farm.point).toHaveLength(2);
      } else expect(farm.declared_area_sqm).toBeNull();
    }
  });

  it('6. a lost answer mid-sync is sent again with the same key: no duplicate', async () => {
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Capture' }).click();
    await page.getByRole('tab', { name: 'Point' }).click();
    await mapReady();
    await jumpMap(emptySpot(spots), 16);
    await page.getByRole('button', { name: 'Use the map centre' }).click();
    await page.getByLabel(/Declared area/).fill('1');
    await page.getByRole('button', { name: 'Use this point' }).click();
    if (await page.getByTestId('warnings').isVisible()) await page.getByLabel(/Reason to save anyway/).fill('Retry test');
    await page.getByLabel('Choose the farmer').selectOption({ index: 1 });
    await page.getByLabel('Farm name').fill(`Retried ${run}`);
    await page.getByRole('button', { name: /^Save/ }).click();
    await page.getByText('Saved on the device').waitFor();
    await page.getByRole('button', { name: /^Queue/ }).click();

    // The first POST reaches the server, which makes the farm; its answer is cut before the app reads it.
    let cut = 0;
    const keys: string[] = [];
    await context.route('**/api/farms/', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (cut === 0) {
        cut++;
        await route.fetch();
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await context.setOffline(false);
    await expect.poll(() => cut).toBe(1);
    await expect.poll(() => page.getByTestId('sync-result').innerText()).toMatch(/0 sent, 0 refused, 1 waiting/);
    expect((await queueStates()).at(-1)).toBe('queue-capture:waiting');
    await page.getByRole('button', { name: 'Send now' }).click();
    await expect.poll(async () => (await queueStates()).at(-1)).toBe('queue-capture:sent');
    await context.unroute('**/api/farms/');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const retried = await list<{ name: string }>(`/api/farms/?search=${encodeURIComponent(`Retried ${run}`)}`);
    expect(retried.filter((f) => f.name === `Retried ${run}`)).toHaveLength(1);
    await screenshot(page, 'field-queue-retried');
    expect(errors).toEqual([]);
  });

  it('7. the tenant admin sees the captures in Farmlands, and the provider in the tenant details', async () => {
    // The provider: the tenant's details list its captures, newest first, with the agent, the duration and the device.
    await admin.page.goto(`/super-admin/tenant/${tenantA}`);
    const captures = admin.page.getByTestId('tenant-captures');
    const walked = captures.locator('.ant-table-row').filter({ hasText: `Walked ${run}` });
    await walked.waitFor();
    const cells = await walked.locator('td').allInnerTexts();
    expect(cells).toContain(agentName);
    expect(cells).toContain(deviceId);
    expect(cells.some((c) => /^\d+ hr, \d+ m, \d+ s$/.test(c))).toBe(true);
    for (const name of [`Drawn ${run}`, `Point ${run}`, `Retried ${run}`]) await captures.locator('.ant-table-row').filter({ hasText: name }).waitFor();
    await screenshot(admin.page, 'field-provider-captures');

    // The tenant admin: Farmlands finds each captured farm by its name.
    const tenantAdmin = await openPage(browser, baseUrl);
    await signIn(tenantAdmin.page, ACCOUNTS.adminA);
    for (const name of [`Walked ${run}`, `Drawn ${run}`, `Point ${run}`]) {
      await tenantAdmin.page.goto(`/admin/mapping?search=${encodeURIComponent(name)}`);
      await tenantAdmin.page.getByText(name, { exact: true }).first().waitFor();
    }
    // The point plot's drawer shows its declared area and centre.
    await tenantAdmin.page
      .locator('.ant-table-row')
      .filter({ hasText: `Point ${run}` })
      .getByRole('button', { name: 'View Details' })
      .click();
    const drawer = tenantAdmin.page.getByRole('dialog');
    // Should the plot overlap a farm after all, the overlapping drawer opens instead, with the opened farm's details first.
    await drawer.getByTestId('farm-details').first().waitFor();
    await expect.poll(() => drawer.innerText()).toMatch(/Declared area\s+2(\.00)? ha \(20,000(\.00)? sqm\)/);
    expect(await drawer.innerText()).toMatch(/Point plot centre\s+-?\d+\.\d{6}, -?\d+\.\d{6}/);
    await screenshot(tenantAdmin.page, 'field-point-plot-drawer');
    await screenshot(tenantAdmin.page, 'field-admin-farmlands');
    await tenantAdmin.context.close();
  });
});
