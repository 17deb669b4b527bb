// Worker-thread entry that owns the embedded database. PGlite runs every statement synchronously on the thread that
// holds it; here that thread is not the API's, so a long statement (a classify batch, a 100k-farm GeoJSON) never blocks
// the event loop that serves requests. The main thread talks to it through pglite-remote.ts.
//
// Statements reach PostgreSQL through PGlite's wire-protocol entry (execProtocol) rather than its query()/exec():
// those spend ~250 µs of JavaScript per call around 20–40 µs of PostgreSQL (six protocol round trips into the
// WebAssembly module per query, and a copy of PGlite's ~320 type parsers on every result), which made a list request's
// ten statements cost more than its SQL (docs/decisions/0018-fewer-round-trips-per-request.md). Here a statement is
// one call into the module (Bind, Describe, Execute, Sync) once it is prepared: the statements the app repeats are
// kept as named prepared statements (PostgreSQL's own plan cache, at most MAX_PREPARED), and a batch of statements
// (the row-level-security scope and a query; BEGIN and the scope) goes in as one call. Parameters are serialised and
// results parsed by PGlite's own type handlers, by type OID, exactly as query() does.
//
// One connection: a lock serialises its users. A statement outside a transaction takes it for that statement; a
// transaction takes it from BEGIN to COMMIT/ROLLBACK, and its statements run in the order they were sent, even when
// they arrive before BEGIN has run (the client sends them without waiting: pglite-remote.ts).
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, protocol, types, type Extension } from '@electric-sql/pglite';
import { postgis } from '@electric-sql/pglite-postgis';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { trimmedPostgisBundle } from './postgis-bundle.js';
import { runPass, type PassReport } from './pglite-maintenance.js';
import { MAX_PREPARED, pgliteStartParams } from './pglite-settings.js';

export type WorkerInit = { dataDir: string | null; loadDataDir: ArrayBuffer | null; settings: Record<string, string> };

/** The thread's memory as it reports it (process.memoryUsage() is per isolate, except rss) and the WASM heap's size. */
export type WorkerStats = { heapUsed: number; heapTotal: number; external: number; arrayBuffers: number; wasmMemory: number };

/** One statement of a batch; rawTypes: the type OIDs whose values stay as the text PostgreSQL sent (drizzle's parsers are all identities). */
export type Statement = { text: string; params: unknown[] };
export type RowOptions = { rowMode: 'array' | 'object' | null; rawTypes: number[] | null };

export type WorkerRequest =
  | ({ id: number; op: 'query'; tx: number | null; text: string; params: unknown[] } & RowOptions)
  | { id: number; op: 'exec'; tx: number | null; text: string }
  /** Statements in one implicit transaction (one Sync), outside any open transaction; answers each statement's result. */
  | { id: number; op: 'batch'; statements: Statement[] }
  /** BEGIN, then the prologue's statements (the row-level-security scope), in one call. */
  | { id: number; op: 'begin'; tx: number; prologue: Statement[] }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  /** One autovacuum-like pass (pglite-maintenance.ts): at most one table vacuumed or analysed; answers a PassReport. */
  | { id: number; op: 'maintain'; hinted: string[] }
  | { id: number; op: 'dump' }
  | { id: number; op: 'stats' }
  | { id: number; op: 'close' };

export type SerializedError = { message: string; name: string; props: Record<string, unknown> };

export type WorkerReply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError } | { id: 0; ready: true } | { id: 0; failed: SerializedError };

/** What a statement answers, in PGlite's shape (drizzle's pglite driver reads rows, fields and affectedRows). */
export type StatementResult = {
  rows: unknown[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows: number;
  command?: string;
  rowCount?: number;
};

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

/**
 * PostGIS as published, except that its bundle is the trimmed one (postgis-bundle.ts): the published bundle's raster
 * and topology libraries are compiled and instantiated at every start although nothing uses them.
 */
const postgisTrimmed: Extension = {
  name: postgis.name,
  setup: async (pg, emscriptenOpts) => ({ ...(await postgis.setup(pg, emscriptenOpts)), bundlePath: pathToFileURL(trimmedPostgisBundle()) }),
};

/** Statements worth preparing: the app's reads and writes, and BEGIN (not SET, DDL, VACUUM …). */
const PREPARABLE = /^\s*(select|with|insert|update|delete|begin)\b/i;

type Msg = { name: string } & Record<string, unknown>;

const identity = (v: string) => v;

/** The one connection, spoken to in the wire protocol. */
class Connection {
  /** text → prepared statement name and its parameters' type OIDs, least recently used first. */
  private readonly prepared = new Map<string, { name: string; paramTypes: number[] }>();
  private nextName = 1;
  private readonly toClose: string[] = [];
  private busy = false;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly pg: PGlite) {}

  lock(): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  unlock(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }

  /** One call into PostgreSQL: the messages run in order; the first error is thrown after all have been answered. */
  private async call(parts: Uint8Array[]): Promise<Msg[]> {
    const size = parts.reduce((n, p) => n + p.length, 0);
    const message = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      message.set(p, at);
      at += p.length;
    }
    const { messages } = await this.pg.execProtocol(message, { syncToFs: false });
    return messages;
  }

  /**
   * Prepares the statements not prepared yet (one call for all of them) and answers each one's name and parameter
   * types; a statement that is not worth keeping goes into the unnamed statement (a batch holds at most one such).
   */
  private async prepare(statements: Statement[]): Promise<Array<{ name: string; paramTypes: number[] }>> {
    const out: Array<{ name: string; paramTypes: number[] } | null> = statements.map((s) => {
      const p = this.prepared.get(s.text);
      if (!p) return null;
      // Most recently used last.
      this.prepared.delete(s.text);
      this.prepared.set(s.text, p);
      return p;
    });
    const missing = statements.flatMap((s, i) => (out[i] ? [] : [{ s, i, name: PREPARABLE.test(s.text) ? `farmland_${this.nextName++}` : '' }]));
    if (missing.filter((m) => m.name === '').length > 1) throw new Error('A batch can hold one statement that is not prepared');
    if (missing.length === 0) return out as Array<{ name: string; paramTypes: number[] }>;
    // Room for the new names: close the least recently used, never one this batch is about to use.
    const inBatch = new Set(statements.map((s) => s.text));
    let over = this.prepared.size + missing.filter((m) => m.name).length - MAX_PREPARED;
    for (const [text, p] of this.prepared) {
      if (over <= 0) break;
      if (inBatch.has(text)) continue;
      this.prepared.delete(text);
      this.toClose.push(p.name);
      over--;
    }
    const parts = missing.flatMap((m) => [
      protocol.serialize.parse({ name: m.name, text: m.s.text }),
      protocol.serialize.describe({ type: 'S', name: m.name }),
    ]);
    const closing = this.toClose.splice(0).map((name) => protocol.serialize.close({ type: 'S', name }));
    let messages: Msg[];
    try {
      messages = await this.call([...closing, ...parts, protocol.serialize.sync()]);
    } catch (err) {
      // Which Parse failed is not said; close every name of this call (closing a name that does not exist is no error).
      this.toClose.push(...missing.filter((m) => m.name).map((m) => m.name));
      throw err;
    }
    const described = messages.filter((m) => m.name === 'parameterDescription') as unknown as Array<{ dataTypeIDs: number[] }>;
    missing.forEach((m, k) => {
      const p = { name: m.name, paramTypes: described[k]?.dataTypeIDs ?? [] };
      if (m.name) this.prepared.set(m.s.text, p);
      out[m.i] = p;
    });
    return out as Array<{ name: string; paramTypes: number[] }>;
  }

  private bindValues(params: unknown[], paramTypes: number[]): Array<string | null> {
    return params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const oid = paramTypes[i]!;
      const serializer = this.pg.serializers[oid];
      return serializer ? serializer(param) : String(param);
    });
  }

  /** The statements in order, one call into PostgreSQL once they are prepared; one Sync ends them (one implicit transaction outside BEGIN … COMMIT). */
  async run(statements: Statement[], rows: RowOptions = { rowMode: null, rawTypes: null }): Promise<StatementResult[]> {
    const prepared = await this.prepare(statements);
    const parts: Uint8Array[] = [];
    statements.forEach((s, i) => {
      const p = prepared[i]!;
      parts.push(
        protocol.serialize.bind({ statement: p.name, values: this.bindValues(s.params, p.paramTypes) }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
      );
    });
    parts.push(protocol.serialize.sync());
    const closing = this.toClose.splice(0).map((name) => protocol.serialize.close({ type: 'S', name }));
    try {
      return this.results(await this.call([...closing, ...parts]), rows);
    } catch (err) {
      const code = (err as { code?: string }).code;
      // A prepared statement gone (26000) or whose result type changed under it (0A000, after DDL): prepare it again
      // next time.
      if (code === '26000' || code === '0A000') for (const s of statements) this.forget(s.text);
      throw err;
    }
  }

  /** Parameterless SQL, possibly several statements, in the simple protocol (as PGlite's exec). */
  async exec(text: string): Promise<StatementResult[]> {
    const closing = this.toClose.splice(0).map((name) => protocol.serialize.close({ type: 'S', name }));
    return this.results(await this.call([...closing, protocol.serialize.query(text), protocol.serialize.sync()]), { rowMode: null, rawTypes: null });
  }

  private forget(text: string): void {
    const p = this.prepared.get(text);
    if (!p) return;
    this.prepared.delete(text);
    this.toClose.push(p.name);
  }

  /** PGlite's parseResults, without copying its ~320 type parsers on every call. */
  private results(messages: Msg[], { rowMode, rawTypes }: RowOptions): StatementResult[] {
    const raw = rawTypes ? new Set(rawTypes) : null;
    const parserOf = (oid: number) => (raw?.has(oid) ? identity : (this.pg.parsers[oid] ?? types.parsers[oid]));
    const sets: StatementResult[] = [];
    let fields: StatementResult['fields'] = [];
    let parsers: Array<((x: string, typeId?: number) => unknown) | undefined> = [];
    let rows: unknown[] = [];
    let affectedRows = 0;
    for (const m of messages) {
      if (m.name === 'rowDescription') {
        fields = (m['fields'] as Array<{ name: string; dataTypeID: number }>).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
        parsers = fields.map((f) => parserOf(f.dataTypeID));
      } else if (m.name === 'dataRow') {
        const values = (m['fields'] as Array<string | null>).map((v, i) => (v === null ? null : parsers[i] ? parsers[i](v, fields[i]!.dataTypeID) : v));
        rows.push(rowMode === 'array' ? values : Object.fromEntries(values.map((v, i) => [fields[i]!.name, v])));
      } else if (m.name === 'commandComplete') {
        const words = (m['text'] as string).split(' ');
        const command = words[0]!;
        const rowCount = parseInt(words[words.length - 1]!, 10);
        if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command)) affectedRows += rowCount;
        sets.push({ rows, fields, command, affectedRows, ...(Number.isNaN(rowCount) ? {} : { rowCount }) });
        rows = [];
        fields = [];
        parsers = [];
      }
    }
    if (sets.length === 0) sets.push({ rows: [], fields: [], affectedRows: 0 });
    return sets;
  }
}

type Open = { began: Promise<void>; last: Promise<unknown> };

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

  const conn = new Connection(pg);
  const open = new Map<number, Open>();

  /** fn with the connection to itself (a statement outside any transaction, a dump). */
  const alone = async <T>(fn: () => Promise<T>): Promise<T> => {
    await conn.lock();
    try {
      return await fn();
    } finally {
      conn.unlock();
    }
  };

  /** fn inside open transaction tx, after everything sent to it before (and after BEGIN, which may still wait for the lock). */
  const within = <T>(tx: number, fn: () => Promise<T>): Promise<T> => {
    const t = open.get(tx);
    if (!t) return Promise.reject(new Error(`transaction ${tx} is not open`));
    const next = t.last.then(() => t.began).then(fn);
    t.last = next.catch(() => undefined);
    return next;
  };

  const handle = async (req: WorkerRequest): Promise<unknown> => {
    switch (req.op) {
      case 'query': {
        const run = async () => (await conn.run([{ text: req.text, params: req.params }], req))[0]!;
        const r = req.tx === null ? await alone(run) : await within(req.tx, run);
        return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows };
      }
      case 'exec': {
        const run = () => conn.exec(req.text);
        const rs = req.tx === null ? await alone(run) : await within(req.tx, run);
        return rs.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
      }
      case 'batch':
        return (await alone(() => conn.run(req.statements))).map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
      case 'begin': {
        if (open.has(req.tx)) throw new Error(`transaction ${req.tx} is already open`);
        // BEGIN and the prologue in one call once both are prepared.
        const began = conn.lock().then(async () => void (await conn.run([{ text: 'BEGIN', params: [] }, ...req.prologue])));
        open.set(req.tx, { began, last: Promise.resolve() });
        await began;
        return null;
      }
      case 'end': {
        const t = open.get(req.tx);
        if (!t) throw new Error(`transaction ${req.tx} is not open`);
        const ended = t.last.then(async () => {
          try {
            // A failed BEGIN or prologue holds the lock all the same; ROLLBACK ends whatever began (outside a
            // transaction block it is only a warning).
            const began = await t.began.then(
              () => true,
              () => false,
            );
            await conn.exec(req.commit && began ? 'COMMIT' : 'ROLLBACK');
          } finally {
            open.delete(req.tx);
            conn.unlock();
          }
        });
        t.last = ended.catch(() => undefined);
        await ended;
        return null;
      }
      case 'maintain':
        // With the connection to itself, outside any transaction (VACUUM cannot run in one).
        return alone((): Promise<PassReport> =>
          runPass(async (text) => {
            const results = await conn.exec(text);
            return (results[results.length - 1]?.rows ?? []) as Array<Record<string, unknown>>;
          }, req.hinted),
        );
      case 'dump':
        return alone(async () => {
          const blob = await pg.dumpDataDir('gzip');
          return blob.arrayBuffer();
        });
      case 'stats': {
        const m = process.memoryUsage();
        const heap = (pg as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod?.HEAPU8;
        return {
          heapUsed: m.heapUsed,
          heapTotal: m.heapTotal,
          external: m.external,
          arrayBuffers: m.arrayBuffers,
          wasmMemory: heap?.byteLength ?? 0,
        } satisfies WorkerStats;
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
