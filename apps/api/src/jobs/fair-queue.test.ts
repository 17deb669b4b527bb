// Issue 15 §3, on the engine of this run, through the API and the app's own worker: analyses are scheduled fairly across
// tenants (tenant A floods 100 analyses, tenant B's next one starts within 5 s), and a tenant with the most analyses
// waiting that the configuration allows gets 429 with Retry-After, with nothing stored for the refused upload, while
// another tenant still uploads.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx } from '../context.js';
import { createAnalysis } from '../modules/analyses/analyses.service.js';
import { arrangeTenant, multipart, rect, settled, square } from '../test/analysis-fixtures.js';
import { testEnv, type TestEnv } from '../test/harness.js';
import { sendFair } from '../modules/analyses/analyses.job.js';
import { startBoss } from './queue.js';

/** Every stored file of a tenant (staged rows and source files live under its id). */
function storedFiles(env: TestEnv, tenantId: string): string[] {
  const dir = path.join(env.config.dataDir, 'files', tenantId);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name))
    .sort();
}

const locations = (x: number, y: number, n = 2) => Array.from({ length: n }, (_, i) => ({ farm_name: `F${i}`, farm_coordinates: square(x + i * 0.002, y) }));

describe('fair analysis queues across tenants', () => {
  let env: TestEnv;
  let limit: number;

  beforeAll(async () => {
    env = await testEnv();
    limit = env.deps.config.analysisMaxQueuedPerTenant;
  });
  afterAll(() => {
    env.deps.config.analysisMaxQueuedPerTenant = limit;
  });

  it('orders jobs in rounds across tenants, for every process that fetches, and a retry keeps its place', async () => {
    const queue = 'fairq-order-test';
    const spec = [{ name: queue, retryLimit: 2, retryDelay: 0, expireInSeconds: 60 }];
    // Two pg-boss instances stand for two worker processes: the order lives in the database, not in either of them.
    const [p1, p2] = [await startBoss(env.database, spec, env.deps.log), await startBoss(env.database, spec, env.deps.log)];
    try {
      const [A, B, C] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      const name = { [A]: 'A', [B]: 'B', [C]: 'C' };
      const send = (tenantId: string, n: number) => sendFair(env.deps, p1, { analysisId: `${name[tenantId]}${n}`, tenantId }, queue);
      const fetchOne = async (p: typeof p1) => {
        const [job] = await p.fetch<{ analysisId: string }>(queue, { batchSize: 1 });
        return job;
      };
      for (let i = 0; i < 5; i++) await send(A, i);
      expect((await fetchOne(p1))?.data.analysisId).toBe('A0');
      await send(B, 0);
      await send(B, 1);
      await send(C, 0);
      const order: string[] = [];
      for (let i = 0; ; i++) {
        const job = await fetchOne(i % 2 ? p1 : p2);
        if (!job) break;
        order.push(job.data.analysisId);
        // A1's first attempt fails: its retry goes before B1, in A's round, not to the back of the queue.
        if (job.data.analysisId === 'A1' && order.filter((x) => x === 'A1').length === 1) {
          await p2.fail(queue, job.id, new Error('attempt failed'));
          // The retry may start at now() + retryDelay (0), and a fetch takes jobs that start before its now(). On
          // PGlite the clock moves in whole milliseconds, so a fetch in the same millisecond skipped the retry (B1
          // came first in one CI run): the next fetch waits until the retry can start.
          await expect
            .poll(async () => (await env.sql<{ ready: boolean }>(sql`SELECT start_after < now() AS ready FROM pgboss.job WHERE id = ${job.id}`))[0]?.ready)
            .toBe(true);
        } else await p1.complete(queue, job.id);
      }
      expect(order).toEqual(['B0', 'C0', 'A1', 'A1', 'B1', 'A2', 'A3', 'A4']);
      // The index the priority statement reads was installed with the queues.
      expect(await env.sql(sql`SELECT 1 FROM pg_indexes WHERE schemaname = 'pgboss' AND indexname = 'job_fair_idx'`)).toHaveLength(1);
    } finally {
      await p1.deleteQueue(queue).catch(() => undefined);
      await Promise.all([p1, p2].map((p) => p.stop({ graceful: false, close: false, wait: true })));
    }
  });

  it("starts tenant B's analysis within 5 s while tenant A has 100 queued", async () => {
    env.deps.config.analysisMaxQueuedPerTenant = 1000;
    const a = await arrangeTenant(env, [{ name: 'Flood', ring: rect(20.0, 20.0, 20.2, 20.2) }]);
    const b = await arrangeTenant(env, [{ name: 'Patient', ring: rect(21.0, 21.0, 21.2, 21.2) }]);
    const body = (areas: string[], x: number, i: number) => ({
      name: `Fair ${i}`,
      operational_areas: areas,
      require_farm_recognition: false,
      minimum_farm_size: 1,
      locations: locations(x, x + 0.05),
    });

    const flood: string[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await a.caller.post('/api/custom-analysis/', body(a.areaIds, 20.01, i));
      expect(res.status, res.raw).toBe(201);
      flood.push(res.body.data.id);
    }
    const res = await b.caller.post('/api/custom-analysis/', body(b.areaIds, 21.01, 0));
    expect(res.status, res.raw).toBe(201);
    const id: string = res.body.data.id;

    // The time from B's upload to its run's claim, both by the database's clock.
    let waited: number | null = null;
    for (const end = Date.now() + 30_000; Date.now() < end && waited === null;) {
      const [r] = await env.sql<{ waited: number | null }>(
        sql`SELECT extract(epoch FROM started_at - created_at)::float8 AS waited FROM custom_analyses WHERE id = ${id}`,
      );
      waited = r?.waited ?? null;
      if (waited === null) await new Promise((r) => setTimeout(r, 100));
    }
    // Most of A's flood was still waiting when B's analysis started: B went ahead of them, not after them.
    const [after] = await env.sql<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM custom_analyses a
       WHERE a.tenant_id = ${a.tenantId} AND (a.started_at IS NULL OR a.started_at > (SELECT started_at FROM custom_analyses WHERE id = ${id}))`);
    expect(waited, 'B never started').not.toBeNull();
    expect(waited!).toBeLessThan(5);
    expect(after!.n).toBeGreaterThanOrEqual(20);
    // The status the console polls still goes through to completed.
    const detail = await settled(b.caller, id);
    expect(detail.status).toBe('completed');
    expect(detail['total_uploaded_data_count']).toBe(2);

    // A's analyses that have not started are withdrawn (deleting a queued analysis is the user's way), so that the rest
    // of this worker's tests do not wait behind them.
    for (const fid of flood) {
      const [s] = await env.sql<{ status: string }>(sql`SELECT status FROM custom_analyses WHERE id = ${fid}`);
      if (s?.status === 'queued') expect((await a.caller.delete(`/api/custom-analysis/${fid}/`)).status).toBe(200);
    }
  }, 120_000);

  it('answers 429 with Retry-After beyond the queue-depth limit, stores nothing for it, and leaves other tenants alone', async () => {
    env.deps.config.analysisMaxQueuedPerTenant = 3;
    const c = await arrangeTenant(env, [{ name: 'Busy', ring: rect(22.0, 22.0, 22.2, 22.2) }]);
    const d = await arrangeTenant(env, [{ name: 'Other', ring: rect(23.0, 23.0, 23.2, 23.2) }]);
    const ctx: Ctx = {
      actor: { userId: c.adminId, sessionId: c.adminId, role: 'tenant_admin', tenantId: c.tenantId, name: 'Admin', email: 'c@example.com' },
      platform: 'api',
      ip: '127.0.0.1',
      country: null,
      requestId: 'test',
    };
    // Three analyses waiting to start (queued, with no job behind them: no worker takes them during the test).
    for (let i = 0; i < 3; i++) {
      await createAnalysis(env.deps, ctx, async () => undefined, {
        name: `Waiting ${i}`,
        operationalAreas: c.areaIds,
        requireRecognition: false,
        source: { kind: 'json', locations: locations(22.01, 22.05) },
      });
    }
    const count = async (tenantId: string) =>
      (
        await env.sql<{ analyses: number; files: number; activity: number }>(sql`
        SELECT (SELECT count(*)::int FROM custom_analyses WHERE tenant_id = ${tenantId}) AS analyses,
               (SELECT count(*)::int FROM files WHERE tenant_id = ${tenantId}) AS files,
               (SELECT count(*)::int FROM activity_logs WHERE tenant_id = ${tenantId}) AS activity`)
      )[0]!;
    const before = { rows: await count(c.tenantId), files: storedFiles(env, c.tenantId) };
    expect(before.rows.analyses).toBe(3);

    const json = await c.caller.post('/api/custom-analysis/', { name: 'One too many', operational_areas: c.areaIds, locations: locations(22.01, 22.05) });
    expect(json.status, json.raw).toBe(429);
    expect(json.body.code).toBe('analysis_queue_full');
    expect(json.body.message).toMatch(/3 analyses waiting to start/);
    expect(json.headers['retry-after']).toBe('30');

    const csv = Buffer.from('farm_name,farm_coordinates\nx,"[[22.01,22.05],[22.011,22.05],[22.011,22.051]]"\n');
    const file = multipart({ name: 'One too many (file)', operational_areas: c.areaIds }, 'farms.csv', csv, 'text/csv');
    const upload = await c.caller.request({ method: 'POST', url: '/api/custom-analysis/', payload: file.payload, headers: file.headers });
    expect(upload.status, upload.raw).toBe(429);
    expect(upload.body.code).toBe('analysis_queue_full');
    expect(upload.headers['retry-after']).toBe('30');

    expect(await count(c.tenantId)).toEqual(before.rows);
    expect(storedFiles(env, c.tenantId)).toEqual(before.files);

    // Another tenant is not held by this one's queue.
    const other = await d.caller.post('/api/custom-analysis/', {
      name: 'Unaffected',
      operational_areas: d.areaIds,
      require_farm_recognition: false,
      minimum_farm_size: 1,
      locations: locations(23.01, 23.05),
    });
    expect(other.status, other.raw).toBe(201);

    // One slot left, three uploads at once (the service with no job behind them, so that none starts and leaves the
    // queue meanwhile): exactly one is stored, the others are refused, and nothing of theirs is left behind.
    env.deps.config.analysisMaxQueuedPerTenant = 4;
    const results = await Promise.allSettled(
      [0, 1, 2].map((i) =>
        createAnalysis(env.deps, ctx, async () => undefined, {
          name: `Race ${i}`,
          operationalAreas: c.areaIds,
          requireRecognition: false,
          source: { kind: 'file', data: csv, filename: `race${i}.csv` },
        }),
      ),
    );
    const stored = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.id] : []));
    expect(stored).toHaveLength(1);
    expect(results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { status?: number; code?: string }).code] : []))).toEqual([
      'analysis_queue_full',
      'analysis_queue_full',
    ]);
    expect(await count(c.tenantId)).toEqual({ analyses: 4, files: before.rows.files + 1, activity: before.rows.activity + 1 });
    // The stored upload's staged rows and its source file; nothing else.
    const added = storedFiles(env, c.tenantId).filter((f) => !before.files.includes(f));
    expect(added.filter((f) => f.includes('analysis_staged'))).toEqual([expect.stringContaining(stored[0]!)]);
    expect(added.filter((f) => f.includes('analysis_source'))).toHaveLength(1);
    expect(added).toHaveLength(2);
  }, 60_000);
});
