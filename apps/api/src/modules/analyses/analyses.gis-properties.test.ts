// Issue 13, as a property: random uploads of polygons, polygons with holes, MultiPolygons (whose parts may overlap, touch
// or stay apart) and points, each sent at random as GeoJSON, WKT or MultiPolygon coordinates, are compared row by row
// with an independent PostGIS computation on the same geometries parsed by PostGIS from WKT: validity, geodesic area,
// the covering area, the overlap flag and the overlap groups (connected components of ST_Relate '2********').
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { arrangeTenant, outcome } from '../../test/analysis-fixtures.js';

const CELL = 0.001;
/** Half-cell k → degrees, rounded so that equal k give equal numbers (shared edges stay exactly shared). */
const at = (k: number) => Number(((20_570 + k) * CELL * 0.5).toFixed(7));

type Box = { x: number; y: number; w: number; h: number };
type Shape = { kind: 'polygon'; box: Box; hole: boolean } | { kind: 'multi'; parts: Box[] } | { kind: 'point'; x: number; y: number };
type Form = 'geojson' | 'wkt' | 'coords';

const boxArb: fc.Arbitrary<Box> = fc.record({
  x: fc.integer({ min: 0, max: 8 }),
  y: fc.integer({ min: 0, max: 8 }),
  w: fc.integer({ min: 1, max: 3 }),
  h: fc.integer({ min: 1, max: 3 }),
});
const shapeArb: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({ kind: fc.constant('polygon' as const), box: boxArb, hole: fc.boolean() }),
  fc.record({ kind: fc.constant('multi' as const), parts: fc.array(boxArb, { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('point' as const), x: fc.integer({ min: 0, max: 16 }), y: fc.integer({ min: 0, max: 16 }) }),
);
const formArb: fc.Arbitrary<Form> = fc.constantFrom('geojson', 'wkt', 'coords');

/** Counter-clockwise ring of a box in degrees (x0 y0 … closed); a hole is the middle quarter, clockwise. */
function ring(b: Box, hole = false): number[][] {
  if (hole) {
    const [x0, y0, x1, y1] = [at(b.x) + (b.w * CELL) / 8, at(b.y) + (b.h * CELL) / 8, at(b.x + b.w) - (b.w * CELL) / 8, at(b.y + b.h) - (b.h * CELL) / 8].map(
      (v) => Number(v.toFixed(7)),
    );
    return [
      [x0!, y0!],
      [x0!, y1!],
      [x1!, y1!],
      [x1!, y0!],
      [x0!, y0!],
    ];
  }
  const [x0, y0, x1, y1] = [at(b.x), at(b.y), at(b.x + b.w), at(b.y + b.h)];
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ];
}

const wktRing = (r: number[][]) => `(${r.map((p) => `${p[0]} ${p[1]}`).join(', ')})`;

/** The shape as WKT (PostGIS's reference parse) and as the value sent in the chosen form. */
function encode(s: Shape, form: Form): { wkt: string; value: unknown } {
  if (s.kind === 'point') {
    const p = [at(s.x), at(s.y)];
    return { wkt: `POINT(${p[0]} ${p[1]})`, value: form === 'wkt' ? `POINT (${p[0]} ${p[1]})` : form === 'coords' ? p : { type: 'Point', coordinates: p } };
  }
  const polys = s.kind === 'polygon' ? [[ring(s.box), ...(s.hole ? [ring(s.box, true)] : [])]] : s.parts.map((b) => [ring(b)]);
  const multi = s.kind === 'multi';
  const wkt = multi ? `MULTIPOLYGON(${polys.map((p) => `(${p.map(wktRing).join(',')})`).join(',')})` : `POLYGON(${polys[0]!.map(wktRing).join(',')})`;
  const value =
    form === 'wkt'
      ? wkt
      : form === 'coords'
        ? multi
          ? polys
          : polys[0]
        : { type: 'Feature', properties: {}, geometry: multi ? { type: 'MultiPolygon', coordinates: polys } : { type: 'Polygon', coordinates: polys[0] } };
  return { wkt, value };
}

describe('custom analysis properties: GIS geometry forms against PostGIS (issue 13)', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [
      {
        name: 'Left',
        ring: [
          [at(-2), at(-2)],
          [at(6), at(-2)],
          [at(6), at(20)],
          [at(-2), at(20)],
          [at(-2), at(-2)],
        ],
      },
      {
        name: 'Right',
        ring: [
          [at(6), at(-2)],
          [at(12), at(-2)],
          [at(12), at(20)],
          [at(6), at(20)],
          [at(6), at(-2)],
        ],
      },
    ]);
  });

  it('classifies every row as PostGIS does on the same geometry', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(shapeArb, formArb), { minLength: 1, maxLength: 14 }), async (rows) => {
        const encoded = rows.map(([s, f]) => encode(s, f));
        const res = await t.caller.post('/api/custom-analysis/', {
          name: 'gis-prop',
          operational_areas: t.areaIds,
          locations: encoded.map((e, i) => ({ farm_name: `F${i + 1}`, farm_coordinates: e.value })),
          minimum_farm_size: 1,
          require_farm_recognition: false,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        const { rows: got } = await outcome(t.caller, res.body.data.id);
        const input = JSON.stringify(encoded.map((e, i) => ({ n: i + 1, wkt: e.wkt })));
        const ref = await env.sql<{ n: number; valid: boolean; area: number; within: string | null; partners: number[] | null }>(sql`
          WITH x AS (SELECT s.n, ST_GeomFromText(s.wkt, 4326) AS g FROM jsonb_to_recordset(${input}::jsonb) AS s(n int, wkt text)),
               v AS (SELECT x.n, x.g, ST_IsValid(x.g) AS valid FROM x)
          SELECT v.n, v.valid, ST_Area(v.g::geography) AS area,
                 (SELECT a.name FROM operational_areas a WHERE a.tenant_id = ${t.tenantId} AND v.valid AND ST_Covers(a.geom, v.g) ORDER BY a.name LIMIT 1) AS within,
                 (SELECT array_agg(w.n) FROM v w WHERE v.valid AND w.n <> v.n AND w.valid AND ST_Relate(v.g, w.g, '2********')) AS partners
            FROM v ORDER BY v.n`);
        // Connected components of the reference overlap graph.
        const parent = new Map(ref.map((r) => [r.n, r.n]));
        const find = (x: number): number => (parent.get(x) === x ? x : find(parent.get(x)!));
        for (const r of ref) for (const p of r.partners ?? []) parent.set(find(p), find(r.n));
        for (const r of ref) {
          const g = got.get(r.n)!;
          const what = `row ${r.n}: ${encoded[r.n - 1]!.wkt}`;
          if (!r.valid) {
            expect(g.errors, what).toEqual(['invalid_polygon']);
            continue;
          }
          expect(g.errors, what).toEqual([]);
          expect(g.category, what).toBe(r.within ? 'within' : 'outside');
          expect(g.operational_area, what).toBe(r.within);
          if (r.area === 0) expect(g.area, what).toBe(0);
          else expect(g.area! / r.area, what).toBeCloseTo(1, 9);
          expect(g.is_overlapping, what).toBe((r.partners ?? []).length > 0);
        }
        for (const a of ref) {
          for (const b of ref) {
            const ga = got.get(a.n)!;
            const gb = got.get(b.n)!;
            if (a.n < b.n && ga.is_overlapping && gb.is_overlapping)
              expect(ga.overlapping_id === gb.overlapping_id, `rows ${a.n}, ${b.n}`).toBe(find(a.n) === find(b.n));
          }
        }
      }),
      { numRuns: 8, seed: 20261123 },
    );
  }, 240_000);
});
