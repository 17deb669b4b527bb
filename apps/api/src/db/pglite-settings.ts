// PostgreSQL settings for the embedded database. PGlite is one backend in one WebAssembly heap: its shared memory,
// buffers and every backend allocation live in that heap, and a WebAssembly heap never shrinks, so whatever a setting
// lets it reach once stays in the process's RSS until it ends. initdb writes a server's defaults (shared_buffers
// 128 MB, maintenance_work_mem 64 MB) into postgresql.conf; these override them at every start, on old and new data
// directories alike. Measured in docs/decisions/0012-embedded-footprint.md.

/** Settings passed as `-c name=value` at start (they win over postgresql.conf). */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  // The buffer pool: the WASM heap's largest block. 16 MB holds the hot pages of the app's indexes; the OS page cache
  // (the data directory is a real directory) serves the rest.
  shared_buffers: '16MB',
  // Per sort or hash node; the analysis statements are batched (a few hundred rows each), so 4 MB is never the limit.
  work_mem: '4MB',
  // CREATE INDEX (migrations) and VACUUM; the server's default lets one index build take 64 MB of heap for good.
  maintenance_work_mem: '16MB',
  // Session-local buffers for temporary tables (the app creates none; pg-boss neither).
  temp_buffers: '2MB',
  // WAL kept in memory before it is written; -1 would take 1/32 of shared_buffers (512 kB): the same, said plainly.
  wal_buffers: '512kB',
};

/**
 * Prepared statements the database thread keeps (pglite.worker.ts): each holds its parsed statement and plans in the
 * WASM heap (a few to some tens of kB); the app repeats a few dozen statements on its hot paths. The least recently used
 * is closed beyond this.
 */
export const MAX_PREPARED = 100;

/** PGlite's own start parameters followed by ours; `extra` (tests, experiments) wins over the defaults above. */
export function pgliteStartParams(defaults: readonly string[], extra: Readonly<Record<string, string>> = {}): string[] {
  const settings = { ...PGLITE_SETTINGS, ...extra };
  return [...defaults, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
}
