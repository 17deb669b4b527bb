// Worker-thread entry that owns the embedded database. PGlite runs every statement synchronously on the thread that
// holds it; here that thread is not the API's, so a long statement (a classify batch, a 100k-farm GeoJSON) never blocks
// the event loop that serves requests. The main thread talks to it through pglite-remote.ts; PGlite's own lock
// serialises statements exactly as before (a transaction holds it from BEGIN to COMMIT).
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Extension, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { postgis } from '@electric-sql/pglite-postgis';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { trimmedPostgisBundle } from './postgis-bundle.js';
import { pgliteStartParams } from './pglite-settings.js';

export type WorkerInit = { dataDir: string | null; loadDataDir: ArrayBuffer | null; settings: Record<string, string> };

/** The thread's memory as it reports it (process.memoryUsage() is per isolate, except rss) and the WASM heap's size. */
export type WorkerStats = { heapUsed: number; heapTotal: number; external: number; arrayBuffers: number; wasmMemory: number };

/** rawTypes: the type OIDs whose values stay as the text PostgreSQL sent (drizzle's parsers are all identities). */
export type WorkerRequest =
  | { id: number; op: 'query'; tx: number | null; text: string; params: unknown[]; rowMode: 'array' | 'object' | null; rawTypes: number[] | null }
  | { id: number; op: 'exec'; tx: number | null; text: string }
  | { id: number; op: 'begin'; tx: number }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'dump' }
  | { id: number; op: 'stats' }
  | { id: number; op: 'close' };

export type SerializedError = { message: string; name: string; props: Record<string, unknown> };

export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError } | { id: 0; ready: true } | { id: 0; failed: SerializedError };

const port = parentPort;
if (!port) throw new Error('pglite.worker must run in a worker thread');
const init = workerData as WorkerInit;

/** The fields of a PostgreSQL error the app reads (code, constraint, detail …), as plain data that crosses threads. */
function serialize(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error', props: {} };
  const props: Record<string, unknown> = {};
  for (const key of ['code', 'detail', 'hint', 'constraint', 'table', 'column', 'schema', 'severity', 'position', 'where', 'routine', 'dataType']) {
    const v = (err as unknown as Record<string, unknown>)[key];
    if (v !== undefined && (typeof v === 'string' || typeof v === 'number')) props[key] = v;
  }
  return { message: err.message, name: err.name, props };
}

const identity = (v: string) => v;
function optionsOf(rowMode: 'array' | 'object' | null, rawTypes: number[] | null): QueryOptions | undefined {
  if (!rowMode && !rawTypes) return undefined;
  const parsers = rawTypes ? Object.fromEntries(rawTypes.map((t) => [t, identity])) : undefined;
  return { ...(rowMode ? { rowMode } : {}), ...(parsers ? { parsers } : {}) };
}

const ROLLBACK = Symbol('rollback');
type Open = { tx: Transaction; finish: (commit: boolean) => void; done: Promise<void> };
const open = new Map<number, Open>();

/**
 * PostGIS as published, except that its bundle is the trimmed one (postgis-bundle.ts): the published bundle's raster
 * and topology libraries are compiled and instantiated at every start although nothing uses them.
 */
const postgisTrimmed: Extension = {
  name: postgis.name,
  setup: async (pg, emscriptenOpts) => ({ ...(await postgis.setup(pg, emscriptenOpts)), bundlePath: pathToFileURL(trimmedPostgisBundle()) }),
};

async function main(): Promise<void> {
  const pg = await PGlite.create({
    ...(init.dataDir ? { dataDir: init.dataDir } : {}),
    // pg_trgm serves the lists' searches (migration 0014); its bundle is 16 KB.
    extensions: { postgis: postgisTrimmed, pg_trgm },
    startParams: pgliteStartParams(PGlite.defaultStartParams, init.settings),
    ...(init.loadDataDir ? { loadDataDir: new Blob([init.loadDataDir]) } : {}),
  });
  // PGlite keeps the unpacked extension tarball (34 MB) referenced from its module after the files are written to its
  // file system; let it go.
  const mod = (pg as unknown as { mod?: { pg_extensions?: unknown } }).mod;
  if (mod) mod.pg_extensions = {};

  const target = (tx: number | null): Transaction | PGlite => {
    if (tx === null) return pg;
    const t = open.get(tx);
    if (!t) throw new Error(`transaction ${tx} is not open`);
    return t.tx;
  };

  const begin = (id: number): Promise<void> =>
    new Promise<void>((started, failed) => {
      let finish: (commit: boolean) => void = () => undefined;
      const gate = new Promise<boolean>((resolve) => (finish = resolve));
      const done = pg
        .transaction(async (tx) => {
          open.set(id, { tx, finish, done });
          started();
          if (!(await gate)) throw ROLLBACK;
        })
        .catch((err: unknown) => {
          if (err !== ROLLBACK) throw err;
        });
      // BEGIN itself failed: the body never ran.
      done.catch(failed);
    });

  const handle = async (req: WorkerRequest): Promise<unknown> => {
    switch (req.op) {
      case 'query': {
        const r = await target(req.tx).query(req.text, req.params, optionsOf(req.rowMode, req.rawTypes));
        return { rows: r.rows, fields: r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })), affectedRows: r.affectedRows };
      }
      case 'exec': {
        const rs = await target(req.tx).exec(req.text);
        return rs.map((r) => ({ rows: r.rows, fields: r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })), affectedRows: r.affectedRows }));
      }
      case 'begin':
        await begin(req.tx);
        return null;
      case 'end': {
        const t = open.get(req.tx);
        if (!t) throw new Error(`transaction ${req.tx} is not open`);
        open.delete(req.tx);
        t.finish(req.commit);
        await t.done;
        return null;
      }
      case 'dump': {
        const blob = await pg.dumpDataDir('gzip');
        return await blob.arrayBuffer();
      }
      case 'stats': {
        const m = process.memoryUsage();
        const heap = (pg as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod?.HEAPU8;
        return { heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, wasmMemory: heap?.byteLength ?? 0 } satisfies WorkerStats;
      }
      case 'close':
        if (!pg.closed) await pg.close();
        return null;
    }
  };

  port!.on('message', (req: WorkerRequest) => {
    handle(req).then(
      (value) => {
        const transfer = value instanceof ArrayBuffer ? [value] : [];
        port!.postMessage({ id: req.id, ok: true, value } satisfies WorkerReply, transfer);
      },
      (err: unknown) => port!.postMessage({ id: req.id, ok: false, error: serialize(err) } satisfies WorkerReply),
    );
  });
  port!.postMessage({ id: 0, ready: true } satisfies WorkerReply);
}

main().catch((err: unknown) => port.postMessage({ id: 0, failed: serialize(err) } satisfies WorkerReply));
