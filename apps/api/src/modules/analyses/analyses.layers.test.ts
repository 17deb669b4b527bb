// Issue 29, reference layers in a custom analysis, through the API: a tenant loads synthetic layers (random polygons,
// some of hundreds of vertices so the load subdivides them, overlapping each other), runs an analysis of random plots
// choosing them, and every row's overlap equals native PostGIS on the raw, unsubdivided layer geometry
// (ST_Area(ST_Intersection(row, ST_Union(features))::geography)) within 1e-6 relative; every verdict follows the
// documented tree (docs/decisions/0072-eudr-plot-risk.md), implemented again here from the record, with the tenant's own
// thresholds; the detail, map and exports carry the figures; another tenant's layer is refused, and another tenant sees
// none of it. Bad input names reference_layer_ids.
import { sql } from 'drizzle-orm';
import { analysisMap } from '@farmland/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { arrangeTenant, multipart as analysisForm, rect } from '../../test/analysis-fixtures.js';
import { multipart as layerForm, offset } from '../../test/geo-fixtures.js';
import { testEnv, type Caller, type TestEnv } from '../../test/harness.js';
import { createRng } from '../../lib/prng.js';

let env: TestEnv;
let t: Awaited<ReturnType<typeof arrangeTenant>>;

const rng = createRng(29_031);
const LNG = 15.05;
const LAT = 0.35;
type Pos = [number, number];

/** A random star-shaped (so simple) polygon: n vertices at sorted angles, radii between 0.55 and 1 of `metres`. */
function star(lng: number, lat: number, metres: number, n: number): Pos[] {
  const ring: Pos[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * (i + 0.2 + 0.6 * rng.next())) / n;
    const r = metres * (0.55 + 0.45 * rng.next());
    ring.push(offset(lng, lat, r * Math.cos(a), r * Math.sin(a)));
  }
  return [...ring, ring[0]!];
}

const spot = (spreadM: number): Pos => offset(LNG, LAT, (rng.next() - 0.5) * spreadM, (rng.next() - 0.5) * spreadM);

type LayerSpec = { kind: string; name: string; polygons: Pos[][] };

const LAYERS: LayerSpec[] = [
  {
    kind: 'forest_2020',
    name: 'Synthetic forest 2020',
    polygons: Array.from({ length: 12 }, (_, i) => star(...spot(6000), 300 + rng.next() * 1200, i % 3 === 0 ? 300 + rng.int(0, 300) : rng.int(8, 60))),
  },
  { kind: 'tree_cover_loss', name: 'Synthetic loss', polygons: Array.from({ length: 5 }, () => star(...spot(6000), 100 + rng.next() * 300, rng.int(6, 20))) },
  { kind: 'protected_area', name: 'Synthetic park', polygons: [star(...spot(3000), 900, 420)] },
];

const PLOTS = Array.from({ length: 150 }, (_, i) => ({
  farm_name: `Plot ${i + 1}`,
  farm_coordinates: star(...spot(7000), 40 + rng.next() * 500, rng.int(4, 16)),
  own_id: `P-${i + 1}`,
}));

/** The tenant's thresholds for this test (not the defaults, so the run must read the tenant's). */
const SETTINGS = { eudr_min_overlap_sqm: 25, eudr_forest_review_share: 0.05, eudr_loss_high_share: 0.01, eudr_protected_high_share: 0 };

async function uploadLayer(caller: Caller, spec: LayerSpec): Promise<string> {
  const content = Buffer.from(
    JSON.stringify({
      type: 'FeatureCollection',
      features: spec.polygons.map((p, i) => ({ type: 'Feature', properties: { name: `F${i}` }, geometry: { type: 'Polygon', coordinates: [p] } })),
    }),
  );
  const body = layerForm({ name: spec.name, kind: spec.kind, reference_date: '2020-12-31', source: 'Synthetic test layer', licence: 'CC0-1.0' }, [
    { field: 'file', filename: 'layer.geojson', content },
  ]);
  const res = await caller.request({ method: 'POST', url: '/api/reference-layers/', payload: body.payload, headers: body.headers });
  expect(res.status, res.raw).toBe(202);
  return res.body.data.id as string;
}

/** Waits for a state, polling the API (the load and the run are background jobs). */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 90_000): Promise<T> {
  let v = await read();
  for (const end = Date.now() + timeoutMs; !done(v) && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 50));
    v = await read();
  }
  return v;
}

type Row = {
  row_number: number;
  name: string;
  category: string;
  risk: {
    level: string;
    reasons: Array<{ code: string; level: string; layer_id: string | null }>;
    figures: Array<{ layer_id: string; overlap_sqm: number; share: number; kind: string }>;
  } | null;
};

async function allRows(caller: Caller, id: string): Promise<Row[]> {
  const out: Row[] = [];
  for (const kind of ['within', 'outside', 'errors']) {
    for (let url: string | null = `/api/custom-analysis/${id}/${kind}/?after=0&page_size=100`; url;) {
      const res: { status: number; raw: string; body: any } = await caller.get(url);
      expect(res.status, res.raw).toBe(200);
      out.push(...res.body.data.results);
      url = res.body.data.next;
    }
  }
  return out.sort((a, b) => a.row_number - b.row_number);
}

/** The documented tree (docs/decisions/0072-eudr-plot-risk.md), written again from the record: level and reason codes. */
function documentedTree(
  figures: Array<{ kind: string; sqm: number; share: number }>,
  s: typeof SETTINGS,
  hasForest: boolean,
): { level: string; codes: string[] } {
  const rank: Record<string, number> = { low: 0, review: 1, high: 2 };
  const reasons: Array<[string, string]> = [];
  for (const f of figures) {
    if (f.sqm < s.eudr_min_overlap_sqm || f.sqm <= 0) continue; // rule 1: under the minimum area counts as none
    if (f.kind === 'tree_cover_loss' && f.share > s.eudr_loss_high_share) reasons.push(['tree_cover_loss', 'high']);
    if (f.kind === 'protected_area' && f.share > s.eudr_protected_high_share) reasons.push(['protected_area', 'high']);
    if (f.kind === 'forest_2020' && f.share > s.eudr_forest_review_share) reasons.push(['forest_2020', 'review']);
    if (f.kind === 'indigenous_land') reasons.push(['indigenous_land', 'review']);
    if (f.kind === 'concession') reasons.push(['concession', 'review']);
    if (f.kind === 'other') reasons.push(['other_layer', 'low']);
  }
  if (!hasForest) reasons.push(['no_forest_layer', 'review']);
  if (reasons.length === 0) return { level: 'low', codes: ['no_overlap'] };
  const level = reasons.reduce((m, [, l]) => (rank[l]! > rank[m]! ? l : m), 'low');
  return { level, codes: reasons.map(([c]) => c).sort() };
}

const closeTo = (actual: number, expected: number, what: string) => {
  if (expected === 0) expect(Math.abs(actual), what).toBeLessThan(1e-6);
  else expect(Math.abs(actual - expected) / expected, `${what}: ${actual} vs ${expected}`).toBeLessThan(1e-6);
};

describe('an analysis screened against reference layers', () => {
  const layerIds: string[] = [];
  let analysisId = '';

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [{ name: 'Layer area', ring: rect(LNG - 0.2, LAT - 0.2, LNG + 0.2, LAT + 0.2) }]);
    expect((await t.caller.put('/api/reference-layers/risk-settings/', SETTINGS)).status).toBe(200);
    for (const spec of LAYERS) layerIds.push(await uploadLayer(t.caller, spec));
    for (const id of layerIds) {
      const layer = await until(
        async () => (await t.caller.get(`/api/reference-layers/${id}/`)).body.data,
        (d) => d.status === 'ready' || d.status === 'failed',
      );
      expect(layer.status, JSON.stringify(layer)).toBe('ready');
    }
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'Screened plots',
      operational_areas: t.areaIds,
      locations: PLOTS,
      minimum_farm_size: 0,
      require_farm_recognition: false,
      reference_layer_ids: layerIds,
    });
    expect(res.status, res.raw).toBe(201);
    expect(res.body.data.reference_layers.map((l: { id: string }) => l.id)).toEqual(layerIds);
    analysisId = res.body.data.id;
    const done = await until(
      async () => (await t.caller.get(`/api/custom-analysis/${analysisId}/`)).body.data,
      (d) => d.status === 'completed' || d.status === 'failed',
    );
    expect(done.status, JSON.stringify(done.failure_reason)).toBe('completed');
  }, 240_000);

  it('lists the chosen layers with the version the run screened against', async () => {
    const d = (await t.caller.get(`/api/custom-analysis/${analysisId}/`)).body.data;
    expect(d.reference_layers).toEqual(LAYERS.map((l, i) => ({ id: layerIds[i], name: l.name, kind: l.kind, owner: 'tenant', version: 1 })));
  });

  it('the subdivided forest layer really is in pieces (the figures below cross piece boundaries)', async () => {
    const [p] = await env.sql<{ pieces: number; features: number }>(
      sql`SELECT count(*)::int AS pieces, count(DISTINCT feature)::int AS features FROM reference_layer_features WHERE layer_id = ${layerIds[0]}`,
    );
    expect(p!.pieces).toBeGreaterThan(p!.features);
  });

  it('every row: overlap and share equal PostGIS on the raw layer geometry (1e-6 relative), and the verdict follows the documented tree', async () => {
    const rows = await allRows(t.caller, analysisId);
    expect(rows).toHaveLength(PLOTS.length);
    // The reference: each raw layer as the union of its original polygons, intersected with each row's stored geometry.
    const layers = JSON.stringify(LAYERS.map((l) => l.polygons.map((p) => JSON.stringify({ type: 'Polygon', coordinates: [p] }))));
    const ref = await env.sql<{ n: number; i: number; sqm: number; a: number }>(sql`
      WITH raw AS (
        SELECT (l.ord - 1)::int AS i, ST_Union(ST_SetSRID(ST_GeomFromGeoJSON(g.value #>> '{}'), 4326)) AS g
          FROM jsonb_array_elements(${layers}::jsonb) WITH ORDINALITY AS l(polys, ord), jsonb_array_elements(l.polys) AS g
         GROUP BY l.ord)
      SELECT r.row_number AS n, raw.i, ST_Area(ST_Intersection(r.geom, raw.g)::geography) AS sqm, ST_Area(r.geom::geography) AS a
        FROM custom_analysis_rows r, raw WHERE r.analysis_id = ${analysisId} AND r.geom IS NOT NULL`);
    const byRow = new Map<number, Array<{ sqm: number; share: number }>>();
    for (const x of ref) {
      const list = byRow.get(x.n) ?? [];
      list[x.i] = { sqm: Number(x.sqm), share: Number(x.a) > 0 ? Number(x.sqm) / Number(x.a) : 0 };
      byRow.set(x.n, list);
    }
    let overlapping = 0;
    const levels: Record<string, number> = {};
    for (const row of rows) {
      expect(row.risk, `row ${row.row_number}`).not.toBeNull();
      const expected = byRow.get(row.row_number)!;
      expect(row.risk!.figures.map((f) => f.layer_id)).toEqual(layerIds);
      row.risk!.figures.forEach((f, i) => {
        closeTo(f.overlap_sqm, expected[i]!.sqm, `row ${row.row_number} layer ${i} overlap`);
        closeTo(f.share, expected[i]!.share, `row ${row.row_number} layer ${i} share`);
        if (f.overlap_sqm > 0) overlapping++;
      });
      const tree = documentedTree(
        expected.map((e, i) => ({ kind: LAYERS[i]!.kind, sqm: e.sqm, share: e.share })),
        SETTINGS,
        true,
      );
      expect(row.risk!.level, `row ${row.row_number}`).toBe(tree.level);
      expect(row.risk!.reasons.map((r) => r.code).sort(), `row ${row.row_number}`).toEqual(tree.codes);
      levels[tree.level] = (levels[tree.level] ?? 0) + 1;
    }
    // The random set reaches every branch that matters here: overlaps, and each verdict.
    expect(overlapping).toBeGreaterThan(20);
    expect(Object.keys(levels).sort()).toEqual(['high', 'low', 'review']);
  });

  it("the map carries each row's verdict; the exports carry verdict, reasons and per-layer figures, streamed", async () => {
    const map = (await t.caller.get(`/api/custom-analysis/${analysisId}/map/`)).body.data;
    expect(map.features.length).toBe(PLOTS.length);
    expect(analysisMap.safeParse(map).error).toBeUndefined();
    // Each row's map verdict is the row's own (the one its drawer shows), so the map can colour by it.
    const levels = new Map((await allRows(t.caller, analysisId)).map((r) => [r.row_number, r.risk?.level]));
    for (const f of map.features) {
      expect(['low', 'review', 'high']).toContain(f.risk_level);
      expect(f.risk_level, `row ${f.row_number}`).toBe(levels.get(f.row_number));
    }

    // Every plot lies inside the one operational area: the "within" category holds them all.
    const csv = await t.caller.get(`/api/custom-analysis/${analysisId}/export/?category=within&format=csv`);
    expect(csv.status).toBe(200);
    const header = csv.raw.split('\n')[0]!;
    for (const l of LAYERS) expect(header).toContain(`${l.name} overlap_m2`);
    for (const l of LAYERS) expect(header).toContain(`${l.name} share`);
    expect(header).toMatch(/(^|,)verdict,reasons,/);

    const geo = await t.caller.get(`/api/custom-analysis/${analysisId}/export/?category=within&format=geojson`);
    expect(geo.status).toBe(200);
    const fc = JSON.parse(geo.raw) as { features: Array<{ properties: Record<string, any> }> };
    expect(fc.features.length).toBeGreaterThan(0);
    for (const f of fc.features) {
      expect(['low', 'review', 'high']).toContain(f.properties['verdict']);
      expect(f.properties['reasons'].length).toBeGreaterThan(0);
      expect(f.properties['layers'].map((x: { layer_id: string }) => x.layer_id)).toEqual(layerIds);
    }
  });

  it('another tenant sees none of it: rows, map and export are 404', async () => {
    const b = env.as('adminB');
    for (const url of [
      `/api/custom-analysis/${analysisId}/`,
      `/api/custom-analysis/${analysisId}/outside/`,
      `/api/custom-analysis/${analysisId}/map/`,
      `/api/custom-analysis/${analysisId}/export/?category=outside&format=csv`,
    ]) {
      expect((await b.get(url)).status, url).toBe(404);
    }
    const [n] = await env.sql<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM custom_analysis_layers WHERE analysis_id = ${analysisId} AND tenant_id = ${t.tenantId}`,
    );
    expect(n!.n).toBe(LAYERS.length);
  });

  it("refuses another tenant's layer, an unknown one, too many, and a bad id, naming reference_layer_ids", async () => {
    const [other] = await env.sql<{ id: string }>(sql`
      INSERT INTO reference_layers (tenant_id, name, kind, reference_date, source, licence, status, progress, version)
      VALUES (${env.fx.tenantB}, 'Tenant B forest', 'forest_2020', '2020-12-31', 'B', 'CC0-1.0', 'ready', 100, 1) RETURNING id`);
    const body = (ids: unknown) => ({ operational_areas: t.areaIds, locations: PLOTS.slice(0, 2), reference_layer_ids: ids });
    for (const ids of [
      [other!.id],
      [layerIds[0], '00000000-0000-4000-8000-000000000000'],
      Array.from({ length: 11 }, () => crypto.randomUUID()),
      ['not-an-id'],
    ]) {
      const res = await t.caller.post('/api/custom-analysis/', body(ids));
      expect(res.status, res.raw).toBe(400);
      expect(res.raw).toContain('reference_layer_ids');
    }
    // Tenant B cannot name tenant A's (this tenant's) layer either.
    const b = await env
      .as('adminB')
      .post('/api/custom-analysis/', { operational_areas: [crypto.randomUUID()], locations: PLOTS.slice(0, 2), reference_layer_ids: [layerIds[0]] });
    expect(b.status).toBe(400);
  });

  it("takes the layers in a multipart upload (the console's wizard), repeated or as a list", async () => {
    const csv = Buffer.from(`farm_name,farm_coordinates\nA,"${JSON.stringify(PLOTS[0]!.farm_coordinates).replace(/"/g, '""')}"\n`);
    const form = analysisForm(
      { name: 'Multipart screened', operational_areas: t.areaIds, reference_layer_ids: [layerIds[0]!, layerIds[2]!], minimum_farm_size: '0' },
      'plots.csv',
      csv,
      'text/csv',
    );
    const res = await t.caller.request({ method: 'POST', url: '/api/custom-analysis/', payload: form.payload, headers: form.headers });
    expect(res.status, res.raw).toBe(201);
    expect(res.body.data.reference_layers.map((l: { id: string }) => l.id)).toEqual([layerIds[0], layerIds[2]]);
    const done = await until(
      async () => (await t.caller.get(`/api/custom-analysis/${res.body.data.id}/`)).body.data,
      (d) => d.status === 'completed' || d.status === 'failed',
    );
    expect(done.status).toBe('completed');
    const rows = await allRows(t.caller, res.body.data.id);
    expect(rows[0]!.risk!.figures).toHaveLength(2);
  });

  it('an analysis without layers carries no verdict and no layer columns', async () => {
    const res = await t.caller.post('/api/custom-analysis/', { operational_areas: t.areaIds, locations: PLOTS.slice(0, 3), minimum_farm_size: 0 });
    expect(res.status).toBe(201);
    expect(res.body.data.reference_layers).toEqual([]);
    await until(
      async () => (await t.caller.get(`/api/custom-analysis/${res.body.data.id}/`)).body.data,
      (d) => d.status === 'completed' || d.status === 'failed',
    );
    const rows = await allRows(t.caller, res.body.data.id);
    expect(rows.every((r) => r.risk === null)).toBe(true);
    const csv = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/export/?category=outside&format=csv`);
    expect(csv.raw.split('\n')[0]).not.toContain('verdict');
  });
});
