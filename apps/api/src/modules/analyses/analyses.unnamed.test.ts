// Issue 28 §3: plots without a text name are analysed, not failed. A numeric property (or the feature id) names the
// plot, else "Plot <row number>"; every property stays in row_data. name_missing stays for a csv row without a name.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { arrangeTenant, multipart, outcome, rect, square } from '../../test/analysis-fixtures.js';
import { hasOgr2ogr } from '../../ingest/crs-gdal.js';

const poly = (x: number, y: number) => ({ type: 'Polygon', coordinates: [square(x, y)] });

describe('custom analysis: plots without a text name (issue 28)', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [{ name: 'Block', ring: rect(10.0, 10.0, 10.2, 10.2) }]);
  });

  const run = async (filename: string, content: Buffer) => {
    const res = await t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ operational_areas: t.areaIds, minimum_farm_size: '1', require_farm_recognition: 'false' }, filename, content),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const o = await outcome(t.caller, res.body.data.id);
    const list = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/within/?page_size=100`);
    return { o, within: list.body.data.results as Array<{ row_number: number; name: string; row_data: Record<string, unknown> }> };
  };

  it('names GeoJSON plots by a numeric property, the feature id, or "Plot <row>", and keeps their properties', async () => {
    const fc = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { plot_no: 17, area_ha: 0.9 }, geometry: poly(10.01, 10.01) },
        { type: 'Feature', id: 42, properties: {}, geometry: poly(10.03, 10.01) },
        { type: 'Feature', properties: {}, geometry: poly(10.05, 10.01) },
        { type: 'Feature', geometry: poly(10.07, 10.01) },
      ],
    };
    const { o, within } = await run('unnamed.geojson', Buffer.from(JSON.stringify(fc)));
    expect([...o.rows.values()].map((r) => r.errors)).toEqual([[], [], [], []]);
    expect(o.detail.errors.count).toBe(0);
    expect(within.map((r) => r.name)).toEqual(['17', '42', 'Plot 3', 'Plot 4']);
    expect(within[0]!.row_data).toMatchObject({ plot_no: 17, area_ha: 0.9 });
    expect(within[1]!.row_data).toMatchObject({ id: 42 });
  }, 60_000);

  it.skipIf(!hasOgr2ogr())(
    'names the plots of a Shapefile without a text field by its first numeric field',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unnamed-shp-'));
      try {
        const src = path.join(dir, 'in.geojson');
        fs.writeFileSync(
          src,
          JSON.stringify({
            type: 'FeatureCollection',
            features: [1, 2].map((k) => ({ type: 'Feature', properties: { parcel: 100 + k, ha: 0.5 * k }, geometry: poly(10.01 + 0.02 * k, 10.05) })),
          }),
        );
        fs.mkdirSync(path.join(dir, 'shp'));
        execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', path.join(dir, 'shp', 'plots.shp'), src], { stdio: 'pipe' });
        const files: Record<string, Uint8Array> = {};
        for (const f of fs.readdirSync(path.join(dir, 'shp'))) files[f] = new Uint8Array(fs.readFileSync(path.join(dir, 'shp', f)));
        const { o, within } = await run('plots.zip', Buffer.from(zipSync(files)));
        expect([...o.rows.values()].map((r) => r.errors)).toEqual([[], []]);
        expect(within.map((r) => r.name)).toEqual(['101', '102']);
        expect(within[1]!.row_data).toMatchObject({ parcel: 102, ha: 1 });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it('keeps name_missing for a csv row without a name', async () => {
    const csv = `farm_name,farm_coordinates\n,"${JSON.stringify(square(10.01, 10.01)).replace(/"/g, '""')}"\n`;
    const res = await t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ operational_areas: t.areaIds, minimum_farm_size: '1', require_farm_recognition: 'false' }, 'farms.csv', Buffer.from(csv)),
    });
    expect(res.status).toBe(201);
    const o = await outcome(t.caller, res.body.data.id);
    expect(o.rows.get(1)!.errors).toEqual(['name_missing']);
  }, 60_000);
});
