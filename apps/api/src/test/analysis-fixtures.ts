// Arrange helpers shared by the analysis test files: a throwaway tenant with areas, the outcome of an analysis read
// back through the API and the database, and multipart bodies.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { sha256 } from '../lib/crypto.js';
import { makeUser } from './fixtures.js';
import type { Caller, TestEnv } from './harness.js';

export const NIGERIA = '1e7050d0-9e8f-5e82-9ca3-884850256d74';
export type Ring = number[][];
export const square = (x: number, y: number, d = 0.001): Ring => [[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]];
export const rect = (x0: number, y0: number, x1: number, y1: number): Ring => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];

/** A throwaway tenant with an admin session, a region and the given operational areas (tests never share state). */
export async function arrangeTenant(env: TestEnv, areas: Array<{ name: string; ring: Ring }>) {
  const [t] = await env.sql<{ id: string }>(sql`INSERT INTO tenants (name, country_id) VALUES (${`Analysis tenant ${Date.now()}-${Math.random()}`}, ${NIGERIA}) RETURNING id`);
  const tenantId = t!.id;
  await env.sql(sql`INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, key_hash, key_hint) VALUES (${tenantId}, 'Platform', current_date - 1, current_date + 300, ${sha256(`KEY-${tenantId}`)}, 'KEY-')`);
  await env.sql(sql`INSERT INTO tenant_configurations (tenant_id, minimum_farm_size, recognition_threshold) VALUES (${tenantId}, 100, 0.5)`);
  const adminId = (await makeUser(env, { tenantId, role: 'tenant_admin' })).id;
  const [r] = await env.sql<{ id: string }>(sql`INSERT INTO regions (tenant_id, country_id, name) VALUES (${tenantId}, ${NIGERIA}, 'Test region') RETURNING id`);
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

export type Outcome = { category: string; errors: string[]; is_overlapping: boolean; overlapping_id: number | null; is_unrecognized: boolean; area: number | null; operational_area: string | null; covered_fraction: number | null };

/** Waits (up to timeoutMs) for the analysis to finish, and returns its detail. */
export async function settled(caller: Caller, id: string, timeoutMs = 30_000): Promise<{ status: string } & Record<string, any>> {
  let detail: { status: string } & Record<string, unknown> = { status: 'queued' };
  for (const end = Date.now() + timeoutMs; Date.now() < end && (detail.status === 'queued' || detail.status === 'processing'); ) {
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
        lists[kind]!.push(f.row_number);
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
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`), content, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
