// Issue 28 §4: repairs and doubtful input are per-row warnings beside the errors (ring_closed,
// duplicate_vertices_removed, fewer_than_6_decimals, point_not_polygon). The rows are analysed, not failed; the warnings
// show in the category lists and both exports, and the result counts the rows that have one. Clean rows have none.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { arrangeTenant, multipart, rect, settled } from '../../test/analysis-fixtures.js';
import { hasOgr2ogr } from '../../ingest/crs-gdal.js';
import { stageRow } from './analyses.rows.js';

type P = [number, number];
/** A ~110 m square at (x, y), 7 decimals, closed. */
const ring = (x: number, y: number, d = 0.0010003): P[] => [
  [x, y],
  [x + d, y],
  [x + d, y + d],
  [x, y + d],
  [x, y],
];
const r7 = (v: number) => Math.round(v * 1e7) / 1e7;
const fine = (x: number, y: number) => ring(x, y).map(([a, b]): P => [r7(a), r7(b)]);

/** name → [coordinates, expected warnings]. */
const CASES: Array<[string, unknown, string[]]> = [
  ['Clean', fine(10.0112345, 10.0112345), []],
  ['Open', fine(10.0312345, 10.0112345).slice(0, 4), ['ring_closed']],
  [
    'Repeats',
    (() => {
      const r = fine(10.0512345, 10.0112345);
      return [r[0], r[1], r[1], r[2], r[3], r[3], r[4]];
    })(),
    ['duplicate_vertices_removed'],
  ],
  [
    'Coarse',
    [
      [10.07, 10.01],
      [10.071, 10.01],
      [10.071, 10.011],
      [10.07, 10.011],
      [10.07, 10.01],
    ],
    ['fewer_than_6_decimals'],
  ],
  ['Point', [10.0912345, 10.0112345], ['point_not_polygon']],
  ['Coarse point', [10.11, 10.01], ['fewer_than_6_decimals', 'point_not_polygon']],
  [
    'All repairs',
    (() => {
      const r = [
        [10.13, 10.01],
        [10.131, 10.01],
        [10.131, 10.011],
        [10.13, 10.011],
      ];
      return [r[0], r[0], r[1], r[2], r[3]];
    })(),
    ['ring_closed', 'duplicate_vertices_removed', 'fewer_than_6_decimals'],
  ],
  // The same polygon as Clean, given open: an exact twin (its verdict copied) keeps its own warning.
  ['Open twin', fine(10.0112345, 10.0112345).slice(0, 4), ['ring_closed']],
  // Outside the area, with a warning: the warning does not depend on the category.
  ['Far open', fine(11.5112345, 11.5112345).slice(0, 4), ['ring_closed']],
];

const csvCell = (v: string) => `"${v.replace(/"/g, '""')}"`;

/** Reads one csv line into cells (quoted cells may hold commas and doubled quotes). */
function cells(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        v += line.slice(i, q);
        if (line[q + 1] === '"') {
          v += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(v);
      i++;
    } else {
      const c = line.indexOf(',', i);
      const end = c < 0 ? line.length : c;
      out.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

describe('custom analysis: row warnings (issue 28)', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [{ name: 'Block', ring: rect(10.0, 10.0, 10.2, 10.2) }]);
  });

  const check = async (filename: string, content: Buffer) => {
    const res = await t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ operational_areas: t.areaIds, minimum_farm_size: '1', require_farm_recognition: 'false' }, filename, content),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id as string;
    const detail = await settled(t.caller, id);
    expect(detail.status, JSON.stringify(detail)).toBe('completed');
    const expected = new Map(CASES.map(([name, , w]) => [name, w]));
    const rowsWithWarnings = CASES.filter(([, , w]) => w.length > 0).length;

    // Analysed, not failed; the summary counts the rows with a warning.
    expect(detail.errors.count).toBe(0);
    expect(detail.within_operational_area.count).toBe(CASES.length - 1);
    expect(detail.outside_operational_area.count).toBe(1);
    expect(detail.with_warnings).toBe(rowsWithWarnings);

    // The category lists carry each row's warnings.
    const listed = new Map<string, string[]>();
    for (const kind of ['within', 'outside']) {
      const list = await t.caller.get(`/api/custom-analysis/${id}/${kind}/?page_size=100`);
      expect(list.status).toBe(200);
      for (const f of list.body.data.results as Array<{ name: string; warnings: string[]; category: string; errors: unknown[] }>) {
        expect(f.errors).toEqual([]);
        listed.set(f.name, f.warnings);
      }
    }
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(expected));
    // The result map's rows carry them too (absent when none), for the farm drawer.
    const map = await t.caller.get(`/api/custom-analysis/${id}/map/`);
    expect(map.status).toBe(200);
    const features = map.body.data.features as Array<{ name: string; warnings?: string[] }>;
    expect(features.length).toBe(CASES.length);
    for (const f of features) expect(f.warnings ?? [], f.name).toEqual(expected.get(f.name));
    expect(features.find((f) => f.name === 'Clean')).not.toHaveProperty('warnings');
    const twin = await env.sql<{ dup_of: number | null }>(sql`SELECT dup_of FROM custom_analysis_rows WHERE analysis_id = ${id} AND farm_name = 'Open twin'`);
    expect(twin[0]!.dup_of, 'the open twin was copied from its first copy').toBe(1);

    // Both exports carry them: the csv column `warnings` (codes joined by ";"), the GeoJSON property `warnings` (an array).
    for (const category of ['within', 'outside']) {
      const csv = await t.caller.get(`/api/custom-analysis/${id}/export/?category=${category}&format=csv`);
      expect(csv.status).toBe(200);
      const [head, ...lines] = csv.raw.trim().split('\r\n');
      const header = cells(head!);
      const w = header.indexOf('warnings');
      expect(w).toBe(header.indexOf('errors') + 1);
      for (const line of lines) {
        const c = cells(line);
        expect(c.length).toBe(header.length);
        const name = c[header.indexOf('farm_name')]!;
        expect(c[w], name).toBe(expected.get(name)!.join(';'));
      }
      const geo = await t.caller.get(`/api/custom-analysis/${id}/export/?category=${category}&format=geojson`);
      expect(geo.status).toBe(200);
      const fc = JSON.parse(geo.raw) as { features: Array<{ properties: { farm_name: string; warnings: string[] } }> };
      expect(fc.features.length).toBe(lines.length);
      for (const f of fc.features) expect(f.properties.warnings, f.properties.farm_name).toEqual(expected.get(f.properties.farm_name));
    }
    return id;
  };

  it('warns on the rows of a csv, analyses them, and counts them', async () => {
    const csv = ['farm_name,farm_coordinates', ...CASES.map(([name, coords]) => `${csvCell(name)},${csvCell(JSON.stringify(coords))}`)].join('\n');
    await check('warnings.csv', Buffer.from(csv));
  }, 90_000);

  it('warns on the features of a GeoJSON file alike', async () => {
    const fc = {
      type: 'FeatureCollection',
      features: CASES.map(([name, coords]) => ({
        type: 'Feature',
        properties: { farm_name: name },
        geometry: typeof (coords as unknown[])[0] === 'number' ? { type: 'Point', coordinates: coords } : { type: 'Polygon', coordinates: [coords] },
      })),
    };
    await check('warnings.geojson', Buffer.from(JSON.stringify(fc)));
  }, 90_000);

  it.skipIf(!hasOgr2ogr())(
    'gives no warning to the closed rings of a Shapefile or a KML written by GDAL',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warnings-gdal-'));
      try {
        const src = path.join(dir, 'in.geojson');
        const names = ['A', 'B', 'C'];
        fs.writeFileSync(
          src,
          JSON.stringify({
            type: 'FeatureCollection',
            features: names.map((name, k) => ({
              type: 'Feature',
              properties: { farm_name: name },
              geometry: { type: 'Polygon', coordinates: [fine(10.0112345 + 0.02 * k, 10.0512345)] },
            })),
          }),
        );
        fs.mkdirSync(path.join(dir, 'shp'));
        execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', path.join(dir, 'shp', 'plots.shp'), src], { stdio: 'pipe' });
        execFileSync('ogr2ogr', ['-f', 'KML', path.join(dir, 'plots.kml'), src], { stdio: 'pipe' });
        const files: Record<string, Uint8Array> = {};
        for (const f of fs.readdirSync(path.join(dir, 'shp'))) files[f] = new Uint8Array(fs.readFileSync(path.join(dir, 'shp', f)));
        for (const [filename, content] of [
          ['plots.zip', Buffer.from(zipSync(files))],
          ['plots.kml', fs.readFileSync(path.join(dir, 'plots.kml'))],
        ] as const) {
          const res = await t.caller.request({
            method: 'POST',
            url: '/api/custom-analysis/',
            ...multipart({ operational_areas: t.areaIds, minimum_farm_size: '1', require_farm_recognition: 'false' }, filename, content),
          });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          const detail = await settled(t.caller, res.body.data.id);
          expect(detail.status).toBe('completed');
          expect(detail.with_warnings, filename).toBe(0);
          const list = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/within/?page_size=100`);
          expect(
            (list.body.data.results as Array<{ warnings: string[] }>).map((f) => f.warnings),
            filename,
          ).toEqual([[], [], []]);
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    90_000,
  );

  it('warns on the rows of the JSON endpoint, and a WKT ring written open', async () => {
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'JSON warnings',
      operational_areas: t.areaIds,
      minimum_farm_size: 1,
      require_farm_recognition: false,
      locations: [
        { farm_name: 'Clean', farm_coordinates: fine(10.0112345, 10.0112345) },
        { farm_name: 'Open WKT', farm_coordinates: 'POLYGON((10.0312345 10.0112345, 10.0322348 10.0112345, 10.0322348 10.0122348, 10.0312345 10.0122348))' },
        { farm_name: 'Repeated closing', farm_coordinates: [...fine(10.0512345, 10.0112345), fine(10.0512345, 10.0112345)[0]] },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id as string;
    const detail = await settled(t.caller, id);
    expect(detail.status).toBe('completed');
    expect(detail.with_warnings).toBe(2);
    const list = await t.caller.get(`/api/custom-analysis/${id}/within/?page_size=100`);
    expect(Object.fromEntries((list.body.data.results as Array<{ name: string; warnings: string[] }>).map((f) => [f.name, f.warnings]))).toEqual({
      Clean: [],
      'Open WKT': ['ring_closed'],
      'Repeated closing': ['duplicate_vertices_removed'],
    });
  }, 90_000);
});

describe('row warnings as staged (no database)', () => {
  const wa = (coords: unknown) => stageRow(1, { farm_name: 'x', farm_coordinates: coords }, new Set()).wa ?? [];

  it('counts decimals on the number: 6 or more anywhere in the row is enough', () => {
    expect(wa([3.123456, 7.1])).toEqual(['point_not_polygon']);
    expect(wa([-3.1234567, -7.0000001])).toEqual(['point_not_polygon']);
    expect(wa([179.99999, -89.5])).toEqual(['fewer_than_6_decimals', 'point_not_polygon']);
    expect(wa('POINT(3.12345 7.1)')).toEqual(['fewer_than_6_decimals', 'point_not_polygon']);
    // Trailing zeros written in the text are not decimals: 3.100000 is 3.1.
    expect(wa('POINT(3.100000 7.100000)')).toEqual(['fewer_than_6_decimals', 'point_not_polygon']);
    // One fine coordinate among coarse ones: the data is not coarse (a fine grid may end in zeros by chance).
    expect(
      wa([
        [10, 10],
        [10.001, 10],
        [10.001, 10.001],
        [10, 10.0010001],
        [10, 10],
      ]),
    ).toEqual([]);
  });

  it('reports each repair once per row, over every ring and part', () => {
    const ring = fine(10.0112345, 10.0112345);
    const hole = fine(10.0113345, 10.0113345)
      .map(([x, y]): P => [x, y])
      .slice(0, 4);
    // A hole is reported too (issue 29: the EU information system refuses polygons with holes).
    expect(wa({ type: 'Polygon', coordinates: [ring, hole] })).toEqual(['ring_closed', 'has_holes']);
    expect(wa({ type: 'MultiPolygon', coordinates: [[ring], [[ring[0], ...ring]]] })).toEqual(['duplicate_vertices_removed']);
    expect(wa({ type: 'MultiPolygon', coordinates: [[ring.slice(0, 4)], [[ring[0], ...ring]]] })).toEqual(['ring_closed', 'duplicate_vertices_removed']);
    // A row with an input error keeps its warnings (they are about the input).
    const bad = stageRow(
      1,
      {
        farm_name: 'x',
        farm_coordinates: [
          [10, 10],
          [10.001, 10],
          [10, 10],
        ],
      },
      new Set(),
    );
    expect(bad.errs.map((e) => e.code)).toEqual(['too_few_positions']);
    expect(bad.wa).toEqual(['fewer_than_6_decimals']);
    expect(stageRow(1, { farm_name: 'x', farm_coordinates: ring }, new Set())).not.toHaveProperty('wa');
  });
});
