// The analysis benchmark's plans (--explain, --explain-classify, --parts): where the pipeline's statements spend their time.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../context.js';
import { queryRows, withScope } from '../db/client.js';
import { batchText, linesOf } from '../modules/analyses/analyses.pipeline.js';
import { classifySql } from '../modules/analyses/analyses.run.queries.js';
import { stageSource } from '../modules/analyses/analyses.service.js';

/** Plans of the pipeline's probes as the app role (row-level security on), on both engines. */
export async function explain(deps: Deps, tenantId: string, analysisId: string, areaIds: string[]): Promise<void> {
  const show = async (title: string, text: SQL) => {
    const rows = await withScope(deps.db, { kind: 'tenant', tenantId }, (tx) =>
      queryRows<{ 'QUERY PLAN': string }>(tx, sql`EXPLAIN (ANALYZE, COSTS OFF) ${text}`),
    );
    process.stdout.write(`  EXPLAIN ANALYZE ${title}:\n${rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}\n`);
  };
  await show(
    'overlap pairs of a row range (1..1000)',
    sql`SELECT a.row_number AS a, b.row_number AS b
      FROM custom_analysis_rows a
      JOIN custom_analysis_rows b ON b.geom && a.geom AND b.geom IS NOT NULL AND (b.analysis_id = a.analysis_id) IS TRUE AND b.row_number - a.row_number > 0
     WHERE a.tenant_id = ${tenantId} AND a.analysis_id = ${analysisId} AND a.row_number >= 1 AND a.row_number < 1001 AND a.geom IS NOT NULL
       AND ST_Relate(a.geom, b.geom, '2********')`,
  );
  await withScope(deps.db, { kind: 'tenant', tenantId }, async (tx) => {
    const groups = await queryRows<{ n: number; g: number }>(
      tx,
      sql`SELECT row_number AS n, overlapping_id AS g FROM custom_analysis_rows WHERE analysis_id = ${analysisId} AND is_overlapping ORDER BY row_number LIMIT 1000`,
    );
    const lo = groups[0]?.n ?? 1;
    const dense = new Array<number>((groups.at(-1)?.n ?? lo) - lo + 1).fill(0);
    for (const x of groups) dense[x.n - lo] = x.g;
    const rows = await queryRows<{ 'QUERY PLAN': string }>(
      tx,
      sql`EXPLAIN (ANALYZE, COSTS OFF)
      UPDATE custom_analysis_rows r SET is_overlapping = true, overlapping_id = (${`{${dense.join(',')}}`}::int[])[r.row_number - ${lo - 1}::int]
       WHERE r.tenant_id = ${tenantId} AND r.analysis_id = ${analysisId} AND r.row_number BETWEEN ${lo}::int AND ${groups.at(-1)?.n ?? lo}::int
         AND r.row_number = ANY(${`{${groups.map((x) => x.n).join(',')}}`}::int[])`,
    );
    process.stdout.write(`  EXPLAIN ANALYZE overlap groups update (first 1,000 rows, rolled back):\n${rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}\n`);
    tx.rollback();
  }).catch((err: unknown) => {
    if (!(err instanceof Error) || !/rollback/i.test(err.message)) throw err;
  });
  void areaIds;
}

/** EXPLAIN ANALYZE of one classify statement (rolled back), to see where a batch spends its time. */
export async function explainClassify(deps: Deps, tenantId: string, areaIds: string[], file: Buffer): Promise<void> {
  const at = path.join(deps.config.dataDir, 'explain.csv');
  fs.writeFileSync(at, file);
  const key = `${tenantId}/analysis_staged/explain.ndjson`;
  await stageSource(deps, { kind: 'file', path: at, size: file.length, sha256: '', filename: 'bench.csv' }, areaIds, key);
  const batch = batchText(linesOf((await deps.storage.get(key))!).slice(0, 4));
  await deps.storage.remove(key);
  const id = crypto.randomUUID();
  await withScope(deps.db, { kind: 'tenant', tenantId }, async (tx) => {
    await tx.execute(sql`INSERT INTO custom_analyses (id, tenant_id, name, minimum_farm_size) VALUES (${id}, ${tenantId}, 'explain', 100)`);
    const params = { analysisId: id, allAreas: true, minimumFarmSize: 100, requireRecognition: true, threshold: 0.5 };
    const rows = await queryRows<{ 'QUERY PLAN': string }>(tx, sql`EXPLAIN (ANALYZE, COSTS OFF) ${classifySql(tenantId, params, batch)}`);
    process.stdout.write(`  EXPLAIN ANALYZE classify (1000 rows):\n${rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}\n`);
    tx.rollback();
  }).catch((err: unknown) => {
    if (!(err instanceof Error) || !/rollback/i.test(err.message)) throw err;
  });
}

/**
 * --parts: where a classify statement's time goes, without EXPLAIN's per-node clock reads (costly in WebAssembly). The
 * same staged batches run as cumulative SELECTs (the rows parsed, + ST_IsValid, + the spheroid area, + the covering
 * area probe, + the registry probe), then as the classify statement itself (rolled back); each step's time is the
 * difference from the one before.
 */
export async function classifyParts(deps: Deps, tenantId: string, areaIds: string[], file: Buffer): Promise<void> {
  const at = path.join(deps.config.dataDir, 'parts.csv');
  fs.writeFileSync(at, file);
  const key = `${tenantId}/analysis_staged/parts.ndjson`;
  await stageSource(deps, { kind: 'file', path: at, size: file.length, sha256: '', filename: 'bench.csv' }, areaIds, key);
  const lines = linesOf((await deps.storage.get(key))!).slice(0, 100);
  await deps.storage.remove(key);
  const batches: string[] = [];
  for (let i = 0; i < lines.length; i += 5) batches.push(batchText(lines.slice(i, i + 5)));
  const rows = Math.min(lines.length, 100) * 100;
  // Each step as the classify statement has it: materialized, so each value is computed once per row.
  const g = (
    b: string,
  ) => sql`WITH g AS MATERIALIZED (SELECT s.n, s.oa, CASE WHEN s.w THEN ST_WrapX(s.wkb::geometry, 180, -360) ELSE coalesce(s.wkb::geometry, ST_GeomFromText(s.wkt, 4326)) END AS geom
      FROM jsonb_to_recordset(${b}::jsonb) AS s(n int, name text, wkb text, wkt text, oa uuid, rd jsonb, errs jsonb, d int, w boolean, pt boolean))`;
  const v = (b: string) => sql`${g(b)}, v AS MATERIALIZED (SELECT g.*, ST_IsValid(g.geom) AS ok FROM g)`;
  const m = (b: string) => sql`${v(b)}, m AS MATERIALIZED (SELECT v.*, CASE WHEN v.ok THEN ST_Area(v.geom::geography) END AS area FROM v)`;
  const c = (b: string) => sql`${m(b)}, c AS MATERIALIZED (SELECT m.*, w.id AS within_id FROM m LEFT JOIN LATERAL (
          SELECT a.id FROM operational_areas a WHERE m.ok AND a.geom && m.geom AND a.tenant_id = ${tenantId} AND ST_Covers(a.geom, m.geom)
           ORDER BY (a.id = m.oa) DESC, a.name, a.id LIMIT 1) w ON true)`;
  const steps: Array<[string, (b: string) => SQL]> = [
    ['jsonb_to_recordset + EWKB', (b) => sql`${g(b)} SELECT count(*) FROM g WHERE g.geom IS NOT NULL`],
    ['+ ST_IsValid', (b) => sql`${v(b)} SELECT count(*) FROM v WHERE v.ok`],
    ['+ geography ST_Area', (b) => sql`${m(b)} SELECT sum(m.area) FROM m`],
    ['+ covering area (ST_Covers)', (b) => sql`${c(b)} SELECT count(c.within_id) FROM c`],
    [
      '+ covered fraction of the outside rows',
      (b) => sql`${c(b)} SELECT count(c.within_id), sum(CASE WHEN c.ok AND c.within_id IS NULL THEN
          least(1.0, coalesce((SELECT CASE WHEN count(*) = 1 THEN ST_Area((array_agg(ST_Intersection(a.geom, c.geom)))[1])
                                           ELSE ST_Area(ST_Union(array_agg(ST_Intersection(a.geom, c.geom)))) END
                                 FROM operational_areas a WHERE a.geom && c.geom AND a.tenant_id = ${tenantId} AND ST_Intersects(a.geom, c.geom)), 0) / ST_Area(c.geom)) END) FROM c`,
    ],
    [
      '+ registry probe',
      (b) => sql`${c(b)} SELECT count(c.within_id), sum(CASE WHEN c.ok AND c.within_id IS NULL THEN
          least(1.0, coalesce((SELECT CASE WHEN count(*) = 1 THEN ST_Area((array_agg(ST_Intersection(a.geom, c.geom)))[1])
                                           ELSE ST_Area(ST_Union(array_agg(ST_Intersection(a.geom, c.geom)))) END
                                 FROM operational_areas a WHERE a.geom && c.geom AND a.tenant_id = ${tenantId} AND ST_Intersects(a.geom, c.geom)), 0) / ST_Area(c.geom)) END),
          count(*) FILTER (WHERE c.ok AND NOT EXISTS (SELECT 1 FROM farms f
            WHERE f.geom && c.geom AND f.tenant_id = ${tenantId} AND ST_Intersects(f.geom, c.geom)
              AND (SELECT i / nullif(ST_Area(f.geom) + ST_Area(c.geom) - i, 0) FROM (SELECT ST_Area(ST_Intersection(f.geom, c.geom)) AS i) x) >= 0.5))
          FROM c`,
    ],
  ];
  const id = crypto.randomUUID();
  await withScope(deps.db, { kind: 'tenant', tenantId }, (tx) =>
    tx.execute(sql`INSERT INTO custom_analyses (id, tenant_id, name, minimum_farm_size) VALUES (${id}, ${tenantId}, 'parts', 100)`),
  );
  const params = { analysisId: id, allAreas: true, minimumFarmSize: 100, requireRecognition: true, threshold: 0.5 };
  const time = async (fn: (b: string) => SQL, rollback = false) => {
    let ms = 0;
    for (const b of batches) {
      const t0 = performance.now();
      await withScope(deps.db, { kind: 'tenant', tenantId }, async (tx) => {
        await tx.execute(fn(b));
        if (rollback) tx.rollback();
      }).catch((err: unknown) => {
        if (!(err instanceof Error) || !/rollback/i.test(err.message)) throw err;
      });
      ms += performance.now() - t0;
    }
    return ms;
  };
  for (const [, fn] of steps) await time(fn); // warm-up
  let prev = 0;
  const out: string[] = [];
  for (const [name, fn] of steps) {
    const ms = await time(fn);
    out.push(`${name} ${(((ms - prev) / rows) * 1000).toFixed(1)} µs`);
    prev = ms;
  }
  await time((b) => classifySql(tenantId, params, b), true);
  const full = await time((b) => classifySql(tenantId, params, b), true);
  out.push(
    `classify statement (with the INSERT, rolled back) ${((full / rows) * 1000).toFixed(1)} µs in all, ${(((full - prev) / rows) * 1000).toFixed(1)} µs over the SELECTs`,
  );
  await withScope(deps.db, { kind: 'tenant', tenantId }, (tx) => tx.execute(sql`DELETE FROM custom_analyses WHERE id = ${id}`));
  process.stdout.write(`  classify per row (${rows} rows in ${batches.length} statements): ${out.join(', ')}\n`);
}
