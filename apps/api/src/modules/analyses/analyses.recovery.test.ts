// Issue 16, poison jobs and recovery, on the database of either engine: a run claims its analysis alone; a run that
// stopped beating (its process ended) is requeued once and failed at the second crash with a reason naming the step;
// the reason a user sees is the first real one, never a later generic message.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ctx } from '../../context.js';
import { arrangeTenant, rect, square } from '../../test/analysis-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { failAnalysisRun, releaseAnalysisRun, runAnalysis } from './analyses.pipeline.js';
import { createAnalysis } from './analyses.service.js';
import { STALE_RUN_SECONDS } from './analyses.run.queries.js';
import { recoverStaleRuns, type AnalysisJobData } from './analyses.job.js';

describe('analysis runs: claims, crashes and reasons', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;
  let ctx: Ctx;

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [{ name: 'Block', ring: rect(13.0, 13.0, 13.2, 13.2) }]);
    ctx = {
      actor: { userId: t.adminId, sessionId: t.adminId, role: 'tenant_admin', tenantId: t.tenantId, name: 'Admin', email: 'a@example.com' },
      platform: 'api',
      ip: '127.0.0.1',
      country: null,
      requestId: 'test',
    };
  });

  /** An analysis staged and queued, with no job behind it (the test plays the worker). */
  const queued = async (rows = 20) => {
    const a = await createAnalysis(env.deps, ctx, async () => undefined, {
      name: 'recovery',
      operationalAreas: t.areaIds,
      minimumFarmSize: 1,
      requireRecognition: false,
      source: {
        kind: 'json',
        locations: Array.from({ length: rows }, (_, i) => ({
          farm_name: `R${i}`,
          farm_coordinates: square(13.01 + (i % 40) * 0.002, 13.01 + Math.floor(i / 40) * 0.002),
        })),
      },
    });
    return a.id;
  };
  const row = async (id: string) =>
    (
      await env.sql<{ status: string; failure_reason: string | null; attempts: number; crashes: number; within_count: number }>(sql`
      SELECT status, failure_reason, attempts, crashes, within_count FROM custom_analyses WHERE id = ${id}`)
    )[0]!;
  /** What a process that died mid-run leaves behind: processing, in a step, with its last heartbeat long ago. */
  const crashedRun = async (id: string, crashes: number) => {
    await env.sql(sql`
      UPDATE custom_analyses SET status = 'processing', phase = 'overlaps', attempts = attempts + 1, crashes = ${crashes}, run_id = gen_random_uuid(),
             heartbeat_at = now() - make_interval(secs => ${STALE_RUN_SECONDS + 5}) WHERE id = ${id}`);
  };

  it('requeues a run that stopped beating, and the requeued run completes', async () => {
    const id = await queued();
    await crashedRun(id, 0);
    const sent: AnalysisJobData[] = [];
    const r = await recoverStaleRuns(env.deps, async (d) => void sent.push(d), STALE_RUN_SECONDS);
    expect(r.requeued).toContain(id);
    expect(sent).toContainEqual({ analysisId: id, tenantId: t.tenantId });
    expect(await row(id)).toMatchObject({ status: 'queued', crashes: 1 });
    expect(await runAnalysis(env.deps, t.tenantId, id)).toBe('completed');
    expect(await row(id)).toMatchObject({ status: 'completed', within_count: 20, failure_reason: null });
  });

  it('fails a run at its second crash, with a reason naming the step, and never runs it again', async () => {
    const id = await queued();
    await crashedRun(id, 1);
    const sent: AnalysisJobData[] = [];
    const r = await recoverStaleRuns(env.deps, async (d) => void sent.push(d), STALE_RUN_SECONDS);
    expect(r.failed).toContain(id);
    expect(sent.filter((d) => d.analysisId === id)).toEqual([]);
    const after = await row(id);
    expect(after.status).toBe('failed');
    expect(after.failure_reason).toMatch(/stopped the server 2 times \(during its overlaps step\)/);
    // A late delivery of its old job does nothing.
    expect(await runAnalysis(env.deps, t.tenantId, id)).toBe('skipped');
    expect((await row(id)).status).toBe('failed');
  });

  it('leaves a run that still beats alone', async () => {
    const id = await queued();
    await env.sql(sql`UPDATE custom_analyses SET status = 'processing', heartbeat_at = now(), run_id = gen_random_uuid() WHERE id = ${id}`);
    const r = await recoverStaleRuns(env.deps, async () => undefined, STALE_RUN_SECONDS);
    expect([...r.requeued, ...r.failed]).not.toContain(id);
    expect((await row(id)).status).toBe('processing');
    // Nor can another run claim it.
    expect(await runAnalysis(env.deps, t.tenantId, id)).toBe('skipped');
  });

  it('lets one of two concurrent deliveries run the analysis; the other skips', async () => {
    const id = await queued(200);
    const results = await Promise.all([runAnalysis(env.deps, t.tenantId, id), runAnalysis(env.deps, t.tenantId, id)]);
    expect(results.sort()).toEqual(['completed', 'skipped']);
    expect(await row(id)).toMatchObject({ status: 'completed', within_count: 200, attempts: 1 });
  });

  it('keeps the first real failure reason when a later, generic one arrives', async () => {
    const id = await queued();
    await env.sql(sql`UPDATE custom_analyses SET status = 'processing' WHERE id = ${id}`);
    await releaseAnalysisRun(env.deps, t.tenantId, id, 'The analysis failed: could not read block 7');
    expect(await row(id)).toMatchObject({ status: 'queued', failure_reason: 'The analysis failed: could not read block 7' });
    await failAnalysisRun(env.deps, t.tenantId, id, 'The analysis stopped before it could finish (the worker ended). Upload it again.');
    expect(await row(id)).toMatchObject({ status: 'failed', failure_reason: 'The analysis failed: could not read block 7' });
  });

  it('does not let a dead-lettered job fail an analysis that a newer job will run', async () => {
    const id = await queued();
    await failAnalysisRun(env.deps, t.tenantId, id, 'The analysis stopped before it could finish (the worker ended). Upload it again.', true);
    expect((await row(id)).status).toBe('queued');
  });
});
