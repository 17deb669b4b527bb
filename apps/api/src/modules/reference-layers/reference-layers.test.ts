// Issue 29, reference layers and screening through the API: an upload loads in the background (subdivided pieces),
// every farm gets its overlap figures, checked against an independent PostGIS computation on the original features
// (ST_Area(ST_Intersection(farm, ST_Union(features))::geography)), including a farm across several pieces and features
// that overlap each other; a bad feature fails the load with its number and leaves nothing; a replacement swaps
// atomically; capture screens the new farm; tenant isolation; bad input names the field.
import { sql } from 'drizzle-orm';
import { PLOT_RISK_DEFAULTS } from '@farmland/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import type { Caller, TestEnv } from '../../test/harness.js';
import { testEnv } from '../../test/harness.js';
import { freshSpot, insertFarmDirect, multipart, offset, square, tenantGeo, type Ring } from '../../test/geo-fixtures.js';
import { loadReferenceLayer, unfinishedLayers } from './reference-layers.load.js';
import { screenLayerEverywhere } from './reference-layers.screening.js';

let env: TestEnv;
let farmerA: string;

beforeAll(async () => {
  env = await testEnv();
  farmerA = (await tenantGeo(env, env.fx.tenantA)).farmerId;
  // The verdicts below follow the default thresholds; other files of this worker (the hostile fuzz) may have changed
  // tenant A's.
  const reset = await env.as('adminA').put('/api/reference-layers/risk-settings/', PLOT_RISK_DEFAULTS);
  expect(reset.status, reset.raw).toBe(200);
});

const closed = (r: Ring) => [...r, r[0]!];
const polygon = (r: Ring) => ({ type: 'Polygon', coordinates: [closed(r)] });

/** A circle of `metres` radius around [lng, lat] with n vertices (n ≫ 256, so the load subdivides it). */
function circle(lng: number, lat: number, metres: number, n: number): Ring {
  const out: Ring = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    out.push(offset(lng, lat, metres * Math.cos(a), metres * Math.sin(a)));
  }
  return out;
}

const collection = (geometries: unknown[]) =>
  Buffer.from(
    JSON.stringify({ type: 'FeatureCollection', features: geometries.map((g, i) => ({ type: 'Feature', properties: { name: `F${i + 1}` }, geometry: g })) }),
  );

const details = (over: Record<string, string> = {}) => ({
  name: 'Forest 2020',
  kind: 'forest_2020',
  reference_date: '2020-12-31',
  source: 'Synthetic test layer',
  licence: 'CC0-1.0',
  ...over,
});

async function upload(caller: Caller, base: string, fields: Record<string, string>, filename: string, content: Buffer) {
  const body = multipart(fields, [{ field: 'file', filename, content }]);
  return caller.request({ method: 'POST', url: base, payload: body.payload, headers: body.headers });
}

/** Waits for the layer's load (and screening) to end; returns its detail. */
async function settledLayer(caller: Caller, base: string, id: string, timeoutMs = 60_000) {
  let detail: Record<string, any> = { status: 'queued' };
  for (const end = Date.now() + timeoutMs; Date.now() < end && !['ready', 'failed'].includes(detail['status']);) {
    await new Promise((r) => setTimeout(r, 50));
    const res = await caller.get(`${base}${id}/progress/`);
    expect(res.status).toBe(200);
    detail = res.body.data;
  }
  return (await caller.get(`${base}${id}/`)).body.data as Record<string, any>;
}

/** The independent figure: the farm against the union of the original geometries, parsed by PostGIS from GeoJSON. */
async function referenceOverlap(farmId: string, geometries: unknown[]): Promise<{ sqm: number; share: number }> {
  const [r] = await env.sql<{ sqm: number; share: number }>(sql`
    WITH layer AS (SELECT ST_Union(ST_SetSRID(ST_GeomFromGeoJSON(g), 4326)) AS g FROM jsonb_array_elements_text(${JSON.stringify(geometries.map((g) => JSON.stringify(g)))}::jsonb) AS g)
    SELECT ST_Area(ST_Intersection(f.geom, layer.g)::geography) AS sqm, ST_Area(ST_Intersection(f.geom, layer.g)::geography) / ST_Area(f.geom::geography) AS share
      FROM farms f, layer WHERE f.id = ${farmId}`);
  return { sqm: Number(r!.sqm), share: Number(r!.share) };
}

const close = (actual: number, expected: number) => {
  if (expected === 0) expect(actual).toBe(0);
  else expect(Math.abs(actual - expected) / expected).toBeLessThan(1e-6);
};

describe('reference layers: load and screening', () => {
  const [lng, lat] = freshSpot();
  const big = circle(lng, lat, 1000, 1200);
  const strip: Ring = [offset(lng, lat, 500, -300), offset(lng, lat, 1500, -300), offset(lng, lat, 1500, 300), offset(lng, lat, 500, 300)];
  const geometries = [polygon(big), polygon(strip)];
  const farms: Record<string, string> = {};
  let layerId = '';

  beforeAll(async () => {
    // Across the circle's centre (where the subdivision's cuts meet), across its edge and the strip, and far away.
    farms['centre'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, square(...offset(lng, lat, -150, -150), 300));
    farms['edge'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, square(...offset(lng, lat, 850, -100), 300));
    farms['inside'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, square(...offset(lng, lat, -600, 300), 100));
    farms['away'] = await insertFarmDirect(env, env.fx.tenantA, farmerA, square(...offset(lng, lat, 3000, 3000), 100));
    const res = await upload(env.as('adminA'), '/api/reference-layers/', details(), 'forest.geojson', collection(geometries));
    expect(res.status, res.raw).toBe(202);
    expect(res.body.data).toMatchObject({ owner: 'tenant', tenant_id: env.fx.tenantA, kind: 'forest_2020', version: 0, loading_version: 1 });
    layerId = res.body.data.id;
  });

  it('loads the features subdivided, and screens every farm of the tenant', async () => {
    const layer = await settledLayer(env.as('adminA'), '/api/reference-layers/', layerId);
    expect(layer).toMatchObject({ status: 'ready', progress: 100, version: 1, loading_version: null, feature_count: 2, features_loaded: 2, error: null });
    expect(layer['piece_count']).toBeGreaterThan(4);
    const [pieces] = await env.sql<{ n: number; max: number }>(
      sql`SELECT count(*)::int AS n, max(ST_NPoints(geom))::int AS max FROM reference_layer_features WHERE layer_id = ${layerId}`,
    );
    expect(pieces!.n).toBe(layer['piece_count']);
    expect(pieces!.max).toBeLessThanOrEqual(256 + 1);
    const [all] = await env.sql<{ farms: number; screened: number }>(sql`
      SELECT (SELECT count(*)::int FROM farms WHERE tenant_id = ${env.fx.tenantA}) AS farms,
             (SELECT count(*)::int FROM farm_screenings WHERE layer_id = ${layerId}) AS screened`);
    expect(all!.screened).toBe(all!.farms);
  });

  it('agrees with PostGIS on the original geometry, for a farm across several pieces and overlapping features', async () => {
    const [crossed] = await env.sql<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM reference_layer_features p, farms f WHERE f.id = ${farms['centre']} AND p.layer_id = ${layerId} AND ST_Intersects(p.geom, f.geom)`);
    expect(crossed!.n).toBeGreaterThanOrEqual(2);
    for (const [name, id] of Object.entries(farms)) {
      const res = await env.as('adminA').get(`/api/farms/${id}/screening/`);
      expect(res.status, name).toBe(200);
      const fig = res.body.data.figures.find((f: { layer_id: string }) => f.layer_id === layerId);
      const ref = await referenceOverlap(id, geometries);
      close(fig.overlap_sqm, ref.sqm);
      close(fig.share, ref.share);
    }
    const centre = (await env.as('adminA').get(`/api/farms/${farms['centre']}/screening/`)).body.data;
    // Wholly inside the forest: a share of 1, to the same 1e-6 as the check against PostGIS above. The pieces' overlaps
    // are summed in floating point, so at some places (the spot is random) the sum is 1 - 5e-10, not 1 to 1e-9. The
    // figure is this layer's: other files in the worker may have layers of their own.
    close(centre.figures.find((f: { layer_id: string }) => f.layer_id === layerId).share, 1);
    expect(centre.verdict).toMatchObject({ level: 'review' });
    expect(centre.verdict.reasons[0]).toMatchObject({ code: 'forest_2020', level: 'review', layer_id: layerId });
    const away = (await env.as('adminA').get(`/api/farms/${farms['away']}/screening/`)).body.data;
    // Other test files sharing this database may have layers of their own that this farm was never screened against
    // (it was inserted directly): then "not screened" is the only reason; with none, the plot is low risk.
    const [others] = await env.sql<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM reference_layers WHERE version > 0 AND id <> ${layerId} AND (tenant_id IS NULL OR tenant_id = ${env.fx.tenantA})`,
    );
    if (others!.n === 0) expect(away.verdict).toEqual({ level: 'low', reasons: [expect.objectContaining({ code: 'no_overlap' })] });
    else {
      // Then nothing of this test's layer: "not screened" against the others, or no overlap once they have screened it.
      const codes = (away.verdict.reasons as { code: string; layer_id: string | null }[]).map((r) => [r.code, r.layer_id]);
      expect(
        codes.every(([code, layer]) => (code === 'not_screened' || code === 'no_overlap') && layer === null),
        JSON.stringify(codes),
      ).toBe(true);
    }
  });

  it('screens a captured farm in the capture itself', async () => {
    const g = await tenantGeo(env, env.fx.tenantA);
    const ring = square(...offset(lng, lat, 100, 100), 80);
    const res = await env.as('agentA').post('/api/farms/', { farmer_id: g.farmerId, coordinates: [...ring, ring[0]], name: 'Forest edge plot' });
    expect(res.status, res.raw).toBe(201);
    const [row] = await env.sql<{ overlap_sqm: number; share: number; layer_version: number }>(
      sql`SELECT overlap_sqm, share, layer_version FROM farm_screenings WHERE farm_id = ${res.body.data.id} AND layer_id = ${layerId}`,
    );
    expect(row).toMatchObject({ layer_version: 1 });
    close(Number(row!.overlap_sqm), (await referenceOverlap(res.body.data.id, geometries)).sqm);
  });

  it('a bad feature fails the load with its number and leaves no features; the layer keeps its version', async () => {
    const bad = collection([polygon(square(lng, lat, 100)), polygon(square(lng + 0.01, lat, 100)), { type: 'Point', coordinates: [lng, lat] }]);
    const res = await upload(env.as('adminA'), '/api/reference-layers/', details({ name: 'Broken' }), 'broken.geojson', bad);
    expect(res.status).toBe(202);
    const layer = await settledLayer(env.as('adminA'), '/api/reference-layers/', res.body.data.id);
    expect(layer).toMatchObject({ status: 'failed', version: 0, loading_version: null, error_feature: 3 });
    expect(layer['error']).toMatch(/Feature 3/);
    const [n] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM reference_layer_features WHERE layer_id = ${res.body.data.id}`);
    expect(n!.n).toBe(0);
    // A failed layer is no figure for anyone.
    const fig = (await env.as('adminA').get(`/api/farms/${farms['centre']}/screening/`)).body.data;
    expect(fig.figures.map((f: { layer_id: string }) => f.layer_id)).not.toContain(res.body.data.id);
  });

  it('a failed replacement keeps the version in use; a good one swaps it and re-screens', async () => {
    const base = '/api/reference-layers/';
    const broken = await upload(
      env.as('adminA'),
      `${base}${layerId}/replace/`,
      {},
      'forest.geojson',
      collection([
        polygon(strip),
        {
          type: 'LineString',
          coordinates: [
            [lng, lat],
            [lng + 0.01, lat],
          ],
        },
      ]),
    );
    expect(broken.status, broken.raw).toBe(202);
    const failed = await settledLayer(env.as('adminA'), base, layerId);
    expect(failed).toMatchObject({ status: 'failed', version: 1, error_feature: 2, feature_count: 2 });
    const [v1] = await env.sql<{ versions: number[] }>(
      sql`SELECT array_agg(DISTINCT version) AS versions FROM reference_layer_features WHERE layer_id = ${layerId}`,
    );
    expect(v1!.versions).toEqual([1]);
    // Only the strip now: the centre farm leaves the forest, the edge farm keeps the strip's part.
    const good = await upload(env.as('adminA'), `${base}${layerId}/replace/`, { name: 'Forest 2020 v2' }, 'forest.geojson', collection([polygon(strip)]));
    expect(good.status).toBe(202);
    const swapped = await settledLayer(env.as('adminA'), base, layerId);
    expect(swapped).toMatchObject({ status: 'ready', version: 2, name: 'Forest 2020 v2', feature_count: 1 });
    const [v2] = await env.sql<{ versions: number[] }>(
      sql`SELECT array_agg(DISTINCT version) AS versions FROM reference_layer_features WHERE layer_id = ${layerId}`,
    );
    expect(v2!.versions).toEqual([2]);
    for (const id of [farms['centre']!, farms['edge']!]) {
      const fig = (await env.as('adminA').get(`/api/farms/${id}/screening/`)).body.data.figures.find((f: { layer_id: string }) => f.layer_id === layerId);
      expect(fig.layer_version).toBe(2);
      close(fig.overlap_sqm, (await referenceOverlap(id, [polygon(strip)])).sqm);
    }
  });

  it('tree-cover loss makes the plot high risk, as the tenant thresholds say', async () => {
    const loss: Ring = [offset(lng, lat, 800, -50), offset(lng, lat, 1200, -50), offset(lng, lat, 1200, 0), offset(lng, lat, 800, 0)];
    const res = await upload(
      env.as('adminA'),
      '/api/reference-layers/',
      details({ name: 'Loss 2021-2024', kind: 'tree_cover_loss', reference_date: '2024-12-31' }),
      'loss.geojson',
      collection([polygon(loss)]),
    );
    const layer = await settledLayer(env.as('adminA'), '/api/reference-layers/', res.body.data.id);
    expect(layer['status']).toBe('ready');
    const edge = (await env.as('adminA').get(`/api/farms/${farms['edge']}/screening/`)).body.data;
    expect(edge.verdict.level).toBe('high');
    expect(edge.verdict.reasons[0]).toMatchObject({ code: 'tree_cover_loss', level: 'high' });
    const share = edge.figures.find((f: { layer_id: string }) => f.layer_id === res.body.data.id).share;
    // Raise the tenant's loss threshold above the plot's share: the loss no longer makes it high.
    const put = await env.as('adminA').put('/api/reference-layers/risk-settings/', { eudr_loss_high_share: Math.min(1, share * 2) });
    expect(put.status, put.raw).toBe(200);
    const after = (await env.as('adminA').get(`/api/farms/${farms['edge']}/screening/`)).body.data;
    expect(after.verdict.reasons.map((r: { code: string }) => r.code)).not.toContain('tree_cover_loss');
    await env.as('adminA').put('/api/reference-layers/risk-settings/', { eudr_loss_high_share: 0 });
  });
});

describe('reference layers: provider layers and tenant isolation', () => {
  const [lng, lat] = freshSpot();
  let farmA = '';
  let tenantLayer = '';
  let providerLayer = '';

  beforeAll(async () => {
    farmA = await insertFarmDirect(env, env.fx.tenantA, farmerA, square(lng, lat, 100));
    const t = await upload(
      env.as('adminA'),
      '/api/reference-layers/',
      details({ name: 'A concession', kind: 'concession' }),
      'c.geojson',
      collection([polygon(square(lng, lat, 200))]),
    );
    tenantLayer = t.body.data.id;
    const p = await upload(
      env.as('super'),
      '/api/base/reference-layers/',
      details({ name: 'WDPA extract', kind: 'protected_area' }),
      'p.geojson',
      collection([polygon(square(lng, lat, 50))]),
    );
    expect(p.status, p.raw).toBe(202);
    expect(p.body.data).toMatchObject({ owner: 'provider', tenant_id: null });
    providerLayer = p.body.data.id;
    await settledLayer(env.as('adminA'), '/api/reference-layers/', tenantLayer);
    await settledLayer(env.as('super'), '/api/base/reference-layers/', providerLayer);
  });

  it("a provider layer screens every tenant's farms and is read by every tenant admin, changed by none", async () => {
    const fig = (await env.as('adminA').get(`/api/farms/${farmA}/screening/`)).body.data;
    const prov = fig.figures.find((f: { layer_id: string }) => f.layer_id === providerLayer);
    expect(prov).toMatchObject({ owner: 'provider', kind: 'protected_area' });
    close(prov.overlap_sqm, (await referenceOverlap(farmA, [polygon(square(lng, lat, 50))])).sqm);
    expect(fig.verdict.level).toBe('high');
    for (const admin of ['adminA', 'adminB'] as const) {
      const list = await env.as(admin).get('/api/reference-layers/');
      expect(list.body.data.map((l: { id: string }) => l.id)).toContain(providerLayer);
      expect((await env.as(admin).get(`/api/reference-layers/${providerLayer}/`)).status).toBe(200);
      expect((await env.as(admin).delete(`/api/reference-layers/${providerLayer}/`)).status).toBe(403);
    }
    const provList = await env.as('super').get('/api/base/reference-layers/');
    expect(provList.body.data.map((l: { id: string }) => l.id)).toEqual(expect.arrayContaining([providerLayer]));
    expect(provList.body.data.map((l: { id: string }) => l.id)).not.toContain(tenantLayer);
  });

  it("tenant B's admin cannot see or change tenant A's layer or screening", async () => {
    const b = env.as('adminB');
    expect((await b.get('/api/reference-layers/')).body.data.map((l: { id: string }) => l.id)).not.toContain(tenantLayer);
    expect((await b.get(`/api/reference-layers/${tenantLayer}/`)).status).toBe(404);
    expect((await b.get(`/api/reference-layers/${tenantLayer}/progress/`)).status).toBe(404);
    expect((await b.delete(`/api/reference-layers/${tenantLayer}/`)).status).toBe(404);
    const replace = await upload(b, `/api/reference-layers/${tenantLayer}/replace/`, {}, 'x.geojson', collection([polygon(square(lng, lat, 10))]));
    expect(replace.status).toBe(404);
    expect((await b.get(`/api/farms/${farmA}/screening/`)).status).toBe(404);
    // Provider staff do not reach a tenant's layer through the provider routes either.
    expect((await env.as('super').get(`/api/base/reference-layers/${tenantLayer}/`)).status).toBe(404);
    // Still there, unchanged, for tenant A.
    expect((await env.as('adminA').get(`/api/reference-layers/${tenantLayer}/`)).body.data).toMatchObject({ status: 'ready', version: 1 });
    // Row-level security: tenant B's scope reads none of A's features or figures, even without the code's filters.
    const rows = await env.database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('app.scope', 'tenant', true), set_config('app.tenant_id', ${env.fx.tenantB}, true)`);
      const f = await queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM reference_layer_features WHERE layer_id = ${tenantLayer}`);
      const s = await queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM farm_screenings WHERE farm_id = ${farmA}`);
      return [f[0]!.n, s[0]!.n];
    });
    expect(rows).toEqual([0, 0]);
  });

  it('a screening left unfinished (a process that ended) is resumed by the job and completes', async () => {
    await env.sql(sql`UPDATE reference_layers SET status = 'screening', progress = 50 WHERE id = ${tenantLayer}`);
    await env.sql(sql`DELETE FROM farm_screenings WHERE layer_id = ${tenantLayer}`);
    expect(await unfinishedLayers(env.deps)).toContain(tenantLayer);
    expect(await loadReferenceLayer(env.deps, tenantLayer)).toMatchObject({ status: 'ready' });
    expect((await env.as('adminA').get(`/api/reference-layers/${tenantLayer}/`)).body.data).toMatchObject({ status: 'ready', progress: 100, version: 1 });
    const [n] = await env.sql<{ screened: number; farms: number }>(sql`
      SELECT (SELECT count(*)::int FROM farm_screenings WHERE layer_id = ${tenantLayer}) AS screened, (SELECT count(*)::int FROM farms WHERE tenant_id = ${env.fx.tenantA}) AS farms`);
    expect(n!.screened).toBe(n!.farms);
    expect(await unfinishedLayers(env.deps)).not.toContain(tenantLayer);
  });

  it('deleting a layer removes its features and figures', async () => {
    const t = await upload(
      env.as('adminA'),
      '/api/reference-layers/',
      details({ name: 'Short-lived', kind: 'other' }),
      'o.geojson',
      collection([polygon(square(lng, lat, 30))]),
    );
    await settledLayer(env.as('adminA'), '/api/reference-layers/', t.body.data.id);
    expect((await env.as('adminA').delete(`/api/reference-layers/${t.body.data.id}/`)).status).toBe(200);
    const [left] = await env.sql<{ f: number; s: number }>(sql`
      SELECT (SELECT count(*)::int FROM reference_layer_features WHERE layer_id = ${t.body.data.id}) AS f, (SELECT count(*)::int FROM farm_screenings WHERE layer_id = ${t.body.data.id}) AS s`);
    expect(left).toEqual({ f: 0, s: 0 });
    expect((await env.as('adminA').get(`/api/reference-layers/${t.body.data.id}/`)).status).toBe(404);
  });
});

describe('reference layers: a replacement while a screening runs', () => {
  it('leaves every farm with one complete figure, from the newer version once that is ready, never a mix', async () => {
    const base = '/api/reference-layers/';
    const [lng, lat] = freshSpot();
    // v1 covers the west farm and half of the middle one; v2 the east farm and the middle one's other half.
    const v1 = polygon([offset(lng, lat, -400, -200), offset(lng, lat, 100, -200), offset(lng, lat, 100, 200), offset(lng, lat, -400, 200)]);
    const v2 = polygon([offset(lng, lat, 100, -200), offset(lng, lat, 600, -200), offset(lng, lat, 600, 200), offset(lng, lat, 100, 200)]);
    const mine = {
      west: await insertFarmDirect(env, env.fx.tenantA, farmerA, square(...offset(lng, lat, -300, -50), 100)),
      middle: await insertFarmDirect(env, env.fx.tenantA, farmerA, square(...offset(lng, lat, 50, -50), 100)),
      east: await insertFarmDirect(env, env.fx.tenantA, farmerA, square(...offset(lng, lat, 400, -50), 100)),
    };
    const res = await upload(env.as('adminA'), base, details({ name: 'Forest mid-screening', kind: 'other' }), 'v1.geojson', collection([v1]));
    expect(res.status, res.raw).toBe(202);
    const id = res.body.data.id as string;
    expect(await settledLayer(env.as('adminA'), base, id)).toMatchObject({ status: 'ready', version: 1 });

    // The screening of version 1 again, two farms a transaction; after its first batch the layer is replaced, and the
    // job loads version 2 (swap, then its own screening of every farm) before the version-1 screening goes on.
    let batches = 0;
    const run = await screenLayerEverywhere(
      env.deps,
      { id, tenantId: env.fx.tenantA, version: 1 },
      async () => {
        if (batches++ > 0) return;
        const replaced = await upload(env.as('adminA'), `${base}${id}/replace/`, {}, 'v2.geojson', collection([v2]));
        expect(replaced.status, replaced.raw).toBe(202);
        expect(await settledLayer(env.as('adminA'), base, id)).toMatchObject({ status: 'ready', version: 2 });
      },
      { batchFarms: 2 },
    );
    // The version-1 screening saw the swap at its next batch and stopped, writing nothing more.
    expect(run).toMatchObject({ stopped: true, farms: 2 });
    expect(batches).toBe(1);
    const [all] = await env.sql<{ farms: number; screened: number; v2: number }>(sql`
      SELECT count(*)::int AS farms, count(s.farm_id)::int AS screened, (count(*) FILTER (WHERE s.layer_version = 2))::int AS v2
        FROM farms f LEFT JOIN farm_screenings s ON s.farm_id = f.id AND s.layer_id = ${id} WHERE f.tenant_id = ${env.fx.tenantA}`);
    expect(all!.screened).toBe(all!.farms);
    expect(all!.v2).toBe(all!.farms);
    // Each figure is version 2's alone: against v1 ∪ v2 the middle farm would be whole, against v1 the east one empty.
    for (const farmId of Object.values(mine)) {
      const fig = (await env.as('adminA').get(`/api/farms/${farmId}/screening/`)).body.data.figures.find((f: { layer_id: string }) => f.layer_id === id);
      expect(fig.layer_version).toBe(2);
      close(fig.overlap_sqm, (await referenceOverlap(farmId, [v2])).sqm);
    }
    const middle = (await env.as('adminA').get(`/api/farms/${mine.middle}/screening/`)).body.data.figures.find((f: { layer_id: string }) => f.layer_id === id);
    expect(middle.share).toBeGreaterThan(0.3);
    expect(middle.share).toBeLessThan(0.7);
    expect((await env.as('adminA').delete(`${base}${id}/`)).status).toBe(200);
  });
});

describe('reference layers: bad input', () => {
  const good = collection([polygon(square(10, 10, 50))]);

  it('names the field', async () => {
    const a = env.as('adminA');
    const cases: Array<[Record<string, string>, string, Buffer, string]> = [
      [details({ kind: 'rainforest' }), 'x.geojson', good, 'kind'],
      [details({ reference_date: '31/12/2020' }), 'x.geojson', good, 'reference_date'],
      [{ ...details(), name: '' }, 'x.geojson', good, 'name'],
      [{ kind: 'other', reference_date: '2020-12-31', source: 's', name: 'n' }, 'x.geojson', good, 'licence'],
      [details(), 'x.csv', Buffer.from('farm_name,farm_coordinates\na,b\n'), 'file'],
      [details(), 'x.geojson', Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'file'],
      [details(), 'x.geojson', Buffer.alloc(0), 'file'],
    ];
    for (const [fields, filename, content, field] of cases) {
      const res = await upload(a, '/api/reference-layers/', fields, filename, content);
      expect(res.status, `${field}: ${res.raw}`).toBe(400);
      expect(res.body.errors[field]?.[0], res.raw).toEqual(expect.any(String));
    }
    const noFile = await a.request({
      method: 'POST',
      url: '/api/reference-layers/',
      ...(() => {
        const m = multipart(details());
        return { payload: m.payload, headers: m.headers };
      })(),
    });
    expect(noFile.status).toBe(400);
    expect(noFile.body.errors.file[0]).toEqual(expect.any(String));
    const json = await a.post('/api/reference-layers/', details());
    expect(json.status).toBe(400);
    expect(json.body.errors.file[0]).toEqual(expect.any(String));
    for (const [body, field] of [
      [{ eudr_forest_review_share: 2 }, 'eudr_forest_review_share'],
      [{ eudr_min_overlap_sqm: -1 }, 'eudr_min_overlap_sqm'],
      [{ eudr_loss_high_share: 'x' }, 'eudr_loss_high_share'],
    ] as const) {
      const res = await a.put('/api/reference-layers/risk-settings/', body);
      expect(res.status).toBe(400);
      expect(res.body.errors[field][0]).toEqual(expect.any(String));
    }
    expect((await a.get('/api/reference-layers/?kind=rainforest')).body.errors.kind[0]).toEqual(expect.any(String));
  });

  it('a file in a coordinate system that cannot be placed on WGS84 fails its load with crs_unsupported', async () => {
    const doc = {
      type: 'FeatureCollection',
      crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::999999' } },
      features: [{ type: 'Feature', properties: {}, geometry: polygon(square(10, 10, 50)) }],
    };
    const res = await upload(env.as('adminA'), '/api/reference-layers/', details({ name: 'Odd CRS' }), 'odd.geojson', Buffer.from(JSON.stringify(doc)));
    expect(res.status).toBe(202);
    const layer = await settledLayer(env.as('adminA'), '/api/reference-layers/', res.body.data.id);
    expect(layer).toMatchObject({ status: 'failed', version: 0 });
    expect(layer['error']).toMatch(/crs_unsupported/);
  });
});
