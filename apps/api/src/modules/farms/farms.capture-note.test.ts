// The field app's capture record end to end (issue 31): every field of the spec's mapping record, the capture_note an
// agent gives when saving despite a device warning, and the server's own re-check of each warning (overlap, outside the
// operational areas, below the minimum: saved and flagged; self-intersection: refused).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSpot, insertAreaDirect, offset, square, tenantGeo, type TenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
let geoA: TenantGeo;

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
});

const capture = (body: Record<string, unknown>) =>
  env
    .as('agentA')
    .post('/api/farms/', { farmer_id: geoA.farmerId, time_taken_to_map: '00:41:07', gps_device_id: 'GPS-FIELD-7', location: 'Oke-Ogun', ...body });

describe('the capture record and capture_note', () => {
  it('keeps every field of the mapping record, and the note, in the answer and in GET /farms/{id}/', async () => {
    const [lng, lat] = freshSpot();
    await insertAreaDirect(env, env.fx.tenantA, square(lng, lat, 1000));
    const first = await capture({ name: 'Field record farm', coordinates: square(...offset(lng, lat, 100, 100), 100) });
    expect(first.status).toBe(201);
    expect(first.body.data.operational_area_id).toBeTruthy();
    // Overlapping the first by half: the device warned, the agent saved with a reason.
    const note = 'Boundary agreed with the neighbour on site; the registry farm is out of date';
    const res = await capture({ name: 'Overlapping farm', coordinates: square(...offset(lng, lat, 150, 100), 100), capture_note: note });
    expect(res.status).toBe(201);
    const f = res.body.data;
    expect(f.is_overlapping).toBe(true);
    expect(f.mapping_record).toMatchObject({
      time_taken_to_map: '00:41:07',
      gps_device_id: 'GPS-FIELD-7',
      location: 'Oke-Ogun',
      region: 'Nigeria',
      source: 'agent',
      capture_note: note,
    });
    expect(f.mapping_record.mapped_by).toBeTruthy();
    expect(f.mapped_by).toBe(f.mapping_record.mapped_by);
    expect(f.mapping_record.coordinate).toEqual(f.coordinates);
    const [row] = await env.sql<{ s: number; note: string }>(
      sql`SELECT time_taken_seconds AS s, capture_note AS note FROM mapping_records WHERE farm_id = ${f.id}`,
    );
    expect(row).toEqual({ s: 41 * 60 + 7, note });
    const read = await env.as('adminA').get(`/api/farms/${f.id}/`);
    expect(read.body.data.mapping_record.capture_note).toBe(note);
    // Without a note: null.
    expect(first.body.data.mapping_record.capture_note).toBeNull();
  });

  it('re-checks on the server: outside every area and below the minimum are saved and flagged; a bow-tie is refused', async () => {
    const [min] = await env.sql<{ m: number }>(
      sql`SELECT coalesce((SELECT minimum_farm_size FROM tenant_configurations WHERE tenant_id = ${env.fx.tenantA}), 100) AS m`,
    );
    expect(min!.m).toBeGreaterThan(4);
    const tiny = await capture({ coordinates: square(...freshSpot(), 2), capture_note: 'Garden plot, smaller than the minimum' });
    expect(tiny.status).toBe(201);
    expect(tiny.body.data.flag).toBe('below_minimum');
    expect(tiny.body.data.operational_area_id).toBeNull();
    const [a, b, c, d] = square(...freshSpot(), 60);
    const bowTie = await capture({ coordinates: [a, c, b, d], capture_note: 'saved anyway' });
    expect(bowTie.status).toBe(400);
    expect(bowTie.body.errors.coordinates[0]).toMatch(/Self-intersection/);
  });

  it('names capture_note when it is too long', async () => {
    const res = await capture({ coordinates: square(...freshSpot(), 50), capture_note: 'x'.repeat(501) });
    expect(res.status).toBe(400);
    expect(res.body.errors.capture_note[0]).toBeTruthy();
  });
});
