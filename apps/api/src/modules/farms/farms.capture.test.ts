// Field capture through the API: the golden polygon fixtures, geodesic area, snapshots checked by content, SDK license
// keys (unknown, revoked, expired, Platform, valid), activity entries, and captures that must store nothing.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, withScope } from '../../db/client.js';
import { sqlState } from '../../db/errors.js';
import { freshSpot, multipart, offset, PNG_BYTES, square, tenantGeo, type TenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { sha256 } from '../../lib/crypto.js';

let env: TestEnv;
let geoA: TenantGeo;
let geoB: TenantGeo;
let sdkKeyB: string;

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
  geoB = await tenantGeo(env, env.fx.tenantB);
  // Keys are stored hashed (shown once), so the test issues tenant B an older SDK license whose key it knows; the
  // tenant's current license, and so its tenant gate, stay as they are.
  sdkKeyB = `SDK-test-${Date.now()}-b`;
  await insertLicense(env.fx.tenantB, 'SDK', '2021-01-01', '2099-01-01', sdkKeyB, false);
});

const insertLicense = (tenantId: string, type: 'SDK' | 'Platform', issued: string, expiry: string, key: string, revoked: boolean) =>
  env.sql(sql`INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, key_hash, key_hint, is_revoked)
              VALUES (${tenantId}, ${type}, ${issued}, ${expiry}, ${sha256(key)}, ${key.slice(0, 10)}, ${revoked})`);

const capture = (coordinates: unknown, extra: Record<string, unknown> = {}) =>
  env.as('agentA').post('/api/farms/', { farmer_id: geoA.farmerId, coordinates, time_taken_to_map: '01:02:03', gps_device_id: 'GPS-T-1', ...extra });

const farmCount = async () => (await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${env.fx.tenantA}`))[0]!.n;

describe('golden polygon fixtures (capture)', () => {
  it('accepts an unclosed ring, closes it and stores the geodesic area (within 0.1% of ST_Area(geography))', async () => {
    const ring = square(...freshSpot(), 100);
    const res = await capture(ring);
    expect(res.status).toBe(201);
    const f = res.body.data;
    expect(f.coordinates).toHaveLength(5);
    expect(f.coordinates[0]).toEqual(f.coordinates[4]);
    const [pg] = await env.sql<{ a: number }>(
      sql`SELECT ST_Area(ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify({ type: 'Polygon', coordinates: [[...ring, ring[0]]] })}), 4326)::geography) AS a`,
    );
    expect(Math.abs(f.area - pg!.a) / pg!.a).toBeLessThan(0.001);
    // and, independently, a 100 m square is about 10,000 sqm
    expect(Math.abs(f.area - 10_000) / 10_000).toBeLessThan(0.01);
    expect(f.hectare).toBeCloseTo(f.area / 10_000, 3);
    expect(f.mapping_record).toMatchObject({ time_taken_to_map: '01:02:03', gps_device_id: 'GPS-T-1', source: 'agent', region: 'Nigeria' });
    expect(f.mapped_by).toBeTruthy();
  });

  it('drops consecutive repeated points silently', async () => {
    const [a, b, c, d] = square(...freshSpot(), 60);
    const res = await capture([a, a, b, b, b, c, d, d, a]);
    expect(res.status).toBe(201);
    expect(res.body.data.coordinates).toHaveLength(5);
  });

  it.each([
    [
      'a bow-tie (self-intersection)',
      (p: [number, number]) => {
        const [a, b, c, d] = square(...p, 50);
        return [a, c, b, d];
      },
      /Self-intersection/,
    ],
    ['fewer than 3 points', (p: [number, number]) => square(...p, 50).slice(0, 2), /at least 3 distinct positions/],
    [
      '3 points of which 2 are the same',
      (p: [number, number]) => {
        const [a, b] = square(...p, 50);
        return [a, b, a];
      },
      /at least 3 distinct positions/,
    ],
    [
      'metres instead of degrees',
      () => [
        [500_000, 850_000],
        [500_100, 850_000],
        [500_100, 850_100],
      ],
      /metres/,
    ],
    [
      'swapped latitude and longitude',
      () => [
        [7.65, 120.1],
        [7.66, 120.1],
        [7.66, 120.2],
      ],
      /swapped/,
    ],
    ['collinear points (no area)', (p: [number, number]) => [p, offset(...p, 10, 0), offset(...p, 20, 0)], /not valid|no area/],
    ['unreadable text', () => 'not json', /not readable/],
  ])('refuses %s with a 400 on coordinates and stores nothing', async (_name, build, message) => {
    const before = await farmCount();
    const res = await capture(build(freshSpot()));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(Object.keys(res.body.errors)[0]).toBe('coordinates');
    expect(res.body.errors['coordinates'][0]).toMatch(message);
    expect(await farmCount()).toBe(before);
  });

  it('accepts a polygon with a hole; a farm inside the hole does not overlap it', async () => {
    const p = freshSpot();
    const outer = square(...p, 300);
    const hole = square(...offset(...p, 100, 100), 100);
    const res = await capture({
      type: 'Polygon',
      coordinates: [
        [...outer, outer[0]],
        [...hole, hole[0]],
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.polygon.coordinates).toHaveLength(2);
    expect(Math.abs(res.body.data.area - 80_000) / 80_000).toBeLessThan(0.01);
    const inner = await capture(square(...offset(...p, 120, 120), 50));
    expect(inner.status).toBe(201);
    expect(inner.body.data.is_overlapping).toBe(false);
    const outerAfter = await env.as('adminA').get(`/api/farms/${res.body.data.id}/`);
    expect(outerAfter.body.data.is_overlapping).toBe(false);
  });

  it('a ring touching another along an edge is not an overlap', async () => {
    const p = freshSpot();
    const a = await capture(square(...p, 100));
    const b = await capture(square(...offset(...p, 100, 0), 100));
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.data.is_overlapping).toBe(false);
    expect((await env.as('adminA').get(`/api/farms/${a.body.data.id}/`)).body.data.is_overlapping).toBe(false);
  });

  it('a chain of three overlaps forms one group, and the reference returns all three', async () => {
    const p = freshSpot();
    const a = (await capture(square(...p, 100))).body.data;
    const b = (await capture(square(...offset(...p, 80, 0), 100))).body.data;
    const c = (await capture(square(...offset(...p, 160, 0), 100))).body.data;
    const [fa, fb, fc] = await Promise.all([a.id, b.id, c.id].map(async (id: string) => (await env.as('adminA').get(`/api/farms/${id}/`)).body.data));
    expect([fa.is_overlapping, fb.is_overlapping, fc.is_overlapping]).toEqual([true, true, true]);
    expect(new Set([fa.overlap_group_id, fb.overlap_group_id, fc.overlap_group_id]).size).toBe(1);
    const ref = await env.as('adminA').get(fa.overlapping_farms.replace(env.config.publicUrl, ''));
    expect(ref.status).toBe(200);
    expect(ref.body.data.results.map((f: { id: string }) => f.id).sort()).toEqual([a.id, b.id, c.id].sort());
  });

  it('flags a farm below the tenant minimum size (stored, counted as unrecognized)', async () => {
    const res = await capture(square(...freshSpot(), 5)); // 25 sqm < 100 sqm
    expect(res.status).toBe(201);
    expect(res.body.data.flag).toBe('below_minimum');
  });

  it('re-mapping keeps the old boundary as history, adds a mapping record and recomputes overlap', async () => {
    const p = freshSpot();
    const a = (await capture(square(...p, 100))).body.data;
    const b = (await capture(square(...offset(...p, 300, 0), 100))).body.data;
    expect(b.is_overlapping).toBe(false);
    const moved = await env.as('agentA').put(`/api/farms/${b.id}/`, { coordinates: square(...offset(...p, 50, 0), 100), time_taken_to_map: '00:05:00' });
    expect(moved.status).toBe(200);
    expect(moved.body.data.is_overlapping).toBe(true);
    expect(moved.body.data.mapping_record.time_taken_to_map).toBe('00:05:00');
    const hist = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farm_boundary_history WHERE farm_id = ${b.id} AND reason = 'edit'`);
    expect(hist[0]!.n).toBe(1);
    const mr = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM mapping_records WHERE farm_id = ${b.id}`);
    expect(mr[0]!.n).toBe(2);
    // moving it away again splits the group
    const back = await env.as('agentA').put(`/api/farms/${b.id}/`, { coordinates: square(...offset(...p, 300, 0), 100) });
    expect(back.body.data.is_overlapping).toBe(false);
    expect((await env.as('adminA').get(`/api/farms/${a.id}/`)).body.data.is_overlapping).toBe(false);
  });

  it('a bad polygon on edit changes nothing', async () => {
    const a = (await capture(square(...freshSpot(), 100))).body.data;
    const [p, q, r, s] = square(...freshSpot(), 50);
    const res = await env.as('agentA').put(`/api/farms/${a.id}/`, { name: 'Should not stick', coordinates: [p, r, q, s] });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)[0]).toBe('coordinates');
    const after = (await env.as('adminA').get(`/api/farms/${a.id}/`)).body.data;
    expect(after.name).toBe(a.name);
    expect(after.coordinates).toEqual(a.coordinates);
  });
});

describe('capture inputs and access', () => {
  it('takes multipart with snapshots checked by magic bytes', async () => {
    const ring = square(...freshSpot(), 70);
    const mp = multipart(
      { farmer_id: geoA.farmerId, coordinates: JSON.stringify(ring), time_taken_to_map: '00:20:00', gps_device_id: 'GPS-MP', location: 'Ogbomosho' },
      [
        { field: 'snapshots', filename: 'a.png', content: PNG_BYTES, type: 'image/png' },
        { field: 'snapshots', filename: 'b.png', content: PNG_BYTES, type: 'image/png' },
      ],
    );
    const res = await env.as('agentA').request({ method: 'POST', url: '/api/farms/', payload: mp.payload, headers: { ...mp.headers, 'x-platform': 'mobile' } });
    expect(res.status).toBe(201);
    expect(res.body.data.snapshots).toHaveLength(2);
    const img = await env.as('anonymous').get(res.body.data.snapshots[0].replace(env.config.publicUrl, ''));
    expect(img.status).toBe(200);
    const [log] = await env.sql<{ platform: string }>(
      sql`SELECT platform FROM activity_logs WHERE tenant_id = ${env.fx.tenantA} AND description LIKE '%mapped the farm%' ORDER BY created_at DESC LIMIT 1`,
    );
    expect(log!.platform).toBe('mobile');
  });

  it('refuses a snapshot that is not an image (by content, whatever its name) and stores nothing', async () => {
    const before = await farmCount();
    const mp = multipart({ farmer_id: geoA.farmerId, coordinates: JSON.stringify(square(...freshSpot(), 70)) }, [
      { field: 'snapshots', filename: 'evil.png', content: Buffer.from('<script>alert(1)</script>'), type: 'image/png' },
    ]);
    const res = await env.as('agentA').request({ method: 'POST', url: '/api/farms/', payload: mp.payload, headers: mp.headers });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)[0]).toBe('snapshots');
    expect(await farmCount()).toBe(before);
  });

  it('validates time_taken_to_map and the farmer', async () => {
    const bad = await capture(square(...freshSpot(), 50), { time_taken_to_map: '5 minutes' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)[0]).toBe('time_taken_to_map');
    const foreign = await capture(square(...freshSpot(), 50), { farmer_id: geoB.farmerId });
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.errors)[0]).toBe('farmer_id');
  });

  it("an agent of tenant B cannot see or change tenant A's farm (404)", async () => {
    const a = (await capture(square(...freshSpot(), 50))).body.data;
    const agentB = await env.sessionFor(env.fx.agentB);
    expect((await agentB.get(`/api/farms/${a.id}/`)).status).toBe(404);
    expect((await agentB.put(`/api/farms/${a.id}/`, { name: 'Hijacked' })).status).toBe(404);
    expect((await env.as('adminB').post(`/api/farms/${a.id}/intersect`)).status).toBe(404);
    expect((await env.as('adminB').delete(`/api/farms/${a.id}/`)).status).toBe(404);
    expect((await env.as('adminA').get(`/api/farms/${a.id}/`)).body.data.name).toBe(a.name);
  });
});

describe('SDK license keys', () => {
  const withKey = (key: string, body: unknown, url = '/api/farms/') => env.as('anonymous').post(url, body, { 'x-license-key': key });

  it("captures a farm for the key's tenant with platform sdk and source sdk", async () => {
    const res = await withKey(sdkKeyB, { farmer_id: geoB.farmerId, coordinates: square(...freshSpot(), 90), gps_device_id: 'SDK-DEV' });
    expect(res.status).toBe(201);
    expect(res.body.data.tenant_id).toBe(env.fx.tenantB);
    expect(res.body.data.mapping_record.source).toBe('sdk');
    const [log] = await env.sql<{ platform: string; description: string }>(
      sql`SELECT platform, description FROM activity_logs WHERE tenant_id = ${env.fx.tenantB} ORDER BY created_at DESC LIMIT 1`,
    );
    expect(log!.platform).toBe('sdk');
    expect(log!.description).toMatch(/SDK license/);
    // a farmer through the key as well
    const farmer = await withKey(sdkKeyB, { first_name: 'Sdk', last_name: 'Farmer' }, '/api/farmers/');
    expect(farmer.status).toBe(201);
  });

  it("cannot reach another tenant's farmer or farm", async () => {
    const res = await withKey(sdkKeyB, { farmer_id: geoA.farmerId, coordinates: square(...freshSpot(), 90) });
    expect(res.status).toBe(400);
    expect((await env.as('anonymous').put(`/api/farms/${geoA.farmId}/`, { name: 'x' }, { 'x-license-key': sdkKeyB })).status).toBe(404);
    expect((await env.as('anonymous').put(`/api/farmers/${geoA.farmerId}/`, { address: 'x' }, { 'x-license-key': sdkKeyB })).status).toBe(404);
  });

  it('is refused when unknown (401), revoked or expired (403 with code), or not an SDK license (403)', async () => {
    const body = { farmer_id: geoB.farmerId, coordinates: square(...freshSpot(), 90) };
    expect((await withKey('SDK-does-not-exist-000000', body)).status).toBe(401);
    const revoked = `SDK-revoked-${Date.now()}`;
    const expired = `SDK-expired-${Date.now()}`;
    // Older licenses of tenant B, so that its current license (and the tenant gate) stay as they are.
    await insertLicense(env.fx.tenantB, 'SDK', '2020-01-01', '2099-01-01', revoked, true);
    await insertLicense(env.fx.tenantB, 'SDK', '2019-01-01', '2019-12-31', expired, false);
    const r1 = await withKey(revoked, body);
    expect([r1.status, r1.body.code]).toEqual([403, 'license_revoked']);
    const r2 = await withKey(expired, body);
    expect([r2.status, r2.body.code]).toEqual([403, 'license_expired']);
    const platform = `PLT-test-${Date.now()}`;
    await insertLicense(env.fx.tenantA, 'Platform', '2021-01-01', '2099-01-01', platform, false);
    const r3 = await withKey(platform, { ...body, farmer_id: geoA.farmerId });
    expect(r3.status).toBe(403);
  });

  it('is not accepted on routes that do not list it', async () => {
    expect((await env.as('anonymous').get('/api/farms/', { 'x-license-key': sdkKeyB })).status).toBe(401);
    expect((await env.as('anonymous').post(`/api/farms/${geoB.farmId}/intersect`, undefined, { 'x-license-key': sdkKeyB })).status).toBe(401);
  });
});

describe('the farmer row a capture updates (farm_count and mapped, migration 0019)', () => {
  it('is a HOT update (no index entry) once the farmer has a farm; only the first and the last farm flip mapped', async () => {
    // One transaction: the xact statistics count this transaction's own updates of farmers, whatever else runs.
    await withScope(env.deps.db, { kind: 'system' }, async (tx) => {
      const [farmer] = await queryRows<{ id: string }>(
        tx,
        sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${env.fx.tenantA}, 'Hot', 'Update', ${`HOT-${Date.now()}`}) RETURNING id`,
      );
      const state = async () =>
        (
          await queryRows<{ updated: number; hot: number; farm_count: number; mapped: boolean }>(
            tx,
            sql`SELECT pg_stat_get_xact_tuples_updated('farmers'::regclass)::int AS updated, pg_stat_get_xact_tuples_hot_updated('farmers'::regclass)::int AS hot,
                       farm_count, mapped FROM farmers WHERE id = ${farmer!.id}`,
          )
        )[0]!;
      const addFarm = async () => {
        const ring = square(...freshSpot(), 40);
        const geo = JSON.stringify({ type: 'Polygon', coordinates: [[...ring, ring[0]]] });
        const [f] = await queryRows<{ id: string }>(
          tx,
          sql`INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
              SELECT ${env.fx.tenantA}, ${farmer!.id}, 'Hot farm', g, ST_Area(g::geography) FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${geo}), 4326) AS g) s RETURNING id`,
        );
        return f!.id;
      };
      const dropFarm = (id: string) => tx.execute(sql`DELETE FROM farms WHERE id = ${id}`);
      const s0 = await state();
      const steps: Array<{ updated: number; hot: number; farm_count: number; mapped: boolean }> = [];
      const first = await addFarm();
      steps.push(await state());
      const second = await addFarm();
      steps.push(await state());
      await dropFarm(second);
      steps.push(await state());
      await dropFarm(first);
      steps.push(await state());
      expect(steps.map((x) => ({ ...x, updated: x.updated - s0.updated, hot: x.hot - s0.hot }))).toEqual([
        // 0 -> 1: mapped flips, an indexed predicate changes: a new index entry, not HOT.
        { updated: 1, hot: 0, farm_count: 1, mapped: true },
        // 1 -> 2 and 2 -> 1: only farm_count changes: HOT.
        { updated: 2, hot: 1, farm_count: 2, mapped: true },
        { updated: 3, hot: 2, farm_count: 1, mapped: true },
        // 1 -> 0: mapped flips back.
        { updated: 4, hot: 2, farm_count: 0, mapped: false },
      ]);
      await tx.execute(sql`DELETE FROM farmers WHERE id = ${farmer!.id}`);
    });
  });

  it('refuses a mapped flag that disagrees with the farm count (farmers_mapped_check)', async () => {
    const err: unknown = await env.sql(sql`UPDATE farmers SET mapped = NOT mapped WHERE id = ${geoA.farmerId}`).then(
      () => null,
      (e: unknown) => e,
    );
    // 23514: check_violation, through drizzle's wrapping.
    expect(sqlState(err)).toBe('23514');
    expect(String((err as { cause?: { constraint?: string } }).cause?.constraint)).toBe('farmers_mapped_check');
  });
});
