// Issue 29: the EU information system's geolocation checks on analysis rows, beside the issue-28 warnings: has_holes,
// point_over_4ha (a point whose declared area is 4 ha or more), outside_country (the file gives a country; the plot lies
// neither in it nor within 5 km of its Natural Earth 1:50m boundary: swapped coordinates, another country) and
// area_mismatch (the declared area against the computed one, over 10 % and 0.05 ha). The declared areas are computed by
// PostGIS here (ST_Area on the geography), never by the code under test. Read from GeoJSON properties (the EU file
// description's Area in ha, ProducerCountry) and from csv columns (area_m2 in m², country as alpha-3), on both engines.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { arrangeTenant, multipart, rect, settled } from '../../test/analysis-fixtures.js';

type P = [number, number];
const sq = (x: number, y: number, d = 0.0010003): P[] =>
  [
    [x, y],
    [x + d, y],
    [x + d, y + d],
    [x, y + d],
    [x, y],
  ].map(([a, b]): P => [Math.round(a! * 1e7) / 1e7, Math.round(b! * 1e7) / 1e7]);
const X = -5.5123457; // Côte d'Ivoire, about 100 km from any border or coast.
const Y = 7.5123457;

type Case = {
  name: string;
  geometry: { type: string; coordinates: unknown };
  country?: string;
  area?: (computedSqm: number) => number | null;
  expected: string[];
};

const holed = { type: 'Polygon', coordinates: [sq(X + 0.04, Y, 0.003), sq(X + 0.041, Y + 0.001, 0.0005).reverse()] };
const CASES: Case[] = [
  { name: 'Clean', geometry: { type: 'Polygon', coordinates: [sq(X, Y)] }, country: 'CI', area: (a) => a, expected: [] },
  {
    name: 'Point over 4 ha',
    geometry: { type: 'Point', coordinates: [X + 0.01, Y] },
    country: 'CI',
    area: () => 50_000,
    expected: ['point_not_polygon', 'point_over_4ha'],
  },
  { name: 'Small point', geometry: { type: 'Point', coordinates: [X + 0.02, Y] }, country: 'CI', area: () => 20_000, expected: ['point_not_polygon'] },
  {
    name: 'Coarse',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [-5.47, 7.51],
          [-5.469, 7.51],
          [-5.469, 7.511],
          [-5.47, 7.511],
          [-5.47, 7.51],
        ],
      ],
    },
    country: 'CI',
    area: (a) => a,
    expected: ['fewer_than_6_decimals'],
  },
  { name: 'Holed', geometry: holed, country: 'CI', area: (a) => a, expected: ['has_holes'] },
  { name: 'Swapped', geometry: { type: 'Polygon', coordinates: [sq(Y, X)] }, country: 'CI', area: (a) => a, expected: ['outside_country'] },
  {
    name: 'Declared half again',
    geometry: { type: 'Polygon', coordinates: [sq(X, Y + 0.01)] },
    country: 'CI',
    area: (a) => a * 1.5,
    expected: ['area_mismatch'],
  },
  { name: 'Declared 5 % more', geometry: { type: 'Polygon', coordinates: [sq(X, Y + 0.02)] }, country: 'CI', area: (a) => a * 1.05, expected: [] },
  // 36 % off, but by 400 m² only: a declared area rounded to 0.1 ha is off by up to 500 m².
  { name: 'Small, 400 m² off', geometry: { type: 'Polygon', coordinates: [sq(X, Y + 0.03, 0.0003)] }, country: 'CI', area: (a) => a + 400, expected: [] },
  { name: 'Declared Ghana', geometry: { type: 'Polygon', coordinates: [sq(X, Y + 0.04)] }, country: 'GH', expected: ['outside_country'] },
  { name: 'No country, no area', geometry: { type: 'Polygon', coordinates: [sq(Y, X + 0.01)] }, expected: [] },
];

describe('custom analysis: EUDR geolocation checks on rows (issue 29)', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;
  const declared = new Map<string, number | null>();

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [{ name: 'Côte d’Ivoire block', ring: rect(-6, 7, -5, 8) }]);
    for (const c of CASES) {
      const [r] = await env.sql<{ a: number }>(
        sql`SELECT ST_Area(ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(c.geometry)}), 4326)::geography)::float8 AS a`,
      );
      declared.set(c.name, c.area ? c.area(Number(r!.a)) : null);
    }
  });

  const run = async (filename: string, content: Buffer) => {
    const res = await t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ operational_areas: t.areaIds, minimum_farm_size: '1', require_farm_recognition: 'false' }, filename, content),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id as string;
    const detail = await settled(t.caller, id);
    expect(detail.status, JSON.stringify(detail)).toBe('completed');
    expect(detail.errors.count).toBe(0);
    const got = new Map<string, string[]>();
    for (const kind of ['within', 'outside']) {
      const list = await t.caller.get(`/api/custom-analysis/${id}/${kind}/?page_size=100`);
      for (const f of list.body.data.results as Array<{ name: string; warnings: string[] }>) got.set(f.name, f.warnings);
    }
    expect(Object.fromEntries(got)).toEqual(Object.fromEntries(CASES.map((c) => [c.name, c.expected])));
    expect(detail.with_warnings).toBe(CASES.filter((c) => c.expected.length > 0).length);
    // The exports and the result map carry them as they carry the issue-28 warnings.
    const map = await t.caller.get(`/api/custom-analysis/${id}/map/`);
    for (const f of map.body.data.features as Array<{ name: string; warnings?: string[] }>)
      expect(f.warnings ?? [], f.name).toEqual(CASES.find((c) => c.name === f.name)!.expected);
    return id;
  };

  it('reads the EU properties of a GeoJSON file (Area in ha, ProducerCountry)', async () => {
    const fc = {
      type: 'FeatureCollection',
      features: CASES.map((c) => {
        const a = declared.get(c.name);
        return {
          type: 'Feature',
          properties: {
            farm_name: c.name,
            ...(c.country ? { ProducerCountry: c.country } : {}),
            ...(a !== null && a !== undefined ? { Area: a / 10_000 } : {}),
          },
          geometry: c.geometry,
        };
      }),
    };
    await run('eudr.geojson', Buffer.from(JSON.stringify(fc)));
  });

  it('reads csv columns (area_m2 in m², the country as alpha-3)', async () => {
    const alpha3: Record<string, string> = { CI: 'CIV', GH: 'GHA' };
    const cell = (v: string) => `"${v.replace(/"/g, '""')}"`;
    const lines = CASES.map((c) => {
      const a = declared.get(c.name);
      return [cell(c.name), cell(JSON.stringify(c.geometry)), c.country ? alpha3[c.country] : '', a !== null && a !== undefined ? String(a) : ''].join(',');
    });
    await run('eudr.csv', Buffer.from(['farm_name,farm_coordinates,Country,area_m2', ...lines].join('\n')));
  });
});
