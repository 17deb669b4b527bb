// The EUDR export through the API: a valid GeoJSON FeatureCollection (RFC 7946: closed rings, exterior counter-clockwise,
// 6 decimals) whose coordinates round-trip to the registry's; farms under 4 ha as points when asked; CSV and KML; the
// tenant's farms only; 400 for a bad format or a part that does not exist; and the split into parts (unit).
import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { sql } from 'drizzle-orm';
import type { EudrExportQuery } from '@farmland/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ctx } from '../../context.js';
import { exportEudr } from './eudr-export.service.js';
import { freshSpot, insertFarmDirect, square, tenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { boundTerms, formatter, frame, planParts, splitParts, type EudrFormat } from './eudr-formats.js';
import { packBuckets } from './eudr-buckets.js';
import { eudrBatch, eudrPlan, farmerBytesSql, itemBoundSql, layerCount, type EudrOptions } from './eudr-export.queries.js';
import { queryRows, withScope } from '../../db/client.js';

let env: TestEnv;
let small: string;
let large: string;

beforeAll(async () => {
  env = await testEnv();
  const g = await tenantGeo(env, env.fx.tenantA);
  const p = freshSpot();
  small = await insertFarmDirect(env, env.fx.tenantA, g.farmerId, square(p[0], p[1], 100)); // 1 ha
  large = await insertFarmDirect(env, env.fx.tenantA, g.farmerId, square(p[0] + 0.01, p[1], 300)); // 9 ha
});

type Feature = { type: string; geometry: { type: string; coordinates: any }; properties: Record<string, unknown> };
const signedArea = (ring: number[][]) => ring.slice(0, -1).reduce((a, [x1, y1], i) => a + x1! * ring[i + 1]![1]! - ring[i + 1]![0]! * y1!, 0);
const decimals = (n: number) => (String(n).split('.')[1] ?? '').length;

describe('GET /farms/export/eudr', () => {
  it('answers 404 to provider staff naming a tenant that does not exist (and writes no log entry for it)', async () => {
    const res = await env.as('super').get('/api/farms/export/eudr?format=csv&tenant_id=7fb080fe-d23f-4e8f-9011-f0999678e6c2');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Tenant not found.');
  });

  it('writes a valid GeoJSON FeatureCollection whose coordinates round-trip to 6 decimals', async () => {
    // Every farm (plots=all): by default a plot the EU system would refuse (a hole, from another test file) is left out.
    const res = await env.as('adminA').get('/api/farms/export/eudr?plots=all');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/geo+json');
    expect(res.headers['content-disposition']).toContain('farms-eudr.geojson');
    expect(res.headers['x-export-parts']).toBe('1');
    const fc = JSON.parse(res.raw) as { type: string; features: Feature[] };
    expect(fc.type).toBe('FeatureCollection');
    const count = (await env.as('adminA').get('/api/farms/?page_size=1')).body.data.count;
    expect(fc.features).toHaveLength(count);
    for (const f of fc.features) {
      expect(f.type).toBe('Feature');
      if (f.geometry.type === 'Point') {
        // A point plot of at most 4 ha (another test file of this worker may have captured one) is its point (0087).
        const farm = (await env.as('adminA').get(`/api/farms/${String(f.properties['farm_id'])}/`)).body.data;
        const [x, y] = f.geometry.coordinates as number[];
        expect(Math.abs(x! - farm.point[0]) <= 6e-7 && Math.abs(y! - farm.point[1]) <= 6e-7, JSON.stringify([f.geometry, farm.point])).toBe(true);
        expect(farm.declared_area_sqm).toBeLessThanOrEqual(40_000);
        expect(Math.max(decimals(x!), decimals(y!))).toBeLessThanOrEqual(6);
        continue;
      }
      expect(f.geometry.type).toBe('Polygon');
      const ring = f.geometry.coordinates[0] as number[][];
      expect(ring.length).toBeGreaterThanOrEqual(4);
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      expect(signedArea(ring)).toBeGreaterThan(0); // RFC 7946: exterior rings counter-clockwise
      for (const [x, y] of ring) expect(Math.max(decimals(x!), decimals(y!))).toBeLessThanOrEqual(6);
      expect(Object.keys(f.properties).sort()).toEqual(['area_ha', 'country', 'farm_id', 'farm_name', 'farmer', 'risk', 'risk_reasons', 'warnings']);
    }
    const mine = fc.features.find((f) => f.properties['farm_id'] === large)!;
    expect(mine.properties['country']).toBe('NG');
    // Round trip: the same positions as the registry's (as a set: the export may reverse the winding), and its area.
    const farm = (await env.as('adminA').get(`/api/farms/${large}/`)).body.data;
    expect(Number(mine.properties['area_ha'])).toBeCloseTo(farm.area / 10_000, 3);
    expect(Number(mine.properties['area_ha'])).toBeGreaterThan(8);
    const exported = mine.geometry.coordinates[0] as number[][];
    const registry = farm.coordinates as number[][];
    expect(exported).toHaveLength(registry.length);
    for (const p of registry) {
      // Within rounding to 6 decimals (PostGIS rounds; 1e-6 degrees is about 0.1 m).
      expect(
        exported.some((q) => Math.abs(q[0]! - p[0]!) <= 6e-7 && Math.abs(q[1]! - p[1]!) <= 6e-7),
        JSON.stringify(p),
      ).toBe(true);
    }
  });

  it('exports farms under 4 ha as their centroid when asked, and only those', async () => {
    const res = await env.as('adminA').get('/api/farms/export/eudr?points_below_4ha=true');
    const fc = JSON.parse(res.raw) as { features: Feature[] };
    const s = fc.features.find((f) => f.properties['farm_id'] === small)!;
    const l = fc.features.find((f) => f.properties['farm_id'] === large)!;
    expect(s.geometry.type).toBe('Point');
    expect(l.geometry.type).toBe('Polygon');
    const farm = (await env.as('adminA').get(`/api/farms/${small}/`)).body.data;
    const xs = (farm.coordinates as number[][]).map((p) => p[0]!);
    expect(s.geometry.coordinates[0]).toBeGreaterThan(Math.min(...xs));
    expect(s.geometry.coordinates[0]).toBeLessThan(Math.max(...xs));
  });

  it("writes CSV and KML, and never another tenant's farms", async () => {
    const csv = await env.as('adminA').get('/api/farms/export/eudr?format=csv');
    expect(csv.headers['content-disposition']).toContain('farms-eudr.csv');
    const lines = csv.raw.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('farm_id,farm_name,farmer,area_ha,country,geometry_type,geometry,warnings,part,risk,risk_reasons');
    expect(csv.raw).toContain(large);
    const kml = await env.as('adminA').get('/api/farms/export/eudr?format=kml&points_below_4ha=true');
    expect(kml.headers['content-type']).toContain('kml');
    expect(kml.raw).toMatch(/^<\?xml/);
    expect(kml.raw).toContain('<outerBoundaryIs><LinearRing><coordinates>');
    expect(kml.raw).toContain('<Point><coordinates>');
    const b = await env.as('adminB').get('/api/farms/export/eudr?format=csv');
    expect(b.raw).not.toContain(large);
    expect(b.raw).not.toContain(small);
  });

  it('answers 400 for a bad format or a part that does not exist, 403 to agents', async () => {
    expect((await env.as('adminA').get('/api/farms/export/eudr?format=shp')).status).toBe(400);
    const res = await env.as('adminA').get('/api/farms/export/eudr?part=2');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)[0]).toBe('part');
    expect((await env.as('agentA').get('/api/farms/export/eudr')).status).toBe(403);
  });
});

describe('splitting into parts', () => {
  it('keeps every part within the limit, each a complete file, and loses no item', () => {
    const f = formatter('geojson');
    const items = Array.from({ length: 100 }, (_, i) => JSON.stringify({ type: 'Feature', geometry: null, properties: { i } }));
    const parts = splitParts(items, f, 1000);
    expect(parts.length).toBeGreaterThan(1);
    const back: unknown[] = [];
    for (const p of parts) {
      expect(Buffer.byteLength(p)).toBeLessThanOrEqual(1000);
      back.push(...(JSON.parse(p) as { features: unknown[] }).features);
    }
    expect(back).toEqual(items.map((s) => JSON.parse(s)));
    expect(splitParts([], f, 1000)).toEqual(['{"type":"FeatureCollection","features":[]}']);
  });
});

describe('streamed parts', () => {
  it('streams each planned part as a complete file within the limit, every farm once, in id order', async () => {
    const [admin] = await env.sql<{ id: string; tenant_id: string }>(sql`SELECT id, tenant_id FROM users WHERE id = ${env.fx.adminA}`);
    const ctx: Ctx = {
      actor: { userId: admin!.id, sessionId: randomUUID(), role: 'tenant_admin', tenantId: admin!.tenant_id, name: 'Admin A', email: 'a@example.com' },
      platform: 'web',
      ip: '127.0.0.1',
      country: null,
      requestId: 'eudr-parts',
    };
    // Each plot now carries its warnings and verdict (issue 29), about a third more bytes: a larger limit keeps the
    // number of parts (each a full planning pass over the farms) about what it was.
    const limit = 6_000;
    const first = await exportEudr(env.deps, ctx, { format: 'geojson', part: 1, plots: 'all' } as EudrExportQuery, limit);
    expect(first.parts).toBeGreaterThan(2);
    const ids: string[] = [];
    for (let part = 1; part <= first.parts; part++) {
      const file = part === 1 ? first : await exportEudr(env.deps, ctx, { format: 'geojson', part, plots: 'all' } as EudrExportQuery, limit);
      expect(file.parts).toBe(first.parts);
      const text = (await buffer(file.stream)).toString('utf8');
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(limit);
      const fc = JSON.parse(text) as { features: Feature[] };
      expect(fc.features.length).toBeGreaterThan(0);
      ids.push(...fc.features.map((f) => String(f.properties['farm_id'])));
    }
    const [n] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${env.fx.tenantA}`);
    expect(ids).toHaveLength(n!.n);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    await expect(exportEudr(env.deps, ctx, { format: 'geojson', part: first.parts + 1 } as EudrExportQuery, limit)).rejects.toMatchObject({ status: 400 });
  });
});

describe('point plots (0087)', () => {
  it('writes a point plot of at most 4 ha as its point with its declared area in ha, in every format', async () => {
    // In tenant B: tenant A's file test above expects polygons only.
    const g = await tenantGeo(env, env.fx.tenantB);
    const p = freshSpot();
    const id = await insertFarmDirect(env, env.fx.tenantB, g.farmerId, square(p[0], p[1], 150));
    // The plot as the API stores it: its centre and declared area (its polygon is the device's or the 48-gon).
    await env.sql(sql`UPDATE farms SET point = ST_SetSRID(ST_MakePoint(${p[0] + 0.0004}, ${p[1] + 0.0003}), 4326), declared_area_sqm = 23456 WHERE id = ${id}`);
    const [want] = await env.sql<{ x: number; y: number }>(
      sql`SELECT round(ST_X(point)::numeric, 6)::float8 AS x, round(ST_Y(point)::numeric, 6)::float8 AS y FROM farms WHERE id = ${id}`,
    );
    const fc = JSON.parse((await env.as('adminB').get('/api/farms/export/eudr')).raw) as { features: Feature[] };
    const mine = fc.features.find((f) => f.properties['farm_id'] === id)!;
    expect(mine.geometry).toEqual({ type: 'Point', coordinates: [want!.x, want!.y] });
    expect(mine.properties['area_ha']).toBe(2.3456);
    expect(mine.properties['warnings']).not.toContain('point_over_4ha');
    const csv = (await env.as('adminB').get('/api/farms/export/eudr?format=csv')).raw.split('\r\n').find((l) => l.startsWith(id))!;
    expect(csv).toContain(',2.3456,');
    expect(csv).toContain(',Point,');
    const kml = (await env.as('adminB').get('/api/farms/export/eudr?format=kml')).raw;
    const placemark = kml.split('<Placemark>').find((x) => x.includes(id))!;
    expect(placemark).toContain(`<Point><coordinates>${want!.x},${want!.y}</coordinates></Point>`);
    expect(placemark).toContain('<Data name="area_ha"><value>2.3456</value></Data>');
    // A farm with a declared area but no point is not a point plot: its polygon and its measured area.
    const other = await insertFarmDirect(env, env.fx.tenantB, g.farmerId, square(p[0] + 0.01, p[1], 150));
    await env.sql(sql`UPDATE farms SET declared_area_sqm = 20000 WHERE id = ${other}`);
    const fc2 = JSON.parse((await env.as('adminB').get('/api/farms/export/eudr')).raw) as { features: Feature[] };
    const o = fc2.features.find((f) => f.properties['farm_id'] === other)!;
    expect(o.geometry.type).toBe('Polygon');
    expect(Number(o.properties['area_ha'])).toBeCloseTo(2.25, 1);
  });
});

describe('part plan (issue 28)', () => {
  it("bounds every farm's written bytes from above, in every format and option, and the plan packs id buckets (planParts's rule farm by farm past a bucket over the budget)", async () => {
    // Farms whose text is escaped in every way (quotes, markup, control characters, a formula, non-Latin letters) and a
    // plot with holes, on a farmer whose name needs escaping too.
    const g = await tenantGeo(env, env.fx.tenantA);
    const [farmer] = await env.sql<{ id: string }>(sql`
      INSERT INTO farmers (tenant_id, first_name, last_name, folio_id, country_id)
      VALUES (${env.fx.tenantA}, ${'"Ngozi" <&>'}, ${"O'Neil\u0001\n=1+1 農"}, 'F-BOUND', ${g.countryId}) RETURNING id`);
    const names = ['"quoted", name', "<b>&amp;</b> 'x'", 'tab\there\u0002\u001f', '=HYPERLINK("x")', 'Ñandú 農場 🌱', ''.padEnd(300, '"')];
    for (const name of names) {
      const p = freshSpot();
      const id = await insertFarmDirect(env, env.fx.tenantA, farmer!.id, square(p[0], p[1], 120));
      await env.sql(sql`UPDATE farms SET name = ${name} WHERE id = ${id}`);
    }
    const p = freshSpot();
    const holed = await insertFarmDirect(env, env.fx.tenantA, farmer!.id, square(p[0], p[1], 400));
    await env.sql(
      sql`UPDATE farms SET geom = ST_Difference(geom, ST_Union(ST_Buffer(ST_Centroid(geom), 0.0004), ST_Buffer(ST_Translate(ST_Centroid(geom), 0.0012, 0.0012), 0.0003))) WHERE id = ${holed}`,
    );
    const [h] = await env.sql<{ holes: number; stored: number; points: number; n: number }>(
      sql`SELECT ST_NumInteriorRings(geom) AS holes, geom_holes AS stored, geom_points AS points, ST_NPoints(geom) AS n FROM farms WHERE id = ${holed}`,
    );
    expect(h!.holes).toBe(2);
    expect(h!.stored).toBe(2); // the generated counts follow the geometry's update
    expect(h!.points).toBe(h!.n);

    const scope = { kind: 'tenant', tenantId: env.fx.tenantA } as const;
    for (const format of ['geojson', 'csv', 'kml'] as EudrFormat[]) {
      for (const opts of [
        { pointsBelow4ha: false, passingOnly: false, splitHoles: false },
        { pointsBelow4ha: true, passingOnly: false, splitHoles: true },
        { pointsBelow4ha: false, passingOnly: true, splitHoles: false },
      ] as EudrOptions[]) {
        const f = formatter(format);
        await withScope(env.deps.db, scope, async (tx) => {
          const layers = await layerCount(tx);
          const t = boundTerms(format, layers);
          const bounds = await queryRows<{ id: string; b: number }>(
            tx,
            sql`
            SELECT f.id::text AS id, ${itemBoundSql(t, opts)}::float8 AS b FROM farms f CROSS JOIN ${farmerBytesSql(t, env.fx.tenantA)}
             WHERE f.tenant_id = ${env.fx.tenantA} ORDER BY f.id`,
          );
          const rows = await eudrBatch(tx, env.fx.tenantA, opts, null, 10_000);
          expect(rows.length).toBeGreaterThan(names.length);
          const byId = new Map(bounds.map((b) => [b.id, Number(b.b)]));
          for (const r of rows) {
            // The longest verdict there can be: a reason per layer and two more, each with the longest code.
            r.risk = {
              level: 'review',
              reasons: Array.from({ length: layers + 2 }, () => ({ code: 'no_forest_layer', level: 'review', message: '', layer_id: null })),
            } as never;
            const bytes = Buffer.byteLength(f.item(r)) + frame(f).sep;
            expect(byId.get(r.id), `${format} ${JSON.stringify(opts)} ${r.name}`).toBeGreaterThanOrEqual(bytes);
          }
          const exportedIds = new Set(rows.map((r) => r.id));
          const items = bounds.filter((b) => exportedIds.has(b.id)).map((b) => ({ key: b.id, bytes: Number(b.b) }));
          const asBounds = (got: Array<{ count: number; last: string }>) => got.map((x, i) => ({ after: i > 0 ? got[i - 1]!.last : null, count: x.count }));
          // The plan by id bucket: the farms' bounds summed per bucket (the id's first three hex digits) here, packed in
          // order (a small budget: many parts); each part reads its farms from after the previous bucket's end.
          const buckets = new Map<number, { bucket: number; bytes: number; count: number }>();
          for (const i of items) {
            const bucket = parseInt(i.key.slice(0, 3), 16);
            const b = buckets.get(bucket) ?? { bucket, bytes: 0, count: 0 };
            b.bytes += i.bytes;
            b.count++;
            buckets.set(bucket, b);
          }
          const ordered = [...buckets.values()].sort((a, b) => a.bucket - b.bucket);
          const budget = Math.max(8_000, ...ordered.map((b) => b.bytes));
          const want = packBuckets(ordered, budget)!;
          const got = await eudrPlan(tx, env.fx.tenantA, opts, t, budget);
          expect(want.length).toBeGreaterThan(2);
          expect(got).toEqual(want);
          // Each part's "after" is the previous part's last bucket's end: reading its count from there gives its farms.
          for (const [k, p] of asBounds(got).entries()) {
            const part = await eudrBatch(tx, env.fx.tenantA, opts, p.after, p.count);
            expect(part.map((r) => r.id)).toEqual(
              items
                .slice(want.slice(0, k).reduce((n, x) => n + x.count, 0))
                .slice(0, p.count)
                .map((i) => i.key),
            );
          }
          // One bucket alone over the budget: farm by farm, planParts's rule over the same bounds, in the same order.
          const small = Math.max(...ordered.map((b) => b.bytes)) - 1;
          expect(asBounds(await eudrPlan(tx, env.fx.tenantA, opts, t, small))).toEqual(planParts(items, small));
        });
      }
    }
  });
});
