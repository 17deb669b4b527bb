// Autovacuum for the embedded database. PGlite runs PostgreSQL as a single backend with no autovacuum launcher, so on its
// own it never vacuums or analyses: dead row versions pile up, visibility maps go stale (no index-only scans) and the
// planner's statistics drift after bulk writes (docs/decisions/0025-embedded-maintenance-and-the-farmers-mapped-flag.md). This does what autovacuum
// would, with PostgreSQL's own rules and default thresholds, from the statistics PGlite keeps (pg_stat_user_tables):
//  * VACUUM a table when its dead rows pass 50 + 20 % of its rows, or its rows inserted since the last vacuum pass
//    1,000 + 20 % (the visibility map, for index-only scans);
//  * ANALYZE it when its rows changed since the last analyze pass 50 + 10 % of its rows, or when a bulk write (a bulk
//    upload, an analysis) named it and it changed at all.
// PGlite is one connection: while a VACUUM runs every other statement waits. So a pass runs only after the database has
// had no statement for a while (EMBEDDED_MAINTENANCE_IDLE_MS), and runs one statement on one table, the one furthest past
// its threshold: VACUUM and ANALYZE of a table are two passes (autovacuum runs both at once), so the longest wait a pass
// can add is one of the two, not their sum (docs/decisions/0025-embedded-maintenance-and-the-farmers-mapped-flag.md).
// The pass runs in the database thread (pglite.worker.ts, holding the connection's lock); the schedule runs here, in the
// API's thread, which sees every statement go out.

/** PostgreSQL's autovacuum defaults (autovacuum_*_threshold, autovacuum_*_scale_factor). */
export const THRESHOLDS = {
  vacuum: { base: 50, scale: 0.2 },
  insert: { base: 1000, scale: 0.2 },
  analyze: { base: 50, scale: 0.1 },
} as const;

/** One table's counters, as pg_stat_user_tables and pg_class give them. */
export type TableStats = { table: string; rows: number; dead: number; modSinceAnalyze: number; insSinceVacuum: number };

export type Choice = { table: string; action: 'vacuum' | 'analyze'; reason: 'dead rows' | 'inserts' | 'changes' | 'bulk write'; stats: TableStats };

/** What one pass did: the table it treated (null: none needed it), how long that took, the dead rows before and after. */
export type PassReport = {
  table: string | null;
  action?: 'vacuum' | 'analyze';
  reason?: Choice['reason'];
  ms?: number;
  deadBefore?: number;
  deadAfter?: number;
  modSinceAnalyze?: number;
  /** Bulk-written tables that need nothing any more (analysed, or unchanged since): the schedule forgets them. */
  settled: string[];
};

/**
 * The table furthest past a threshold, and what to run on it; null when no table needs anything. `hinted`: tables a
 * bulk write just changed (schema-qualified), analysed as soon as they changed at all.
 */
export function chooseTable(stats: readonly TableStats[], hinted: ReadonlySet<string> = new Set()): Choice | null {
  let best: { choice: Choice; score: number } | null = null;
  for (const s of stats) {
    const rows = Math.max(0, s.rows);
    const vacuum = s.dead / (THRESHOLDS.vacuum.base + THRESHOLDS.vacuum.scale * rows);
    const insert = s.insSinceVacuum / (THRESHOLDS.insert.base + THRESHOLDS.insert.scale * rows);
    let analyze = s.modSinceAnalyze / (THRESHOLDS.analyze.base + THRESHOLDS.analyze.scale * rows);
    let analyzeReason: Choice['reason'] = 'changes';
    // A bulk-written table goes first (its planner statistics matter to the reads that follow), ahead of any threshold.
    if (hinted.has(s.table) && s.modSinceAnalyze > 0 && analyze <= 1) {
      analyze = Number.MAX_SAFE_INTEGER;
      analyzeReason = 'bulk write';
    }
    const score = Math.max(vacuum, insert, analyze);
    // Strictly past the threshold, as autovacuum's "n_dead_tup > threshold".
    if (score <= 1 || (best && score <= best.score)) continue;
    const choice: Choice =
      vacuum > 1 || insert > 1
        ? { table: s.table, action: 'vacuum', reason: vacuum >= insert ? 'dead rows' : 'inserts', stats: s }
        : { table: s.table, action: 'analyze', reason: analyzeReason, stats: s };
    best = { choice, score };
  }
  return best?.choice ?? null;
}

/**
 * Every ordinary table and materialised view of the database, schema-qualified and quoted as an identifier. Counters come
 * as float8: int8 would come back as a bigint or a string.
 */
const STATS_SQL = `
  SELECT quote_ident(s.schemaname) || '.' || quote_ident(s.relname) AS table, greatest(c.reltuples, 0)::float8 AS rows,
         s.n_dead_tup::float8 AS dead, s.n_mod_since_analyze::float8 AS mod, s.n_ins_since_vacuum::float8 AS ins
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
   WHERE c.relkind IN ('r', 'm')`;

/** Runs parameterless SQL on the connection and answers the last statement's rows. */
export type Exec = (text: string) => Promise<Array<Record<string, unknown>>>;

async function readStats(exec: Exec): Promise<TableStats[]> {
  // A backend sends its counters to the shared statistics at most once a second, at the end of a transaction; PGlite's
  // single backend otherwise holds back the last second's writes. The flush happens when this statement ends.
  await exec('SELECT pg_stat_force_next_flush()');
  const rows = await exec(STATS_SQL);
  return rows.map((r) => ({
    table: String(r['table']),
    rows: Number(r['rows']),
    dead: Number(r['dead']),
    modSinceAnalyze: Number(r['mod']),
    insSinceVacuum: Number(r['ins']),
  }));
}

const quoteRole = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * One pass, on a connection nothing else uses meanwhile: reads the statistics, treats at most one table, and reports it.
 * VACUUM and ANALYZE need the table's owner (the app works as farmland_app on PGlite's one connection, client.ts): the
 * pass takes the session's own role for the statement and then puts back the role it found.
 */
export async function runPass(exec: Exec, hinted: readonly string[]): Promise<PassReport> {
  const stats = await readStats(exec);
  const byName = new Map(stats.map((s) => [s.table, s]));
  const pending = new Set(hinted.filter((t) => (byName.get(t)?.modSinceAnalyze ?? 0) > 0));
  const settled = hinted.filter((t) => !pending.has(t));
  const choice = chooseTable(stats, pending);
  if (!choice) return { table: null, settled };
  const [who] = await exec('SELECT current_user AS name');
  const role = String(who?.['name']);
  const t0 = performance.now();
  await exec('RESET ROLE');
  try {
    await exec(`${choice.action === 'vacuum' ? 'VACUUM' : 'ANALYZE'} ${choice.table}`);
  } finally {
    await exec(`SET ROLE ${quoteRole(role)}`);
  }
  const ms = performance.now() - t0;
  // VACUUM reports its own counters at once; an ANALYZE's are read the same way.
  const after = (await readStats(exec)).find((s) => s.table === choice.table);
  return {
    table: choice.table,
    action: choice.action,
    reason: choice.reason,
    ms: Math.round(ms),
    deadBefore: choice.stats.dead,
    deadAfter: after?.dead ?? 0,
    modSinceAnalyze: choice.stats.modSinceAnalyze,
    settled: [...settled, choice.table],
  };
}

/** What the schedule needs from the database client (pglite-remote.ts). */
export type MaintenanceClient = {
  /** Milliseconds since the last statement went out or came back; 0 while one is in flight. */
  idleFor(): number;
  /** One pass in the database thread (runPass), with the bulk-written tables to analyse first. */
  maintain(hinted: string[]): Promise<PassReport>;
};

/** The log lines of a pass (pino's interface, as the server's logger and the tests' give it). */
export type MaintenanceLog = { info(obj: object, msg: string): void; debug(obj: object, msg: string): void; error(obj: object, msg: string): void };

export type EmbeddedMaintenance = {
  /** Starts the schedule: a pass whenever the database has been idle for idleMs (one table per pass). */
  start(opts: { idleMs: number; log: MaintenanceLog }): void;
  stop(): void;
  /** Tables a bulk write just changed ('farmers', or 'schema.table'): analysed at the next pass, ahead of the thresholds. */
  wrote(tables: readonly string[]): void;
  /** One pass now, whether idle or not (tests, benchmarks); it waits for the connection like any statement. */
  runPass(): Promise<PassReport>;
  /** Passes until no table needs one (at most 100): at boot, after seeding, before anything else runs. */
  settle(): Promise<PassReport[]>;
};

/** After a pass that found nothing to do, the next look at the statistics waits at least this long (unless a bulk write says otherwise). */
const NOTHING_TO_DO_BACKOFF_MS = 10_000;

const qualify = (t: string) => (t.includes('.') ? t : `public.${t}`);

export function embeddedMaintenance(client: MaintenanceClient): EmbeddedMaintenance {
  const hinted = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<PassReport> | null = null;
  let quietUntil = 0;

  const pass = async (): Promise<PassReport> => {
    while (running) await running.catch(() => undefined);
    running = client.maintain([...hinted]);
    try {
      const report = await running;
      for (const t of report.settled) hinted.delete(t);
      return report;
    } finally {
      running = null;
    }
  };

  return {
    start({ idleMs, log }) {
      if (timer || idleMs <= 0) return;
      timer = setInterval(
        () => {
          if (running || Date.now() < quietUntil || client.idleFor() < idleMs) return;
          pass().then(
            (r) => {
              if (r.table === null) {
                quietUntil = Date.now() + NOTHING_TO_DO_BACKOFF_MS;
                log.debug({ maintenance: { table: null } }, 'embedded maintenance: no table needs a vacuum or analyze');
                return;
              }
              log.info(
                {
                  maintenance: {
                    table: r.table,
                    action: r.action,
                    reason: r.reason,
                    ms: r.ms,
                    dead_before: r.deadBefore,
                    dead_after: r.deadAfter,
                    mod_since_analyze: r.modSinceAnalyze,
                  },
                },
                `embedded maintenance: ${r.action === 'vacuum' ? 'VACUUM' : 'ANALYZE'} ${r.table} in ${r.ms} ms (${r.reason})`,
              );
            },
            (err: unknown) => {
              // The next pass tries again after the back-off; a closed database stops the schedule.
              quietUntil = Date.now() + NOTHING_TO_DO_BACKOFF_MS;
              log.error({ err }, 'embedded maintenance pass failed');
            },
          );
        },
        Math.max(50, Math.min(1000, Math.floor(idleMs / 2))),
      );
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
    wrote(tables) {
      for (const t of tables) hinted.add(qualify(t));
      quietUntil = 0;
    },
    runPass: pass,
    settle: async () => {
      const done: PassReport[] = [];
      for (let i = 0; i < 100; i++) {
        const r = await pass();
        if (r.table === null) break;
        done.push(r);
      }
      return done;
    },
  };
}
