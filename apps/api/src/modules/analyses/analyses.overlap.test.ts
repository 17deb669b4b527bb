// Issue 16 through the API and the pipeline: uploads whose rows all overlap one another (exact repeats and near
// repeats), the bounded overlap step on random uploads with tiny bounds (so that the crowded paths run with a handful
// of rows) against an independent computation, and poison rows that must become row errors while the rest is classified.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { arrangeTenant, outcome, rect, settled, square } from '../../test/analysis-fixtures.js';
import { RowUnion } from './analyses.overlap.js';
import { runAnalysis, tuningFor } from './analyses.pipeline.js';
import { createAnalysis } from './analyses.service.js';

describe('overlap step bounded by rows, not pairs', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [{ name: 'Block', ring: rect(11.0, 11.0, 11.2, 11.2) }]);
  });

  const create = async (locations: unknown[], extra: Record<string, unknown> = {}) => {
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'overlap',
      operational_areas: t.areaIds,
      locations,
      require_farm_recognition: false,
      minimum_farm_size: 1,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };

  it('puts 3,000 copies of one square in one group, as twins of the first', async () => {
    const id = await create(Array.from({ length: 3000 }, (_, i) => ({ farm_name: `Copy ${i + 1}`, farm_coordinates: square(11.05, 11.05) })));
    const detail = await settled(t.caller, id);
    expect(detail.status).toBe('completed');
    expect(detail.overlapping_farmlands.count).toBe(3000);
    expect(detail.within_operational_area.count).toBe(3000);
    const page = await t.caller.get(`/api/custom-analysis/${id}/overlapping/?page=30&page_size=100`);
    expect(page.body.data.results.map((r: { overlapping_id: number }) => r.overlapping_id)).toEqual(new Array(100).fill(1));
    expect(page.body.data.results[99].row_number).toBe(3000);
    const [groups] = await env.sql<{ n: number; size: number }>(
      sql`SELECT count(DISTINCT overlapping_id)::int AS n, max(group_size) AS size FROM custom_analysis_rows WHERE analysis_id = ${id}`,
    );
    expect(groups).toEqual({ n: 1, size: 3000 });
    const [twins] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM custom_analysis_rows WHERE analysis_id = ${id} AND dup_of = 1`);
    expect(twins!.n).toBe(2999);
  }, 120_000);

  it('groups 400 near-identical squares (each shifted a little) through the crowded path, with no row left unchecked', async () => {
    const locs = Array.from({ length: 400 }, (_, i) => ({ farm_name: `Near ${i + 1}`, farm_coordinates: square(11.1 + i * 1e-7, 11.1 + (i % 7) * 1e-7) }));
    // Two separate plots far away, each overlapping nothing.
    locs.push({ farm_name: 'Alone 1', farm_coordinates: square(11.01, 11.01) }, { farm_name: 'Alone 2', farm_coordinates: square(11.03, 11.01) });
    const { detail, rows } = await outcome(t.caller, await create(locs));
    expect(detail.errors.count).toBe(0);
    expect(detail.overlapping_farmlands.count).toBe(400);
    expect(new Set(Array.from({ length: 400 }, (_, i) => rows.get(i + 1)!.overlapping_id))).toEqual(new Set([1]));
    expect(rows.get(401)!.is_overlapping).toBe(false);
  }, 120_000);

  /** Random rectangles on a small grid (so they overlap, touch and repeat), run with tiny bounds. */
  type Box = { x: number; y: number; w: number; h: number };
  const boxArb: fc.Arbitrary<Box> = fc.record({
    x: fc.integer({ min: 0, max: 6 }),
    y: fc.integer({ min: 0, max: 3 }),
    w: fc.integer({ min: 1, max: 4 }),
    h: fc.integer({ min: 1, max: 3 }),
  });
  const at = (k: number) => Number((11 + k * 0.0005).toFixed(7));
  const boxRing = (b: Box) => rect(at(b.x), at(b.y), at(b.x + b.w), at(b.y + b.h));
  const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

  it('with tiny bounds, finds exactly the components of the overlap graph among the rows it settles', async () => {
    const seen = { crowded: 0, tooDense: 0, runs: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(boxArb, { minLength: 2, maxLength: 24 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 4 }),
        async (boxes, limit, denseLimit) => {
          // Created without the queue, then run here with bounds small enough to make rows crowded and unsettled.
          const ctx = {
            actor: { userId: t.adminId, sessionId: t.adminId, role: 'tenant_admin' as const, tenantId: t.tenantId, name: 'Admin', email: 'a@example.com' },
            platform: 'api' as const,
            ip: '127.0.0.1',
            country: null,
            requestId: 'test',
          };
          const created = await createAnalysis(env.deps, ctx, async () => undefined, {
            name: 'tiny bounds',
            operationalAreas: t.areaIds,
            minimumFarmSize: 1,
            requireRecognition: false,
            source: { kind: 'json', locations: boxes.map((b, i) => ({ farm_name: `B${i + 1}`, farm_coordinates: boxRing(b) })) },
          });
          const id = created.id;
          const result = await runAnalysis(env.deps, t.tenantId, id, tuningFor(env.deps.database.kind), {
            overlap: { limit, denseLimit, targetMs: 100, firstRange: 3 },
            onOverlap: (r) => {
              seen.runs++;
              seen.crowded += r.crowded;
              seen.tooDense += r.tooDense;
            },
          });
          expect(result).toBe('completed');
          const { detail, rows } = await outcome(t.caller, id);
          const dense = [...rows].filter(([, r]) => r.errors.includes('overlap_too_dense')).map(([n]) => n);
          expect(detail.errors.count).toBe(dense.length);
          // Every other row: groups are the connected components of the overlap graph over the rows still valid.
          const kept = boxes.map((b, i) => ({ b, n: i + 1 })).filter(({ n }) => !dense.includes(n));
          const uf = new RowUnion(boxes.length);
          for (const p of kept) for (const q of kept) if (p.n < q.n && overlaps(p.b, q.b)) uf.union(p.n, q.n);
          const expected = new Map(uf.groups().map((x) => [x.n, x.g]));
          for (const { n } of kept) {
            const got = rows.get(n)!;
            expect(got.is_overlapping, `row ${n}`).toBe(expected.has(n));
            if (expected.has(n)) expect(got.overlapping_id, `row ${n}`).toBe(expected.get(n));
          }
        },
      ),
      { numRuns: 12, seed: 20261122 },
    );
    // The runs went through the crowded paths (stage 2) and the unsettled one, not only stage 1.
    expect(seen.crowded).toBeGreaterThan(0);
    expect(seen.tooDense).toBeGreaterThan(0);
    expect(seen.runs).toBeGreaterThanOrEqual(12);
  }, 300_000);
});

describe('poison rows are row errors', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [{ name: 'Block', ring: rect(12.0, 12.0, 12.2, 12.2) }]);
  });

  type Poison = 'nul_name' | 'nul_extra' | 'surrogate_extra' | 'surrogate_key' | 'antipodal' | 'pole' | 'deep' | 'nan_text';
  const poison = (kind: Poison, i: number): Record<string, unknown> => {
    const ok = square(12.01 + (i % 50) * 0.002, 12.01 + Math.floor(i / 50) * 0.002);
    switch (kind) {
      case 'nul_name':
        return { farm_name: `Farm\u0000${i}`, farm_coordinates: ok };
      case 'nul_extra':
        return { farm_name: `Farm ${i}`, farm_coordinates: ok, note: 'a\u0000b' };
      case 'surrogate_extra':
        return { farm_name: `Farm ${i}`, farm_coordinates: ok, note: 'lone \uD800 here' };
      case 'surrogate_key':
        return { farm_name: `Farm ${i}`, farm_coordinates: ok, ['k\uDC00']: 1 };
      case 'antipodal':
        return {
          farm_name: `Farm ${i}`,
          farm_coordinates: [
            [-90, 0],
            [90, 0],
            [90, 10],
            [-90, 0],
          ],
        };
      case 'pole':
        return {
          farm_name: `Farm ${i}`,
          farm_coordinates: [
            [0, 80],
            [180, 80],
            [90, 85],
            [0, 80],
          ],
        };
      case 'deep': {
        // Deeper than row_data keeps (16), within what the API's input guard lets through (32 from the body's root:
        // deeper than that, the upload is refused with a 400 naming the row and field; see test/bad-input.test.ts).
        let v: unknown = 'bottom';
        for (let d = 0; d < 24; d++) v = [v];
        return { farm_name: `Farm ${i}`, farm_coordinates: ok, nested: v };
      }
      case 'nan_text':
        return { farm_name: `Farm ${i}`, farm_coordinates: '[["NaN", 1], [2, "Infinity"], [3, 3]]' };
    }
  };
  const codeOf: Record<Poison, string> = {
    nul_name: 'invalid_characters',
    nul_extra: 'invalid_characters',
    surrogate_extra: 'invalid_characters',
    surrogate_key: 'invalid_characters',
    antipodal: 'edge_too_long',
    pole: 'edge_too_long',
    deep: 'value_too_deep',
    nan_text: 'coordinates_unreadable',
  };

  it('completes with exactly the poison rows in error, whatever they are and wherever they sit', async () => {
    const kinds = Object.keys(codeOf) as Poison[];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(fc.constantFrom(...kinds), { freq: 3 }), { minLength: 1, maxLength: 40 }), async (plan) => {
        const locations = plan.map((k, i) =>
          k ? poison(k, i) : { farm_name: `Good ${i}`, farm_coordinates: square(12.01 + (i % 50) * 0.002, 12.01 + Math.floor(i / 50) * 0.002) },
        );
        const res = await t.caller.post('/api/custom-analysis/', {
          name: 'poison',
          operational_areas: t.areaIds,
          locations,
          require_farm_recognition: false,
          minimum_farm_size: 1,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        const { detail, rows, lists } = await outcome(t.caller, res.body.data.id);
        const expectedErrors = plan.map((k, i) => (k ? i + 1 : 0)).filter((n) => n > 0);
        expect(lists['errors']).toEqual(expectedErrors);
        plan.forEach((k, i) => {
          if (k) expect(rows.get(i + 1)!.errors, `row ${i + 1} (${k})`).toContain(codeOf[k]);
          else expect(rows.get(i + 1)!.category).toBe('within');
        });
        expect(detail.within_operational_area.count + detail.errors.count).toBe(plan.length);
      }),
      { numRuns: 8, seed: 16 },
    );
  }, 300_000);

  it('keeps the poison values readable in row_data (replaced, never dropped silently)', async () => {
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'poison values',
      operational_areas: t.areaIds,
      locations: [{ farm_name: 'X\u0000Y', farm_coordinates: square(12.1, 12.1), note: 'lone \uD800' }],
      require_farm_recognition: false,
    });
    expect(res.status).toBe(201);
    await outcome(t.caller, res.body.data.id);
    const list = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/errors/`);
    const row = list.body.data.results[0];
    expect(row.row_data.farm_name).toBe('X\uFFFDY');
    expect(row.row_data.note).toBe('lone \uFFFD');
    expect(row.errors.map((e: { field: string }) => e.field).sort()).toEqual(['farm_name', 'note']);
  });

  it('turns a row the database refuses into that row error, and classifies the rest (the batch is halved to find it)', async () => {
    // A stand-in for any refusal PostGIS may raise on one row's data (the classes known today are caught before SQL):
    // a trigger that fails with PostGIS's SQLSTATE (XX000) on one name. The error row is written without its polygon,
    // so the trigger lets that through.
    await env.deps.database.adminExec(`
      CREATE OR REPLACE FUNCTION test_poison_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.farm_name = 'Poison row' AND NEW.geom IS NOT NULL THEN RAISE EXCEPTION 'lwgeom: simulated refusal' USING ERRCODE = 'XX000'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER test_poison_row BEFORE INSERT ON custom_analysis_rows FOR EACH ROW EXECUTE FUNCTION test_poison_row();`);
    try {
      const locations = Array.from({ length: 230 }, (_, i) => ({
        farm_name: i === 150 ? 'Poison row' : `Good ${i}`,
        farm_coordinates: square(12.01 + (i % 50) * 0.002, 12.05 + Math.floor(i / 50) * 0.002),
      }));
      const res = await t.caller.post('/api/custom-analysis/', {
        name: 'refused',
        operational_areas: t.areaIds,
        locations,
        require_farm_recognition: false,
        minimum_farm_size: 1,
      });
      expect(res.status).toBe(201);
      const { detail, rows } = await outcome(t.caller, res.body.data.id);
      expect(detail.errors.count).toBe(1);
      expect(rows.get(151)!.errors).toEqual(['geometry_rejected']);
      expect(detail.within_operational_area.count).toBe(229);
    } finally {
      await env.deps.database.adminExec(`DROP TRIGGER IF EXISTS test_poison_row ON custom_analysis_rows; DROP FUNCTION IF EXISTS test_poison_row();`);
    }
  }, 120_000);
});
