// Copies an embedded (PGlite) installation's data into a PostgreSQL database, so a user who outgrows one machine keeps
// their data (issue 15 §5; `npm run db:migrate-embedded`). Both sides are at the same migration: the target is migrated
// by this code first, and the source was migrated when it was opened. Every table of the public schema is copied whole,
// in chunks of heap pages (a ctid range), each value as its own text form and cast back to its column's type on the
// target, so every type (geometry as hex EWKB, jsonb, numeric, arrays, timestamps in UTC) arrives byte-identical and no
// chunk holds more than a few thousand rows in memory. Triggers (the statement-level referential checks, rollups) are
// off during the copy (session_replication_role = replica): the rows are copied as they were, derived tables included.
// Afterwards each table's row count and a checksum of every row's text are compared on both sides.
import pg from 'pg';
import type { Database } from './client.js';

export type CopyLog = (line: string) => void;
export type TableReport = { table: string; rows: number; ms: number };
export type CopyReport = { tables: TableReport[]; totalRows: number; ms: number };

/** A refusal the command prints as it is (exit code 2): nothing was written. */
export class MigrateRefusal extends Error {}

type Column = { name: string; type: string };

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** Heap pages per chunk: ~5,000–10,000 rows of a farms-like table. */
const PAGES_PER_CHUNK = 500;
/** PostGIS's own table, filled by CREATE EXTENSION on each side. Only the public schema is copied: pg-boss's schema holds no
 * work once no analysis is queued (checked first), and drizzle's journal is written by the target's own migration. */
const SKIPPED = new Set(['spatial_ref_sys']);

async function columnsOf(q: (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>, table: string): Promise<Column[]> {
  const rows = await q(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a
      WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      ORDER BY a.attnum`,
    [`public.${ident(table)}`],
  );
  return rows.map((r) => ({ name: String(r['name']), type: String(r['type']) }));
}

const rowText = (cols: Column[]) => `ARRAY[${cols.map((c) => `${ident(c.name)}::text`).join(', ')}]`;
const checksumSql = (table: string, cols: Column[]) =>
  `SELECT count(*)::text AS n, coalesce(sum(hashtext(${rowText(cols)}::text)::bigint), 0)::text AS h FROM public.${ident(table)}`;

export async function copyEmbeddedToPostgres(source: Database, targetUrl: string, log: CopyLog): Promise<CopyReport> {
  const t0 = Date.now();
  const src = (text: string, params: unknown[] = []) => source.adminQuery<Record<string, unknown>>(text, params);
  await source.adminExec(`SET TIME ZONE 'UTC'`);

  const busy = await src(`SELECT count(*)::int AS n FROM custom_analyses WHERE status IN ('queued', 'processing')`);
  if (Number(busy[0]?.['n']) > 0) {
    throw new MigrateRefusal(
      `${String(busy[0]?.['n'])} custom analyses are still queued or processing. Start the embedded server, let them finish (or delete them), stop it, then copy.`,
    );
  }

  const target = new pg.Client({ connectionString: targetUrl });
  await target.connect();
  try {
    const tq = async (text: string, params: unknown[] = []) => (await target.query(text, params)).rows as Record<string, unknown>[];
    const me = await tq(`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`);
    if (!me[0]?.['rolsuper'])
      throw new MigrateRefusal(
        'The --to URL must connect as a superuser (the owner URL you give db:setup): the copy bypasses row-level security and turns triggers off while it writes.',
      );
    await target.query(`SET TIME ZONE 'UTC'`);

    const [srcMig, dstMig] = await Promise.all([
      src(`SELECT count(*)::int AS n, max(created_at)::text AS last FROM drizzle.__drizzle_migrations`),
      tq(`SELECT count(*)::int AS n, max(created_at)::text AS last FROM drizzle.__drizzle_migrations`),
    ]);
    if (srcMig[0]?.['n'] !== dstMig[0]?.['n'] || srcMig[0]?.['last'] !== dstMig[0]?.['last']) {
      throw new MigrateRefusal(
        `The embedded database has ${String(srcMig[0]?.['n'])} migrations and the target ${String(dstMig[0]?.['n'])}: run both with the same version of the platform.`,
      );
    }
    const used = await tq(`SELECT (SELECT count(*) FROM tenants) + (SELECT count(*) FROM users) AS n`);
    if (Number(used[0]?.['n']) > 0)
      throw new MigrateRefusal(
        'The target database already holds tenants or users. Copy into a new database (db:migrate-embedded creates it) or an empty one made by db:setup.',
      );

    const tables = (
      await src(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
      )
    )
      .map((r) => String(r['name']))
      .filter((t) => !SKIPPED.has(t));

    // The same columns and types on both sides, or nothing is written.
    const plan: Array<{ table: string; cols: Column[] }> = [];
    for (const table of tables) {
      const cols = await columnsOf(src, table);
      const exists = await tq(`SELECT to_regclass($1) IS NOT NULL AS ok`, [`public.${ident(table)}`]);
      if (!exists[0]?.['ok']) throw new MigrateRefusal(`The target has no table ${table}.`);
      const theirs = await columnsOf(tq, table);
      const a = cols.map((c) => `${c.name} ${c.type}`).join(', ');
      const b = theirs.map((c) => `${c.name} ${c.type}`).join(', ');
      if (a !== b) throw new MigrateRefusal(`Table ${table} differs: embedded (${a}) against target (${b}).`);
      plan.push({ table, cols });
    }

    const reports: TableReport[] = [];
    await target.query('BEGIN');
    try {
      await target.query(`SET LOCAL session_replication_role = replica`);
      // Lookups seeded by db:setup are replaced by the embedded ones (the same ids: UUID v5 of the same names).
      await target.query(`TRUNCATE ${plan.map((p) => `public.${ident(p.table)}`).join(', ')}`);
      for (const { table, cols } of plan) {
        const t1 = Date.now();
        const pages = Number(
          (await src(`SELECT (pg_relation_size($1::regclass) / current_setting('block_size')::int)::int AS n`, [`public.${ident(table)}`]))[0]?.['n'] ?? 0,
        );
        const insert = `INSERT INTO public.${ident(table)} (${cols.map((c) => ident(c.name)).join(', ')}) OVERRIDING SYSTEM VALUE
          SELECT ${cols.map((c, i) => `u.c${i}::${c.type}`).join(', ')}
            FROM unnest(${cols.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS u(${cols.map((_, i) => `c${i}`).join(', ')})`;
        let rows = 0;
        for (let from = 0; from <= pages; from += PAGES_PER_CHUNK) {
          const chunk = await src(`SELECT ${rowText(cols)} AS v FROM public.${ident(table)} WHERE ctid >= $1::tid AND ctid < $2::tid`, [
            `(${from},0)`,
            `(${from + PAGES_PER_CHUNK},0)`,
          ]);
          if (chunk.length === 0) continue;
          const columns = cols.map((_, i) => chunk.map((r) => (r['v'] as Array<string | null>)[i] ?? null));
          await target.query(insert, columns);
          rows += chunk.length;
        }
        reports.push({ table, rows, ms: Date.now() - t1 });
        log(`  ${table}: ${rows.toLocaleString('en-US')} rows in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
      }
      // Sequences continue where the embedded ones stopped.
      const seqs = await src(
        `SELECT schemaname || '.' || sequencename AS name, last_value::text AS v FROM pg_sequences WHERE schemaname = 'public' AND last_value IS NOT NULL`,
      );
      for (const s of seqs) await target.query(`SELECT setval($1::regclass, $2::bigint, true)`, [s['name'], s['v']]);

      // The proof: the same count and the same checksum of every row's text, table by table, before the commit.
      for (const { table, cols } of plan) {
        const [a, b] = await Promise.all([src(checksumSql(table, cols)), tq(checksumSql(table, cols))]);
        if (a[0]?.['n'] !== b[0]?.['n'] || a[0]?.['h'] !== b[0]?.['h']) {
          throw new Error(
            `Table ${table} differs after the copy: embedded ${String(a[0]?.['n'])} rows (checksum ${String(a[0]?.['h'])}), target ${String(b[0]?.['n'])} (checksum ${String(b[0]?.['h'])}). Nothing was committed.`,
          );
        }
      }
      await target.query('COMMIT');
    } catch (err) {
      await target.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    await target.query('ANALYZE');
    const totalRows = reports.reduce((s, r) => s + r.rows, 0);
    return { tables: reports, totalRows, ms: Date.now() - t0 };
  } finally {
    await target.end();
  }
}
