// `node apps/api/dist/bench/regroup.bench.js [--farms 10000,50000] [--engine pglite|postgres]` (after npm run build)
// Issue 28: how long saving a new overlap tolerance takes to re-group a registry. A tenant's farms are laid on a grid of
// ~1 ha squares 100 m apart; every 20th overlaps its west neighbour by half, every 20th (others) by a 3 mm sliver. The tolerance then
// goes to zero (every sliver joins a group) and back to the defaults. `--mode single` re-groups in one transaction
// (recomputeTenantOverlaps, as the configuration service did before session 3); `--mode batched` (the default) as it does
// now (regroupTenantFarms: short transactions). Meanwhile a probe runs a one-row read every 20 ms and reports its longest
// wait: how long another request would have waited. Not part of CI.
import os from 'node:os';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, queryRows, runPgMigrations, withScope, type Database } from '../db/client.js';
import { recomputeTenantOverlaps } from '../modules/farm-overlaps/farm-overlaps.js';
import { regroupTenantFarms } from '../modules/farm-overlaps/farm-overlaps.regroup.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : dflt;
};
const SIZES = arg('farms', '10000').split(',').map(Number);
const ENGINE = arg('engine', 'pglite');
const MODE = arg('mode', 'batched');
const PG_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function open(): Promise<{ database: Database; close: () => Promise<void> }> {
  if (ENGINE === 'pglite') {
    const database = await openDatabase({ kind: 'pglite', dataDir: null });
    return { database, close: () => database.close() };
  }
  const name = `farmland_regroup_${process.pid}`;
  const root = new pg.Client({ connectionString: PG_URL });
  await root.connect();
  await root.query(`DROP DATABASE IF EXISTS ${name}`);
  await root.query(`CREATE DATABASE ${name}`);
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  await runPgMigrations(u.toString());
  if ((await root.query(`SELECT 1 FROM pg_roles WHERE rolname = 'farmland_bench_app'`)).rowCount === 0) {
    await root.query(`CREATE ROLE farmland_bench_app LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE farmland_app`);
  }
  const app = new URL(u.toString());
  app.username = 'farmland_bench_app';
  const database = await openDatabase({ kind: 'postgres', url: app.toString(), adminUrl: u.toString(), poolSize: 4 });
  return {
    database,
    close: async () => {
      await database.close();
      await root.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await root.end();
    },
  };
}

async function main(): Promise<void> {
  const { database, close } = await open();
  try {
    for (const n of SIZES) {
      const [t] = await database.adminQuery<{ id: string }>(`INSERT INTO tenants (name) VALUES ($1) RETURNING id`, [`Regroup ${n} ${Date.now()}`]);
      const tenantId = t!.id;
      const [f] = await database.adminQuery<{ id: string }>(
        `INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES ($1, 'R', 'G', 'RG-1') RETURNING id`,
        [tenantId],
      );
      const d = 0.0009; // ~100 m
      const t0 = performance.now();
      await database.adminQuery(
        `INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
         SELECT $1, $2, 'g' || i, g, ST_Area(g::geography)
           FROM generate_series(0, $3::int - 1) i
          CROSS JOIN LATERAL (SELECT 10 + (i % 300) * ${d * 2} + CASE WHEN i % 20 = 1 THEN ${-1.5 * d} WHEN i % 20 = 11 THEN ${-(d + 3e-8)} ELSE 0 END AS x,
                                     -10 + (i / 300) * ${d * 2} AS y) p
          CROSS JOIN LATERAL (SELECT ST_MakeEnvelope(p.x, p.y, p.x + ${d}, p.y + ${d}, 4326) AS g) s`,
        [tenantId, f!.id, n],
      );
      await database.adminExec('ANALYZE farms');
      process.stdout.write(`== ${ENGINE}: ${n} farms written in ${((performance.now() - t0) / 1000).toFixed(1)} s (load ${os.loadavg()[0]!.toFixed(1)}) ==\n`);
      const scope = { kind: 'tenant', tenantId } as const;
      for (const [label, area, share] of [
        ['defaults (1 m², 1 %)', 1, 0.01],
        ['zero (every sliver counts)', 0, 0],
        ['defaults again', 1, 0.01],
      ] as const) {
        await withScope(database.db, scope, (tx) =>
          tx.execute(sql`INSERT INTO tenant_configurations (tenant_id, overlap_min_area_sqm, overlap_min_share, minimum_farm_size) VALUES (${tenantId}, ${area}, ${share}, 100)
                         ON CONFLICT (tenant_id) DO UPDATE SET overlap_min_area_sqm = ${area}, overlap_min_share = ${share}`),
        );
        // The probe: a one-row read every 20 ms, as another request would make; its longest wait is recorded.
        let probing = true;
        let worstWait = 0;
        const probe = (async () => {
          while (probing) {
            const p0 = performance.now();
            await withScope(database.db, scope, (tx) => queryRows(tx, sql`SELECT 1`));
            worstWait = Math.max(worstWait, performance.now() - p0);
            await new Promise((r) => setTimeout(r, 20));
          }
        })();
        const s0 = performance.now();
        const r =
          MODE === 'single'
            ? await withScope(database.db, scope, (tx) => recomputeTenantOverlaps(tx, tenantId))
            : await regroupTenantFarms(database.db, tenantId);
        const took = performance.now() - s0;
        probing = false;
        await probe;
        const [c] = await withScope(database.db, scope, (tx) =>
          queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${tenantId} AND is_overlapping`),
        );
        process.stdout.write(
          `  ${MODE} ${label.padEnd(28)} re-grouped in ${(took / 1000).toFixed(2)} s: ${r.overlapping} overlapping farms in ${r.groups} groups (stored: ${c!.n}); longest wait of a parallel read ${worstWait.toFixed(0)} ms\n`,
        );
      }
    }
  } finally {
    await close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String((err as Error).stack ?? err)}\n`);
  process.exit(1);
});
