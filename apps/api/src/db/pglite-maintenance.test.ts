// The embedded database's autovacuum (pglite-maintenance.ts): PostgreSQL's thresholds, a pass that vacuums a table full
// of dead rows and analyses a bulk-written one, the role it puts back, the schedule that runs it once the database is
// quiet; and none of it on PostgreSQL, which has its own autovacuum.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseTable, type PassReport, type TableStats } from './pglite-maintenance.js';
import type { RemotePglite } from './pglite-remote.js';
import { testEnv, type TestEnv } from '../test/harness.js';

const stats = (table: string, s: Partial<TableStats>): TableStats => ({ table, rows: 0, dead: 0, modSinceAnalyze: 0, insSinceVacuum: 0, ...s });

describe("chooseTable: PostgreSQL's autovacuum thresholds", () => {
  it('vacuums past 50 + 20 % dead rows or 1,000 + 20 % inserts, analyses past 50 + 10 % changes, and treats the table furthest past first', () => {
    expect(chooseTable([stats('a', { rows: 1000, dead: 250 })])).toBeNull();
    expect(chooseTable([stats('a', { rows: 1000, dead: 251 })])).toMatchObject({ table: 'a', action: 'vacuum', reason: 'dead rows' });
    expect(chooseTable([stats('a', { rows: 10_000, insSinceVacuum: 3000 })])).toBeNull();
    expect(chooseTable([stats('a', { rows: 10_000, insSinceVacuum: 3001 })])).toMatchObject({ action: 'vacuum', reason: 'inserts' });
    expect(chooseTable([stats('a', { rows: 10_000, modSinceAnalyze: 1050 })])).toBeNull();
    expect(chooseTable([stats('a', { rows: 10_000, modSinceAnalyze: 1051 })])).toMatchObject({ action: 'analyze', reason: 'changes' });
    // Twice past the threshold beats just past it, whatever the table's size.
    const both = [stats('small', { rows: 100, dead: 80 }), stats('big', { rows: 1_000_000, dead: 400_100 })];
    expect(chooseTable(both)?.table).toBe('big');
    expect(chooseTable([stats('a', { rows: -1, modSinceAnalyze: 51 })])).toMatchObject({ action: 'analyze' });
  });

  it('analyses a bulk-written table first once it changed at all, and leaves an unchanged one alone', () => {
    const all = [stats('bulk', { rows: 100_000, modSinceAnalyze: 5000 }), stats('other', { rows: 10, dead: 100 })];
    expect(chooseTable(all)).toMatchObject({ table: 'other', action: 'vacuum' });
    expect(chooseTable(all, new Set(['bulk']))).toMatchObject({ table: 'bulk', action: 'analyze', reason: 'bulk write' });
    expect(chooseTable([stats('bulk', { rows: 100_000 })], new Set(['bulk']))).toBeNull();
  });
});

let env: TestEnv;
const PROBE = 'maintenance_probe';
beforeAll(async () => {
  env = await testEnv();
  await env.database.adminExec(`DROP TABLE IF EXISTS ${PROBE}; CREATE TABLE ${PROBE} (id int PRIMARY KEY, v int NOT NULL DEFAULT 0)`);
});
afterAll(async () => {
  env.database.maintenance?.stop();
  await env.database.adminExec(`DROP TABLE IF EXISTS ${PROBE}`);
});

type ProbeStats = { dead: number; vacuums: number; analyzes: number };
async function probeStats(): Promise<ProbeStats> {
  if (env.engine === 'pglite') await env.database.adminQuery('SELECT pg_stat_force_next_flush()');
  const [s] = await env.database.adminQuery<ProbeStats>(
    `SELECT n_dead_tup::int AS dead, (vacuum_count + autovacuum_count)::int AS vacuums, (analyze_count + autoanalyze_count)::int AS analyzes
       FROM pg_stat_user_tables WHERE relname = '${PROBE}'`,
  );
  return s!;
}

/** Passes until one treats the probe (others may come first: the table furthest past its threshold goes first). */
async function passUntilProbe(): Promise<PassReport> {
  for (let i = 0; i < 60; i++) {
    const r = await env.database.maintenance!.runPass();
    if (r.table === `public.${PROBE}`) return r;
    if (r.table === null) break;
  }
  throw new Error('no pass treated the probe table');
}

describe('the maintenance pass on the engine under test', () => {
  it('PGlite: after many updates and deletes a pass vacuums the table (n_dead_tup drops, vacuum_count grows), a later one analyses it; the app role is put back', async (ctx) => {
    if (env.engine !== 'pglite') ctx.skip();
    await env.database.adminExec(`INSERT INTO ${PROBE} (id) SELECT g FROM generate_series(1, 4000) g`);
    await env.database.adminExec(`UPDATE ${PROBE} SET v = v + 1 WHERE id <= 2000`);
    await env.database.adminExec(`DELETE FROM ${PROBE} WHERE id > 3000`);
    const before = await probeStats();
    expect(before.dead).toBeGreaterThanOrEqual(3000);
    const r = await passUntilProbe();
    expect(r).toMatchObject({ action: 'vacuum', reason: 'dead rows', deadAfter: 0 });
    expect(r.deadBefore).toBeGreaterThanOrEqual(3000);
    const after = await probeStats();
    expect(after.dead).toBe(0);
    expect(after.vacuums).toBe(before.vacuums + 1);
    // One statement per pass: the ANALYZE (7,000 changes since the last one) comes in a pass of its own.
    expect(after.analyzes).toBe(before.analyzes);
    expect(await passUntilProbe()).toMatchObject({ action: 'analyze', reason: 'changes' });
    expect((await probeStats()).analyzes).toBe(before.analyzes + 1);
    // The app's statements still run as farmland_app, under row-level security.
    expect((await env.sql<{ who: string }>(sql`SELECT current_user AS who`))[0]!.who).toBe('farmland_app');
  });

  it('PGlite: a table a bulk write names is analysed at the next pass, below the thresholds', async (ctx) => {
    if (env.engine !== 'pglite') ctx.skip();
    // Settle every table first (as the boot does after seeding), then change 20 of the probe's 3,000 rows: far below 50 + 10 %.
    await env.database.maintenance!.settle();
    await env.database.adminExec(`UPDATE ${PROBE} SET v = v + 1 WHERE id <= 20`);
    const before = await probeStats();
    expect((await env.database.maintenance!.runPass()).table).toBeNull();
    env.database.maintenance!.wrote([PROBE]);
    expect(await env.database.maintenance!.runPass()).toMatchObject({ table: `public.${PROBE}`, action: 'analyze', reason: 'bulk write' });
    expect((await probeStats()).analyzes).toBe(before.analyzes + 1);
    // Done once: the hint is forgotten.
    expect((await env.database.maintenance!.runPass()).table).toBeNull();
  });

  it('PGlite: the schedule runs passes by itself once the database has been quiet, and logs each one', async (ctx) => {
    if (env.engine !== 'pglite') ctx.skip();
    const lines: Array<{ obj: { maintenance?: { table: string | null; dead_before?: number } }; msg: string }> = [];
    const log = {
      info: (obj: object, msg: string) => lines.push({ obj, msg }),
      debug: () => undefined,
      error: (obj: object, msg: string) => lines.push({ obj, msg }),
    };
    await env.database.adminExec(`DELETE FROM ${PROBE} WHERE id > 1000`);
    env.database.maintenance!.start({ idleMs: 150, log });
    try {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !lines.some((l) => l.obj.maintenance?.table === `public.${PROBE}`)) await new Promise((r) => setTimeout(r, 300));
    } finally {
      env.database.maintenance!.stop();
    }
    const line = lines.find((l) => l.obj.maintenance?.table === `public.${PROBE}`);
    expect(line?.msg).toMatch(/^embedded maintenance: VACUUM public\.maintenance_probe in \d+ ms \(dead rows\)$/);
    expect(line?.obj.maintenance?.dead_before).toBeGreaterThanOrEqual(2000);
    expect((await probeStats()).dead).toBe(0);
  });

  it("PGlite: a poller's statements (pg-boss's, every second) leave the database idle for the schedule; the app's do not", async (ctx) => {
    if (env.engine !== 'pglite') ctx.skip();
    const remote = (env.database.db as unknown as { $client: RemotePglite }).$client;
    // Test files share this worker's database, and work an earlier file left running (a job, a timer) can send an app
    // statement during the wait. So the check is tried up to five times. Background statements that reset the idle
    // clock would fail every attempt.
    let idle = 0;
    for (let attempt = 0; attempt < 5 && idle < 250; attempt++) {
      await remote.query('SELECT 1');
      await new Promise((r) => setTimeout(r, 300));
      await remote.background().query('SELECT 1');
      await remote.background().exec('SELECT 1; SELECT 2');
      idle = remote.idleFor();
    }
    expect(idle).toBeGreaterThanOrEqual(250);
    await remote.query('SELECT 1');
    expect(remote.idleFor()).toBeLessThan(250);
  });

  it('PostgreSQL: there is no embedded maintenance (PostgreSQL runs its own autovacuum)', async (ctx) => {
    if (env.engine !== 'postgres') ctx.skip();
    // server.ts starts the schedule through this property, and the bulk writes hint through it: both are no-ops here.
    expect(env.database.maintenance).toBeUndefined();
  });
});
