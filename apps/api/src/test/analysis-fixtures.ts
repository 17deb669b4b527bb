// Arrange helpers shared by the analysis test files: a throwaway tenant with areas, the outcome of an analysis read
// back through the API and the database, and multipart bodies.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { sha256 } from '../lib/crypto.js';
import { makeUser } from './fixtures.js';
import type { Caller, TestEnv } from './harness.js';

export const NIGERIA = '1e7050d0-9e8f-5e82-9ca3-884850256d74';
export type Ring = number[][];
export const square = (x: number, y: number, d = 0.001): Ring => [
  [x, y],
  [x + d, y],
  [x + d, y + d],
  [x, y + d],
  [x, y],
];
export const rect = (x0: number, y0: number, x1: number, y1: number): Ring => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
];

/** A throwaway tenant with an admin session, a region and the given operational areas (tests never share state). */
export async function arrangeTenant(env: TestEnv, areas: Array<{ name: string; ring: Ring }>) {
  const [t] = await env.sql<{ id: string }>(
    sql`INSERT INTO tenants (name, country_id) VALUES (${`Analysis tenant ${Date.now()}-${Math.random()}`}, ${NIGERIA}) RETURNING id`,
  );
  const tenantId = t!.id;
  await env.sql(
    sql`INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, key_hash, key_hint) VALUES (${tenantId}, 'Platform', current_date - 1, current_date + 300, ${sha256(`KEY-${tenantId}`)}, 'KEY-')`,
  );
  await env.sql(sql`INSERT INTO tenant_configurations (tenant_id, minimum_farm_size, recognition_threshold) VALUES (${tenantId}, 100, 0.5)`);
  const adminId = (await makeUser(env, { tenantId, role: 'tenant_admin' })).id;
  const [r] = await env.sql<{ id: string }>(
    sql`INSERT INTO regions (tenant_id, country_id, name) VALUES (${tenantId}, ${NIGERIA}, 'Test region') RETURNING id`,
  );
  const [c] = await env.sql<{ id: string }>(sql`SELECT id FROM cities WHERE country_id = ${NIGERIA} ORDER BY name LIMIT 1`);
  const areaIds: string[] = [];
  for (const a of areas) {
    const [row] = await env.sql<{ id: string }>(sql`
      INSERT INTO operational_areas (tenant_id, name, region_id, city_id, geom, area_sqm)
      SELECT ${tenantId}, ${a.name}, ${r!.id}, ${c!.id}, g, ST_Area(g::geography)
        FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify({ type: 'Polygon', coordinates: [a.ring] })}), 4326) AS g) s RETURNING id`);
    areaIds.push(row!.id);
  }
  return { tenantId, adminId, areaIds, caller: await env.sessionFor(adminId) };
}

export type Outcome = {
  category: string;
  errors: string[];
  is_overlapping: boolean;
  overlapping_id: number | null;
  is_unrecognized: boolean;
  area: number | null;
  operational_area: string | null;
  covered_fraction: number | null;
};

/** Waits (up to timeoutMs) for the analysis to finish, and returns its detail. */
export async function settled(caller: Caller, id: string, timeoutMs = 30_000): Promise<{ status: string } & Record<string, any>> {
  let detail: { status: string } & Record<string, unknown> = { status: 'queued' };
  for (const end = Date.now() + timeoutMs; Date.now() < end && (detail.status === 'queued' || detail.status === 'processing');) {
    await new Promise((r) => setTimeout(r, 50));
    const res = await caller.get(`/api/custom-analysis/${id}/`);
    expect(res.status).toBe(200);
    detail = res.body.data;
  }
  return detail;
}

/** Waits for the analysis to finish and reads every row of every list, keyed by row number. */
export async function outcome(caller: Caller, id: string) {
  const detail = await settled(caller, id);
  expect(detail.status, JSON.stringify(detail)).toBe('completed');
  const rows = new Map<number, Outcome>();
  const lists: Record<string, number[]> = {};
  for (const kind of ['within', 'outside', 'errors', 'overlapping', 'unrecognized']) {
    lists[kind] = [];
    for (let page = 1; ; page++) {
      const res = await caller.get(`/api/custom-analysis/${id}/${kind}/?page=${page}&page_size=100`);
      expect(res.status).toBe(200);
      for (const f of res.body.data.results) {
        lists[kind].push(f.row_number);
        rows.set(f.row_number, {
          category: f.category,
          errors: f.errors.map((e: { code: string }) => e.code),
          is_overlapping: f.is_overlapping,
          overlapping_id: f.overlapping_id,
          is_unrecognized: f.is_unrecognized,
          area: f.area,
          operational_area: f.operational_area,
          covered_fraction: f.covered_fraction,
        });
      }
      if (!res.body.data.next) break;
    }
  }
  return { detail: detail as Record<string, any>, rows, lists };
}

/** A multipart body with text fields (arrays repeat the field) and one file. */
export function multipart(fields: Record<string, string | string[] | undefined>, filename: string, content: Buffer, contentType = 'application/octet-stream') {
  const boundary = `----farmland${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    for (const value of Array.isArray(v) ? v : v === undefined ? [] : [v]) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${value}\r\n`));
    }
  }
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * A completed analysis of `rows` rows written straight into the tables, as the pipeline's classify and overlap steps
 * leave them (for list and export tests of large results; a real run of 20,000+ rows would take most of a minute
 * embedded). Row n: an error when n % 40 = 0; within the area when n % 20 = 0; else outside. Every 8th good row
 * overlaps, in one of 37 groups taken in turn (so the grouped order is not the row order); every 7th good row is
 * unrecognized. row_data carries `pad` characters, to make the rows as large as a test needs.
 */
export async function syntheticAnalysis(env: TestEnv, t: { tenantId: string; adminId: string; areaIds: string[] }, rows: number, pad = 0): Promise<string> {
  const [a] = await env.sql<{ id: string }>(sql`
    INSERT INTO custom_analyses (tenant_id, name, minimum_farm_size, total_uploaded_data_count, created_by, status, progress, completed_at)
    VALUES (${t.tenantId}, ${`Synthetic ${rows}`}, 100, ${rows}, ${t.adminId}, 'completed', 100, now()) RETURNING id`);
  const id = a!.id;
  await env.sql(sql`INSERT INTO custom_analysis_areas (analysis_id, operational_area_id, tenant_id) VALUES (${id}, ${t.areaIds[0]!}, ${t.tenantId})`);
  for (let from = 1; from <= rows; from += 5_000) {
    const to = Math.min(rows, from + 4_999);
    await env.sql(sql`
      INSERT INTO custom_analysis_rows (analysis_id, row_number, tenant_id, farm_name, geom, area_sqm, row_data, errors, category,
                                        operational_area_id, covered_fraction, is_unrecognized, is_overlapping, overlapping_id)
      SELECT ${id}, n, ${t.tenantId}, CASE WHEN n % 1000 = 1 THEN '=HYPERLINK("x")' ELSE 'Farm ' || n END,
             CASE WHEN n % 40 <> 0 THEN g END, CASE WHEN n % 40 <> 0 THEN ST_Area(g::geography) END,
             jsonb_build_object('farm_id', 'F-' || n, 'pad', repeat('x', ${pad})),
             CASE WHEN n % 40 = 0 THEN '[{"field":"farm_coordinates","code":"invalid_polygon","message":"farm_coordinates: the polygon is invalid"}]'::jsonb END,
             CASE WHEN n % 40 = 0 THEN 'error' WHEN n % 20 = 0 THEN 'within' ELSE 'outside' END,
             CASE WHEN n % 40 <> 0 AND n % 20 = 0 THEN ${t.areaIds[0]!}::uuid END,
             CASE WHEN n % 40 = 0 THEN NULL WHEN n % 20 = 0 THEN 1.0 ELSE 0.0 END,
             n % 40 <> 0 AND n % 7 = 0, n % 40 <> 0 AND n % 8 = 0, CASE WHEN n % 40 <> 0 AND n % 8 = 0 THEN 1 + (n / 8) % 37 END
        FROM generate_series(${from}::int, ${to}::int) n
        CROSS JOIN LATERAL (SELECT ST_MakeEnvelope(20 + (n % 500) * 0.002, 40 + (n / 500) * 0.002, 20.001 + (n % 500) * 0.002, 40.001 + (n / 500) * 0.002, 4326) AS g) s`);
  }
  await env.sql(sql`
    UPDATE custom_analysis_rows r SET group_size = s.size
      FROM (SELECT overlapping_id, count(*)::int AS size FROM custom_analysis_rows WHERE analysis_id = ${id} AND is_overlapping GROUP BY overlapping_id) s
     WHERE r.analysis_id = ${id} AND r.is_overlapping AND r.overlapping_id = s.overlapping_id`);
  await env.sql(sql`
    UPDATE custom_analyses c SET within_count = s.within, outside_count = s.outside, error_count = s.errors, overlapping_count = s.overlapping,
           unrecognized_count = s.unrecognized, total_area = s.area
      FROM (SELECT count(*) FILTER (WHERE category = 'within')::int AS within, count(*) FILTER (WHERE category = 'outside')::int AS outside,
                   count(*) FILTER (WHERE category = 'error')::int AS errors, count(*) FILTER (WHERE is_overlapping)::int AS overlapping,
                   count(*) FILTER (WHERE is_unrecognized)::int AS unrecognized, coalesce(sum(area_sqm), 0) AS area
              FROM custom_analysis_rows WHERE analysis_id = ${id}) s
     WHERE c.id = ${id}`);
  return id;
}
