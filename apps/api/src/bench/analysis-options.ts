// The analysis benchmark's options (analysis.bench.ts: its first lines list them), read once from the command line.
import { tuningFor } from '../modules/analyses/analyses.pipeline.js';

export const args = process.argv.slice(2);
export const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : dflt;
};
export const ROWS = Number(arg('rows', '15000'));
export const SEED = Number(arg('seed', '42'));
export const AREAS = Number(arg('areas', '400'));
export const ENGINES = arg('engine', 'both') === 'both' ? (['pglite', 'postgres'] as const) : ([arg('engine', 'both')] as Array<'pglite' | 'postgres'>);
export const PG_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
/** --db-prefix P: the PostgreSQL database this run creates (and drops) is P_<pid>, so that runs sharing a server stay apart. */
export const DB_PREFIX = arg('db-prefix', '');
export const EXPLAIN = args.includes('--explain');
/** --memfs: the embedded database in memory (PGlite's memory://) instead of a directory on disk like the server's. */
export const MEMFS = args.includes('--memfs');
/** Over HTTP against the built server (API and `npm run worker` apart on PostgreSQL), with each process's RSS. */
export const HTTP = args.includes('--http') || ROWS > 200_000;
/**
 * --format xlsx (over HTTP): the same rows uploaded as an xlsx workbook (texts in shared strings, as Excel writes them).
 * --format geojson: the same rows as a FeatureCollection only (over HTTP too; in process, the csv run is skipped).
 */
export const FORMAT = arg('format', 'csv') === 'xlsx' ? 'xlsx' : arg('format', 'csv') === 'geojson' ? 'geojson' : 'csv';
/** Tuning overrides for experiments: --batch, --concurrency, --range, --write (defaults: tuningFor(engine)). */
export const tuning = (kind: 'pglite' | 'postgres') => {
  const t = tuningFor(kind);
  const num = (name: string, d: number) => Number(arg(name, String(d)));
  return {
    batchRows: num('batch', t.batchRows),
    concurrency: num('concurrency', t.concurrency),
    overlapRange: num('range', t.overlapRange),
    writeRows: num('write', t.writeRows),
  };
};
export const NIGERIA = '1e7050d0-9e8f-5e82-9ca3-884850256d74';

export const secs = (ms: number) => (ms / 1000).toFixed(2);
