// Custom analysis through the API: the golden fixtures of the semantics in docs/design-rules.md (bow-tie, unclosed ring, < 3 points,
// repeats, metres and swapped coordinates, a hole, touching, a chain of overlaps, below minimum, partly inside,
// recognition), file uploads, the result lists, deletion, hostile files, and every route against another tenant.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { analysisMap } from '@farmland/contracts';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { arrangeTenant, multipart, outcome, rect, square } from '../../test/analysis-fixtures.js';

describe('custom analysis', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [
      { name: 'West block', ring: rect(10.0, 10.0, 10.1, 10.1) },
      { name: 'East block', ring: rect(10.1, 10.0, 10.2, 10.1) },
    ]);
  });

  it('classifies the golden fixtures exactly as docs/design-rules.md says', async () => {
    const bowTie = [
      [10.02, 10.02],
      [10.021, 10.021],
      [10.021, 10.02],
      [10.02, 10.021],
      [10.02, 10.02],
    ];
    const withHole = { type: 'Polygon', coordinates: [rect(10.04, 10.04, 10.042, 10.042), rect(10.0405, 10.0405, 10.0415, 10.0415)] };
    const locations = [
      { farm_name: 'Inside', farm_coordinates: square(10.01, 10.01), my_id: 'R1' }, // 1
      { farm_name: 'Bow-tie', farm_coordinates: bowTie }, // 2
      { farm_name: 'Unclosed', farm_coordinates: square(10.012, 10.01).slice(0, 4) }, // 3
      {
        farm_name: 'Two points',
        farm_coordinates: [
          [10.03, 10.03],
          [10.031, 10.03],
        ],
      }, // 4
      {
        farm_name: 'Repeats',
        farm_coordinates: [
          [10.014, 10.01],
          [10.014, 10.01],
          [10.015, 10.01],
          [10.015, 10.011],
          [10.015, 10.011],
          [10.014, 10.011],
        ],
      }, // 5
      {
        farm_name: 'Metres',
        farm_coordinates: [
          [412345.5, 934567.1],
          [412445.5, 934567.1],
          [412445.5, 934667.1],
        ],
      }, // 6
      {
        farm_name: 'Swapped',
        farm_coordinates: [
          [45.0, 120.0],
          [45.01, 120.0],
          [45.01, 120.01],
        ],
      }, // 7
      { farm_name: 'Hole', farm_coordinates: withHole }, // 8
      { farm_name: 'Touch A', farm_coordinates: square(10.05, 10.05) }, // 9
      { farm_name: 'Touch B', farm_coordinates: square(10.051, 10.05) }, // 10
      { farm_name: 'Chain 1', farm_coordinates: square(10.06, 10.06) }, // 11
      { farm_name: 'Chain 2', farm_coordinates: square(10.0608, 10.06) }, // 12
      { farm_name: 'Chain 3', farm_coordinates: square(10.0616, 10.06) }, // 13
      { farm_name: 'Tiny', farm_coordinates: square(10.07, 10.07, 0.0001) }, // 14
      { farm_name: 'Partly inside', farm_coordinates: rect(9.9995, 10.08, 10.0005, 10.081) }, // 15
      { farm_name: '', farm_coordinates: '', operational_area_id: 'not-an-area' }, // 16
      { farm_name: 'Across two areas', farm_coordinates: rect(10.0995, 10.09, 10.1005, 10.091) }, // 17
      { farm_name: 'Unreadable', farm_coordinates: 'lat 7.1 lng 3.2' }, // 18
      { farm_name: 'Declared east', farm_coordinates: square(10.15, 10.05), operational_area_id: t.areaIds[1] }, // 19
      { farm_name: 'Pair X', farm_coordinates: square(10.02, 10.08) }, // 20
      { farm_name: 'Pair Y', farm_coordinates: square(10.0205, 10.0805) }, // 21
    ];
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'Golden',
      description: 'fixtures',
      operational_areas: t.areaIds,
      locations,
      minimum_farm_size: 500,
      require_farm_recognition: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Upload successful');
    expect(['queued', 'processing', 'completed']).toContain(res.body.data.status);
    const { detail, rows } = await outcome(t.caller, res.body.data.id);
    const r = (n: number) => rows.get(n)!;

    expect(r(1)).toMatchObject({ category: 'within', operational_area: 'West block', covered_fraction: 1 });
    expect(r(2).errors).toEqual(['invalid_polygon']);
    expect(r(3).category).toBe('within');
    expect(r(4).errors).toEqual(['too_few_positions']);
    expect(r(5).category).toBe('within');
    expect(r(6).errors).toEqual(['position_out_of_range']);
    expect(r(7).errors).toEqual(['position_out_of_range']);
    expect(r(8).category).toBe('within');
    // The hole is cut out: 0.002² minus 0.001² degrees ≈ 3/4 of the outer square.
    const outerSqm = r(1).area! * 4;
    expect(r(8).area! / outerSqm).toBeCloseTo(0.75, 2);
    expect([r(9).is_overlapping, r(10).is_overlapping]).toEqual([false, false]);
    expect([r(11), r(12), r(13)].map((x) => x.is_overlapping)).toEqual([true, true, true]);
    expect(new Set([r(11), r(12), r(13)].map((x) => x.overlapping_id)).size).toBe(1);
    expect(r(14).errors).toEqual(['below_minimum_size']);
    expect(r(15).category).toBe('outside');
    expect(r(15).covered_fraction!).toBeGreaterThan(0.45);
    expect(r(15).covered_fraction!).toBeLessThan(0.55);
    expect(r(16).errors.sort()).toEqual(['coordinates_missing', 'name_missing', 'unknown_operational_area']);
    expect(r(17).category).toBe('outside');
    expect(r(17).covered_fraction!).toBeGreaterThan(0.99);
    expect(r(18).errors).toEqual(['coordinates_unreadable']);
    expect(r(19)).toMatchObject({ category: 'within', operational_area: 'East block' });
    expect(r(20).overlapping_id).not.toBeNull();
    expect(r(20).overlapping_id).toBe(r(21).overlapping_id);
    expect(r(20).overlapping_id).not.toBe(r(11).overlapping_id);
    // Groups are numbered by their smallest row number.
    expect(r(11).overlapping_id).toBe(1);
    expect(r(20).overlapping_id).toBe(2);

    expect(detail.total_uploaded_data_count).toBe(21);
    expect(detail.within_operational_area.count + detail.outside_operational_area.count + detail.errors.count).toBe(21);
    expect(detail.errors.count).toBe(7);
    expect(detail.overlapping_farmlands.count).toBe(5);
    expect(detail.unrecognized_farmlands.count).toBe(0);
    expect(detail.within_operational_area.url).toBe(`${env.config.publicUrl}/api/custom-analysis/${detail.id}/within/`);
    const validArea = [...rows.values()].filter((x) => x.category !== 'error').reduce((s, x) => s + x.area!, 0);
    expect(detail.total_area).toBeCloseTo(validArea, 3);
    expect(
      Object.keys(detail.error_details)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([2, 4, 6, 7, 14, 16, 18]);
    expect(detail.error_details['16'].row_data).toMatchObject({ operational_area_id: 'not-an-area' });
    const messages: string[] = detail.error_details['16'].errors.map((e: { message: string }) => e.message);
    expect(messages.some((m) => m.startsWith('farm_name:'))).toBe(true);
    expect(detail.error_details['6'].errors[0].message).toMatch(/metres/);
    expect(detail.error_details['7'].errors[0].message).toMatch(/swapped/);
    expect(detail.error_details['2'].errors[0].message).toMatch(/Self-intersection/i);

    const within = await t.caller.get(`/api/custom-analysis/${detail.id}/within/`);
    const first = within.body.data.results.find((f: { row_number: number }) => f.row_number === 1);
    expect(first).toMatchObject({ name: 'Inside', operational_area: 'West block', row_data: { my_id: 'R1' } });
    expect(first.hectares).toBeCloseTo(first.area / 10_000, 8);
    expect(first.coordinates[0]).toEqual([10.01, 10.01]);
    const overlaps = await t.caller.get(`/api/custom-analysis/${detail.id}/overlapping/`);
    expect(overlaps.body.data.results.map((f: { row_number: number }) => f.row_number)).toEqual([11, 12, 13, 20, 21]);
    expect(overlaps.body.data.results[0].group_size).toBe(3);
  });

  it('flags farms the registry does not recognise (IoU below the threshold)', async () => {
    const [farmer] = await env.sql<{ id: string }>(sql`
      INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${t.tenantId}, 'Reg', 'Istry', ${`F-${Date.now()}`}) RETURNING id`);
    const registered = square(10.03, 10.05, 0.002);
    await env.sql(sql`
      INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
      SELECT ${t.tenantId}, ${farmer!.id}, 'Registered', g, ST_Area(g::geography)
        FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify({ type: 'Polygon', coordinates: [registered] })}), 4326) AS g) s`);
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'Recognition',
      operational_areas: [t.areaIds[0]],
      locations: [
        { farm_name: 'Same', farm_coordinates: registered },
        { farm_name: 'Mostly same', farm_coordinates: square(10.0302, 10.0502, 0.002) }, // IoU ≈ 0.68
        { farm_name: 'A quarter', farm_coordinates: square(10.031, 10.051, 0.002) }, // IoU ≈ 0.14
        { farm_name: 'Elsewhere', farm_coordinates: square(10.09, 10.09) },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { rows, detail } = await outcome(t.caller, res.body.data.id);
    expect([1, 2, 3, 4].map((n) => rows.get(n)!.is_unrecognized)).toEqual([false, false, true, true]);
    expect(detail.unrecognized_farmlands.count).toBe(2);
    expect(detail.minimum_farm_size).toBe(100);
  });

  it('counts only the chosen areas: a farm in another area is outside, one across both is partly covered', async () => {
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'West only',
      operational_areas: [t.areaIds[0]],
      require_farm_recognition: false,
      locations: [
        { farm_name: 'In west', farm_coordinates: square(10.05, 10.02) },
        { farm_name: 'In east', farm_coordinates: square(10.15, 10.02) },
        { farm_name: 'Across', farm_coordinates: rect(10.0995, 10.03, 10.1005, 10.031) },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { rows } = await outcome(t.caller, res.body.data.id);
    expect(rows.get(1)).toMatchObject({ category: 'within', operational_area: 'West block', covered_fraction: 1 });
    expect(rows.get(2)).toMatchObject({ category: 'outside', operational_area: null, covered_fraction: 0 });
    expect(rows.get(3)!.category).toBe('outside');
    expect(rows.get(3)!.covered_fraction!).toBeGreaterThan(0.45);
    expect(rows.get(3)!.covered_fraction!).toBeLessThan(0.55);
  });

  it('ties rows to an existing analysis and removes them with it (statement-level triggers in place of a foreign key)', async () => {
    const ghost = crypto.randomUUID();
    const orphan = await env
      .sql(
        sql`INSERT INTO custom_analysis_rows (analysis_id, row_number, tenant_id, row_data, category) VALUES (${ghost}, 1, ${t.tenantId}, '{}'::jsonb, 'error')`,
      )
      .then(
        () => null,
        (err: { code?: string; cause?: { code?: string } }) => err.cause?.code ?? err.code,
      );
    expect(orphan).toBe('23503');

    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'Cascade',
      operational_areas: t.areaIds,
      require_farm_recognition: false,
      locations: [
        { farm_name: 'One', farm_coordinates: square(10.05, 10.06) },
        { farm_name: 'Two', farm_coordinates: square(10.15, 10.06) },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id as string;
    await outcome(t.caller, id);
    const count = async () => (await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM custom_analysis_rows WHERE analysis_id = ${id}`))[0]!.n;
    expect(await count()).toBe(2);
    const moved = await env.sql(sql`UPDATE custom_analysis_rows SET analysis_id = ${ghost} WHERE analysis_id = ${id}`).then(
      () => null,
      (err: { code?: string; cause?: { code?: string } }) => err.cause?.code ?? err.code,
    );
    expect(moved).toBe('23503');
    await env.sql(sql`DELETE FROM custom_analyses WHERE id = ${id}`);
    expect(await count()).toBe(0);
  });

  it('reads csv and xlsx uploads, keeps other columns, serves the template, lists and deletes', async () => {
    const tpl = await env.as('anonymous').get('/api/custom-analysis/template.csv');
    expect(tpl.status).toBe(200);
    expect(tpl.headers['content-type']).toMatch(/text\/csv/);
    const csv = [
      'farm_name,farm_coordinates,operational_area_id,farmer_ref',
      `North,"${JSON.stringify(square(10.011, 10.02)).replace(/"/g, '""')}",,FR-1`,
      `GeoJSON,"${JSON.stringify({ type: 'Polygon', coordinates: [square(10.013, 10.02)] }).replace(/"/g, '""')}",${t.areaIds[0]},FR-2`,
      `,"[[1,2]]",,FR-3`,
    ].join('\n');
    const res = await t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ name: 'CSV upload', operational_areas: t.areaIds }, 'farms.csv', Buffer.from(csv)),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.file).toMatch(/\/api\/files\//);
    const { rows, detail } = await outcome(t.caller, res.body.data.id);
    expect(rows.get(1)!.category).toBe('within');
    expect(rows.get(2)!.category).toBe('within');
    expect(rows.get(3)!.errors.sort()).toEqual(['name_missing', 'too_few_positions']);
    expect(detail.error_details['3'].row_data).toMatchObject({ farmer_ref: 'FR-3' });

    const XLSX = await import('@e965/xlsx');
    const ws = XLSX.utils.aoa_to_sheet([
      ['farm_name', 'farm_coordinates', 'note'],
      ['Sheet farm', JSON.stringify(square(10.016, 10.02)), 'x'],
      ['Formula farm', '', 'y'],
    ]);
    ws['B3'] = { t: 's', v: '', f: 'CONCATENATE("[[1,2],",A2,"]")' };
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Farms');
    const xlsx = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const res2 = await t.caller.request({ method: 'POST', url: '/api/custom-analysis/', ...multipart({ operational_areas: t.areaIds }, 'farms.xlsx', xlsx) });
    expect(res2.status, JSON.stringify(res2.body)).toBe(201);
    expect(res2.body.data.name).toBe('farms.xlsx');
    const x = await outcome(t.caller, res2.body.data.id);
    expect(x.rows.get(1)!.category).toBe('within');
    expect(x.rows.get(2)!.errors).toEqual(['coordinates_unreadable']);
    expect(x.detail.error_details['2'].errors[0].message).toMatch(/formula/);

    const list = await t.caller.get('/api/custom-analysis/?search=CSV%20upl&page_size=5');
    expect(list.status).toBe(200);
    expect(list.body.data.results.map((a: { id: string }) => a.id)).toContain(res.body.data.id);
    expect(list.body.data.results.every((a: { name: string }) => a.name.includes('CSV upl'))).toBe(true);

    const del = await t.caller.delete(`/api/custom-analysis/${res.body.data.id}/`);
    expect(del.status).toBe(200);
    expect(del.body.message).toBe('Analysis deleted successfully');
    expect((await t.caller.get(`/api/custom-analysis/${res.body.data.id}/`)).status).toBe(404);
    const left = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM custom_analysis_rows WHERE analysis_id = ${res.body.data.id}`);
    expect(left[0]!.n).toBe(0);
  });

  it('serves the result map: every row with a polygon, flags and rings, narrowed by bbox', async () => {
    const locations = [
      { farm_name: 'In', farm_coordinates: square(10.01, 10.01) },
      { farm_name: 'Out', farm_coordinates: square(11.5, 11.5) },
      { farm_name: 'Overlap 1', farm_coordinates: square(10.02, 10.02) },
      { farm_name: 'Overlap 2', farm_coordinates: square(10.0205, 10.02) },
      {
        farm_name: 'Broken',
        farm_coordinates: [
          [1, 1],
          [2, 2],
        ],
      },
    ];
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'Map',
      operational_areas: t.areaIds,
      locations,
      require_farm_recognition: false,
      minimum_farm_size: 1,
    });
    expect(res.status).toBe(201);
    await outcome(t.caller, res.body.data.id);
    const map = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/map/`);
    expect(map.status).toBe(200);
    // The body is JSON text built in SQL (no response serializer): it must still be the contract's shape.
    expect(analysisMap.safeParse(map.body.data).error).toBeUndefined();
    expect(map.body.data.count).toBe(4);
    expect(map.body.data.truncated).toBe(false);
    const byName = Object.fromEntries(map.body.data.features.map((f: { name: string }) => [f.name, f]));
    expect(Object.keys(byName).sort()).toEqual(['In', 'Out', 'Overlap 1', 'Overlap 2']);
    expect(byName['In'].category).toBe('within');
    expect(byName['In'].operational_area).toBe('West block');
    expect(byName['Out'].category).toBe('outside');
    expect(byName['Overlap 2'].is_overlapping).toBe(true);
    expect(byName['In'].coordinates[0][0]).toEqual([10.01, 10.01]);
    expect(byName['In'].area).toBeGreaterThan(0);
    expect(byName['In'].area).toBe(Math.round(byName['In'].area * 100) / 100); // 2 decimals: the body stays lean
    expect(byName['In']).not.toHaveProperty('type'); // absent means Polygon
    expect(byName['In']).not.toHaveProperty('risk_level'); // no reference layers chosen: no verdict (issue 29)
    const narrowed = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/map/?bbox=11.4,11.4,11.6,11.6`);
    expect(narrowed.body.data.features.map((f: { name: string }) => f.name)).toEqual(['Out']);
    expect(Object.keys((await t.caller.get(`/api/custom-analysis/${res.body.data.id}/map/?bbox=1,2,3`)).body.errors)[0]).toBe('bbox');

    // Each category exports as CSV and GeoJSON.
    const csv = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/export/?category=overlapping&format=csv`);
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-disposition'])).toMatch(/filename="map-overlapping\.csv"/);
    const lines = csv.raw.trim().split('\r\n');
    expect(lines[0]).toBe(
      'row_number,farm_name,category,overlapping,overlapping_id,conflicting_farmlands,unrecognized,area_sqm,hectares,operational_area,covered_fraction,errors,warnings,geometry,row_data',
    );
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(['Overlap 1', 'Overlap 2']);
    const errors = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/export/?category=errors`);
    expect(errors.raw).toContain('Broken');
    const geo = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/export/?category=within&format=geojson`);
    expect(String(geo.headers['content-type'])).toMatch(/application\/geo\+json/);
    const fc = JSON.parse(geo.raw);
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features.map((f: { properties: { farm_name: string } }) => f.properties.farm_name).sort()).toEqual(['In', 'Overlap 1', 'Overlap 2']);
    expect(fc.features[0].geometry.type).toBe('Polygon');
    expect(Object.keys((await t.caller.get(`/api/custom-analysis/${res.body.data.id}/export/?category=nope`)).body.errors)[0]).toBe('category');
  });

  it('refuses bad requests with the field named', async () => {
    const noArea = await t.caller.post('/api/custom-analysis/', { name: 'x', operational_areas: [], locations: [{ farm_name: 'a' }] });
    expect(noArea.status).toBe(400);
    expect(Object.keys(noArea.body.errors)[0]).toBe('operational_areas');
    const foreign = await t.caller.post('/api/custom-analysis/', {
      name: 'x',
      operational_areas: ['00000000-0000-4000-8000-000000000000'],
      locations: [{ farm_name: 'a' }],
    });
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.errors)[0]).toBe('operational_areas');
  });

  it('links a re-analysis of fixed rows to its parent both ways; the parent must be an analysis of the same tenant', async () => {
    const first = await t.caller.post('/api/custom-analysis/', {
      name: 'Parent',
      operational_areas: t.areaIds,
      locations: [
        {
          farm_name: 'Bad',
          farm_coordinates: [
            [1, 1],
            [2, 2],
          ],
        },
      ],
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ parent_analysis_id: null, parent_analysis: null, re_analyses: [] });
    const parentId = first.body.data.id as string;
    await outcome(t.caller, parentId);
    // JSON (the Failed Data modal) and multipart both take it.
    const fixed = await t.caller.post('/api/custom-analysis/', {
      name: 'Parent (fixed rows)',
      operational_areas: t.areaIds,
      locations: [{ farm_name: 'Bad', farm_coordinates: square(10.01, 10.05) }],
      parent_analysis_id: parentId,
    });
    expect(fixed.status).toBe(201);
    expect(fixed.body.data).toMatchObject({ parent_analysis_id: parentId, parent_analysis: { id: parentId, name: 'Parent' } });
    const csv = `farm_name,farm_coordinates\nAgain,"${JSON.stringify(square(10.01, 10.06))}"\n`;
    const viaFile = await t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ operational_areas: t.areaIds, parent_analysis_id: parentId }, 'again.csv', Buffer.from(csv)),
    });
    expect(viaFile.status).toBe(201);
    expect(viaFile.body.data.parent_analysis_id).toBe(parentId);
    // The uploaded file's own name, for the Failed Data table's "File row" (the file link is a signed URL without it).
    expect(viaFile.body.data.file_name).toBe('again.csv');
    expect(first.body.data.file_name).toBeNull();
    // The results answer both ways, and the list answer carries the link.
    const child = await t.caller.get(`/api/custom-analysis/${fixed.body.data.id}/`);
    expect(child.body.data.parent_analysis).toEqual({ id: parentId, name: 'Parent' });
    const parent = await t.caller.get(`/api/custom-analysis/${parentId}/`);
    expect(parent.body.data.parent_analysis).toBeNull();
    expect(parent.body.data.re_analyses.map((r: { id: string }) => r.id)).toEqual([fixed.body.data.id, viaFile.body.data.id]);
    expect(parent.body.data.re_analyses[0]).toMatchObject({ name: 'Parent (fixed rows)', status: expect.any(String), created_at: expect.any(String) });
    const list = await t.caller.get('/api/custom-analysis/?page_size=100&search=Parent');
    const byId = new Map(list.body.data.results.map((a: { id: string; parent_analysis_id: string | null }) => [a.id, a.parent_analysis_id]));
    expect(byId.get(fixed.body.data.id)).toBe(parentId);
    expect(byId.get(parentId)).toBeNull();

    // Bad, unknown and another tenant's parents: 400 naming the field, and nothing is created.
    const before = (await t.caller.get('/api/custom-analysis/?page_size=1')).body.data.count;
    const bad = await t.caller.post('/api/custom-analysis/', { operational_areas: t.areaIds, locations: [{ farm_name: 'a' }], parent_analysis_id: 'nope' });
    expect([bad.status, Object.keys(bad.body.errors)[0]]).toEqual([400, 'parent_analysis_id']);
    const unknown = await t.caller.post('/api/custom-analysis/', {
      operational_areas: t.areaIds,
      locations: [{ farm_name: 'a' }],
      parent_analysis_id: crypto.randomUUID(),
    });
    expect([unknown.status, Object.keys(unknown.body.errors)[0]]).toEqual([400, 'parent_analysis_id']);
    const badFile = await t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ operational_areas: t.areaIds, parent_analysis_id: '12' }, 'again.csv', Buffer.from(csv)),
    });
    expect([badFile.status, Object.keys(badFile.body.errors)[0]]).toEqual([400, 'parent_analysis_id']);
    expect((await t.caller.get('/api/custom-analysis/?page_size=1')).body.data.count).toBe(before);
    const b = env.as('adminB');
    const [bArea] = await env.sql<{ id: string }>(sql`SELECT id FROM operational_areas WHERE tenant_id = ${env.fx.tenantB} LIMIT 1`);
    const cross = await b.post('/api/custom-analysis/', {
      operational_areas: [bArea!.id],
      locations: [{ farm_name: 'a', farm_coordinates: square(10.01, 10.03) }],
      parent_analysis_id: parentId,
    });
    expect([cross.status, cross.body.errors]).toEqual([400, { parent_analysis_id: ['Not one of your analyses'] }]);
    // Tenant B's own analysis: its results never list or name tenant A's.
    const own = await b.post('/api/custom-analysis/', {
      operational_areas: [bArea!.id],
      locations: [{ farm_name: 'a', farm_coordinates: square(10.01, 10.03) }],
    });
    expect(own.status).toBe(201);
    expect((await b.get(`/api/custom-analysis/${own.body.data.id}/`)).body.data).toMatchObject({ parent_analysis: null, re_analyses: [] });
    // The database refuses a cross-tenant link too (the composite foreign key), whatever the service checks.
    await expect(env.sql(sql`UPDATE custom_analyses SET parent_analysis_id = ${parentId} WHERE id = ${own.body.data.id}`)).rejects.toThrow();

    // Deleting the parent keeps its follow-ups and clears their link.
    expect((await t.caller.delete(`/api/custom-analysis/${parentId}/`)).status).toBeLessThan(300);
    const orphan = await t.caller.get(`/api/custom-analysis/${fixed.body.data.id}/`);
    expect(orphan.status).toBe(200);
    expect(orphan.body.data).toMatchObject({ parent_analysis_id: null, parent_analysis: null });
  });

  it('never shows one tenant the analyses of another', async () => {
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'Private',
      operational_areas: [t.areaIds[0]],
      locations: [{ farm_name: 'a', farm_coordinates: square(10.01, 10.03) }],
    });
    expect(res.status).toBe(201);
    const id = res.body.data.id;
    const b = env.as('adminB');
    for (const path of ['', 'within/', 'outside/', 'overlapping/', 'unrecognized/', 'errors/', 'map/', 'export/?category=within']) {
      expect((await b.get(`/api/custom-analysis/${id}/${path}`)).status).toBe(404);
    }
    expect((await b.delete(`/api/custom-analysis/${id}/`)).status).toBe(404);
    const list = await b.get('/api/custom-analysis/?page_size=100&search=Private');
    expect(list.body.data.results.map((a: { id: string }) => a.id)).not.toContain(id);
    // Another tenant's operational areas cannot be chosen either.
    const bArea = await env.sql<{ id: string }>(sql`SELECT id FROM operational_areas WHERE tenant_id = ${env.fx.tenantB} LIMIT 1`);
    const cross = await t.caller.post('/api/custom-analysis/', {
      operational_areas: [bArea[0]!.id],
      locations: [{ farm_name: 'a', farm_coordinates: square(10.01, 10.03) }],
    });
    expect(cross.status).toBe(400);
    expect((await env.as('agentA').get('/api/custom-analysis/')).status).toBe(403);
    expect((await env.as('super').get('/api/custom-analysis/')).status).toBe(403);
  });
});
