// Reading a large result whole (issue 28): the cursor on the category lists reads a category of 20,000+ rows page by
// page and its rows equal the streamed export's (GeoJSON and CSV), overlaps in their grouped order; page numbers stay
// within the first 10,000 rows; bad cursors are 400s naming the field; another tenant cannot read the rows. And a
// client that goes away mid-export stops the reads: no transaction or statement of it is left on the database.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrangeTenant, rect, syntheticAnalysis } from '../../test/analysis-fixtures.js';
import { testEnv, type Caller, type TestEnv } from '../../test/harness.js';
import { streamStats } from '../../lib/export-stream.js';

let env: TestEnv;
let t: Awaited<ReturnType<typeof arrangeTenant>>;
let id: string;
const ROWS = 24_000;

beforeAll(async () => {
  env = await testEnv();
  t = await arrangeTenant(env, [{ name: 'Area', ring: rect(19, 39, 22, 42) }]);
  id = await syntheticAnalysis(env, t, ROWS, 400);
}, 120_000);

type Farm = {
  row_number: number;
  name: string | null;
  category: string;
  overlapping_id: number | null;
  group_size: number | null;
  is_unrecognized: boolean;
  area: number | null;
  row_data: Record<string, unknown>;
};

/** Every row of a category through the cursor, following `next` from after=0. */
async function readWhole(caller: Caller, kind: string, pageSize: number): Promise<{ rows: Farm[]; pages: number; count: number }> {
  const rows: Farm[] = [];
  let url: string | null = `/api/custom-analysis/${id}/${kind}/?after=0&page_size=${pageSize}`;
  let pages = 0;
  let count = 0;
  while (url) {
    const res = await caller.get(url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages++;
    count = res.body.data.count;
    rows.push(...res.body.data.results);
    expect(res.body.data.previous).toBeNull();
    const next = res.body.data.next as string | null;
    if (next) {
      expect(next).toMatch(new RegExp(`^/api/custom-analysis/${id}/${kind}/\\?`));
      expect(new URL(next, 'http://x').searchParams.get('after')).toBe(String(res.body.data.next_after));
      expect(res.body.data.results).toHaveLength(pageSize);
    } else expect(res.body.data.next_after).toBeNull();
    url = next;
  }
  return { rows, pages, count };
}

type Feature = { geometry: { type: string; coordinates: number[][][] } | null; properties: Record<string, unknown> };

describe('a category of 20,000+ rows', () => {
  it('is read whole through the cursor, and its rows equal the export (GeoJSON and CSV)', async () => {
    const whole = await readWhole(t.caller, 'outside', 100);
    expect(whole.rows.length).toBeGreaterThan(20_000);
    expect(whole.count).toBe(whole.rows.length);
    expect(whole.pages).toBe(Math.ceil(whole.rows.length / 100));
    // Row order, each row once.
    const numbers = whole.rows.map((r) => r.row_number);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    // The database's own figure, not the code under test.
    const [n] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM custom_analysis_rows WHERE analysis_id = ${id} AND category = 'outside'`);
    expect(whole.rows.length).toBe(n!.n);

    const geo = await t.caller.get(`/api/custom-analysis/${id}/export/?category=outside&format=geojson`);
    expect(geo.status).toBe(200);
    expect(geo.headers['content-type']).toContain('application/geo+json');
    const fc = JSON.parse(geo.raw) as { type: string; features: Feature[] };
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features.map((f) => f.properties['row_number'])).toEqual(numbers);
    for (let i = 0; i < whole.rows.length; i += 97) {
      const r = whole.rows[i]!;
      const p = fc.features[i]!.properties;
      expect(p['farm_name']).toBe(r.name);
      expect(p['area_sqm']).toBeCloseTo(r.area!, 6);
      expect(p['unrecognized']).toBe(r.is_unrecognized);
      expect(p['overlapping_id']).toBe(r.overlapping_id);
      expect(p['row_data']).toEqual(r.row_data);
    }

    const csv = await t.caller.get(`/api/custom-analysis/${id}/export/?category=outside&format=csv`);
    expect(csv.status).toBe(200);
    const lines = csv.raw.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      'row_number,farm_name,category,overlapping,overlapping_id,conflicting_farmlands,unrecognized,area_sqm,hectares,operational_area,covered_fraction,errors,warnings,geometry,row_data',
    );
    expect(lines.slice(1).map((l) => Number(l.slice(0, l.indexOf(','))))).toEqual(numbers);
    // The one CSV writer neutralises a formula in a cell.
    expect(csv.raw).toContain(`1001,"'=HYPERLINK(""x"")",outside`);
  }, 120_000);

  it('reads overlaps through the cursor in their grouped order, as the list pages and the export give them', async () => {
    const whole = await readWhole(t.caller, 'overlapping', 97);
    const keys = whole.rows.map((r) => [r.overlapping_id!, r.row_number] as const);
    const sorted = [...keys].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(keys).toEqual(sorted);
    expect(new Set(whole.rows.map((r) => r.overlapping_id)).size).toBe(37);
    // The page-number list's first pages are the same rows in the same order.
    const page1 = await t.caller.get(`/api/custom-analysis/${id}/overlapping/?page=1&page_size=100`);
    const page2 = await t.caller.get(`/api/custom-analysis/${id}/overlapping/?page=2&page_size=100`);
    expect([...page1.body.data.results, ...page2.body.data.results].map((r: Farm) => r.row_number)).toEqual(whole.rows.slice(0, 200).map((r) => r.row_number));
    const geo = await t.caller.get(`/api/custom-analysis/${id}/export/?category=overlapping&format=geojson`);
    const fc = JSON.parse(geo.raw) as { features: Feature[] };
    expect(fc.features.map((f) => [f.properties['overlapping_id'], f.properties['row_number']])).toEqual(keys.map((k) => [...k]));
    // A cursor in the middle of a group goes on from there.
    const mid = whole.rows[500]!;
    const res = await t.caller.get(`/api/custom-analysis/${id}/overlapping/?after=${mid.row_number}&page_size=3`);
    expect(res.body.data.results.map((r: Farm) => r.row_number)).toEqual(whole.rows.slice(501, 504).map((r) => r.row_number));
  }, 120_000);

  it('keeps page numbers within the first 10,000 rows, and refuses bad cursors naming the field', async () => {
    const deep = await t.caller.get(`/api/custom-analysis/${id}/outside/?page=101&page_size=100`);
    expect(deep.status).toBe(400);
    expect(Object.keys(deep.body.errors)[0]).toBe('page');
    expect(deep.body.errors.page[0]).toContain('after=');
    const last = await t.caller.get(`/api/custom-analysis/${id}/outside/?page=100&page_size=100`);
    expect(last.status).toBe(200);
    expect(last.body.data.next).toBeNull();
    for (const [query, field] of [
      ['after=-1', 'after'],
      ['after=abc', 'after'],
      ['after=1.5', 'after'],
      ['after=20&page=2', 'after'],
      // Row 20 is within, not outside; a cursor must name a row of its list.
      ['after=20', 'after'],
      ['after=99999999', 'after'],
    ] as const) {
      const res = await t.caller.get(`/api/custom-analysis/${id}/outside/?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.errors)[0], query).toBe(field);
    }
    // The last row of the list: an empty page with no next.
    const [lastRow] = await env.sql<{ n: number }>(
      sql`SELECT max(row_number)::int AS n FROM custom_analysis_rows WHERE analysis_id = ${id} AND category = 'outside'`,
    );
    const end = await t.caller.get(`/api/custom-analysis/${id}/outside/?after=${lastRow!.n}`);
    expect(end.status).toBe(200);
    expect(end.body.data.results).toEqual([]);
    expect(end.body.data.next).toBeNull();
  });

  it("is not another tenant's to read", async () => {
    for (const path of ['outside/?after=0', 'overlapping/?after=0', 'export/?category=outside&format=geojson']) {
      const res = await env.as('adminB').get(`/api/custom-analysis/${id}/${path}`);
      expect(res.status, path).toBe(404);
    }
  });
});

describe('a client that disconnects mid-export', () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    server = http.createServer((req, res) => env.app.routing(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Polls until the condition holds (state, not time), failing after timeoutMs. */
  async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
    for (const end = Date.now() + timeoutMs; !(await check());) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  for (const format of ['geojson', 'csv'] as const) {
    it(`stops reading the rows, and leaves no transaction or statement open (${format})`, async () => {
      const before = { ...streamStats };
      const [outside] = await env.sql<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM custom_analysis_rows WHERE analysis_id = ${id} AND category = 'outside'`,
      );
      const received = await new Promise<number>((resolve, reject) => {
        const req = http.get(
          {
            host: '127.0.0.1',
            port,
            path: `/api/custom-analysis/${id}/export/?category=outside&format=${format}`,
            headers: { authorization: `Bearer ${t.caller.token}` },
          },
          (res) => {
            expect(res.statusCode).toBe(200);
            let bytes = 0;
            res.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
              // A little of the file, then the client goes away.
              if (bytes > 32 * 1024) {
                res.socket.destroy();
                resolve(bytes);
              }
            });
            res.on('error', () => undefined);
          },
        );
        req.on('error', reject);
      });
      expect(received).toBeGreaterThan(0);
      // The export ended (its generator returned): no read can start after this.
      await until('the export to stop', () => streamStats.active === before.active);
      const read = streamStats.chunks - before.chunks;
      const rows = streamStats.rows - before.rows;
      expect(read).toBeGreaterThan(0);
      // It stopped well before the end of the category (the rest was never read).
      expect(rows).toBeLessThan(outside!.n / 2);
      // Nothing of it is left on the database: no open cursor, no transaction idle or running.
      // (pg_cursors lists this statement's own unnamed portal, and nothing else.)
      const cursors = await env.sql<{ name: string; statement: string }>(sql`SELECT name, statement FROM pg_cursors`);
      expect(cursors.filter((c) => c.name !== '')).toEqual([]);
      if (env.engine === 'postgres') {
        const open = await env.database.adminQuery<{ state: string; query: string }>(
          `SELECT state, query FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid()
              AND (state LIKE 'idle in transaction%' OR (state = 'active' AND (query ILIKE '%custom_analysis_rows%' OR query ILIKE '%EXECUTE r\\_%')))`,
        );
        expect(open).toEqual([]);
      }
      // And the count of reads stays where it stopped while the app serves other requests.
      expect((await t.caller.get(`/api/custom-analysis/${id}/outside/?after=0&page_size=5`)).status).toBe(200);
      expect((await t.caller.get(`/api/custom-analysis/${id}/`)).status).toBe(200);
      expect(streamStats.chunks - before.chunks).toBe(read);
      expect(streamStats.rows - before.rows).toBe(rows);
    }, 60_000);
  }
});
