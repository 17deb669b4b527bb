// The embedded database as seen from the API's thread: PGlite lives in a worker thread (pglite.worker.ts) and this
// client speaks the part of PGlite's interface that drizzle's pglite driver, the migrator and pg-boss use (query, exec,
// transaction), plus batch, dumpDataDir and close. Statements cross as messages; rows come back by structured clone.
import v8 from 'node:v8';
import type { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { statementSpan, tracingStatements } from '../lib/tracing.js';
import { startWorker } from '../lib/worker-entry.js';
import type { PassReport } from './pglite-maintenance.js';
import type { SerializedError, Statement, WorkerReply, WorkerRequest, WorkerStats } from './pglite.worker.js';

/** origin: where the statement was sent from, captured cheaply (its stack is formatted only if the statement fails). */
/** background: a poller's statement (pg-boss), which does not count as activity for the maintenance schedule. */
type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; origin: Error; background: boolean };
type Distribute<U> = U extends unknown ? Omit<U, 'id'> : never;
type Request = Distribute<WorkerRequest>;

/**
 * What a traced round trip says of itself (lib/tracing.ts statementSpan): its text, and whether every value in it
 * travels as a parameter (only then is the text recorded). null: not a statement (maintenance, dump, stats, close).
 */
function statementOf(req: Request): { text: string; parameterised: boolean } | null {
  const all = (statements: Statement[]) => ({
    text: statements.map((st) => st.text).join('; '),
    parameterised: statements.every((st) => st.params.length > 0),
  });
  switch (req.op) {
    case 'query':
      return { text: req.text, parameterised: req.params.length > 0 };
    case 'exec':
      return { text: req.text, parameterised: false };
    case 'batch':
      return all(req.statements);
    case 'begin': {
      const p = all(req.prologue);
      return { text: ['BEGIN', p.text].filter(Boolean).join('; '), parameterised: p.parameterised };
    }
    case 'end':
      return { text: req.commit ? 'COMMIT' : 'ROLLBACK', parameterised: true };
    default:
      return null;
  }
}

/** A PostgreSQL error from the worker, with its fields (code, constraint, detail …) where the caller expects them. */
function revive(e: SerializedError, origin: Error | undefined): Error {
  const stack = origin?.stack;
  const err = new Error(e.message);
  err.name = e.name;
  Object.assign(err, e.props);
  if (stack) err.stack = `${e.name}: ${e.message}\n${stack.split('\n').slice(1).join('\n')}`;
  return err;
}

/** drizzle passes parsers that keep some types as text; only identity parsers can cross threads, by type OID. */
function rawTypesOf(options: QueryOptions | undefined): number[] | null {
  if (!options?.parsers) return null;
  const types = Object.keys(options.parsers).map(Number);
  for (const t of types) {
    const parser = options.parsers[t];
    if (parser && parser('x') !== 'x') throw new Error(`Only text-preserving parsers can reach the database worker (type ${t})`);
  }
  return types;
}

const YOUNG_GENERATION_MB = 12;

let lightened = false;
/**
 * PGlite compiles PostgreSQL (10 MB of WebAssembly) and PostGIS (17 MB) at start. By default V8 validates every
 * function of a module up front on as many background threads as it likes, and each thread's allocations stay in its
 * own malloc arena afterwards (~30 MB of RSS for good). Validating a function when it is first compiled, on one
 * background thread, leaves that behind without slowing the statements (docs/decisions/0012-embedded-footprint.md).
 * These are process-wide V8 flags that only affect WebAssembly compiled after they are set.
 */
function lightenWasmCompilation(): void {
  if (lightened) return;
  lightened = true;
  v8.setFlagsFromString('--wasm-lazy-validation');
  v8.setFlagsFromString('--wasm-num-compilation-tasks=1');
}

export class RemotePglite {
  private next = 1;
  private nextTx = 1;
  private readonly pending = new Map<number, Pending>();
  private stopped: Error | null = null;
  /** When a statement last went out or came back (the maintenance schedule runs only after a quiet while). */
  private lastActivity = Date.now();
  /** Statements in flight other than background ones. */
  private foreground = 0;

  private closing = false;

  private constructor(
    private readonly worker: Worker,
    onCrash: ((err: Error) => void) | undefined,
  ) {
    worker.on('message', (m: WorkerReply) => {
      if (m.id === 0) return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (!p.background) {
        this.foreground--;
        this.lastActivity = Date.now();
      }
      if (this.pending.size === 0) worker.unref();
      if ('ok' in m && m.ok) p.resolve(m.value);
      else if ('error' in m) p.reject(revive(m.error, p.origin));
    });
    const stop = (err: Error) => {
      const unexpected = this.stopped === null && !this.closing;
      this.stopped ??= err;
      for (const p of this.pending.values()) p.reject(this.stopped);
      this.pending.clear();
      this.foreground = 0;
      if (unexpected) onCrash?.(err);
    };
    worker.on('error', (err) => stop(new Error(`The database worker failed: ${err.message}`)));
    worker.on('exit', (code) => stop(new Error(`The database worker stopped (exit code ${code})`)));
  }

  /** Starts the worker and waits until the database is open (created, or restored from loadDataDir). */
  /** onCrash: the worker ended without close() (a WASM abort, out of memory); every later statement fails. */
  /** settings: PostgreSQL settings over the embedded defaults (pglite-settings.ts). */
  static async create(opts: {
    dataDir: string | null;
    loadDataDir?: Blob;
    onCrash?: (err: Error) => void;
    settings?: Record<string, string>;
  }): Promise<RemotePglite> {
    const loadDataDir = opts.loadDataDir ? await opts.loadDataDir.arrayBuffer() : null;
    lightenWasmCompilation();
    const worker = startWorker(import.meta.url, './pglite.worker', {
      workerData: { dataDir: opts.dataDir, loadDataDir, settings: opts.settings ?? {} },
      // The thread's young generation: V8's default lets it grow to 3 × 16 MB, which a thread that mostly passes rows
      // through never needs (measured in docs/decisions/0012-embedded-footprint.md).
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      transferList: loadDataDir ? [loadDataDir] : [],
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: WorkerReply) => {
        if (m.id !== 0) return;
        cleanup();
        if ('ready' in m) resolve();
        else if ('failed' in m) reject(revive(m.failed, undefined));
      };
      const onError = (err: Error) => {
        cleanup();
        reject(err);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`The database worker stopped while opening (exit code ${code})`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    worker.unref();
    return new RemotePglite(worker, opts.onCrash);
  }

  private call<T>(req: Request, transfer: ArrayBuffer[] = [], background = false): Promise<T> {
    // Tracing off, or no request or job around it: straight to the worker (one check).
    const statement = !background && tracingStatements() ? statementOf(req) : null;
    if (statement) return statementSpan('pglite', statement.text, statement.parameterised, () => this.send<T>(req, transfer, background));
    return this.send<T>(req, transfer, background);
  }

  private send<T>(req: Request, transfer: ArrayBuffer[], background: boolean): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.next++;
    if (!background) {
      this.foreground++;
      this.lastActivity = Date.now();
    }
    // The worker keeps the process alive only while a statement is in flight, like PGlite in-process did.
    if (this.pending.size === 0) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, origin: new Error(), background });
      this.worker.postMessage({ ...req, id }, transfer);
    });
  }

  get closed(): boolean {
    return this.stopped !== null;
  }

  async query<T>(text: string, params: unknown[] = [], options?: QueryOptions, tx: number | null = null): Promise<Results<T>> {
    return this.call({ op: 'query', tx, text, params, rowMode: options?.rowMode ?? null, rawTypes: rawTypesOf(options) });
  }

  exec(text: string, _options?: QueryOptions, tx: number | null = null): Promise<Results[]> {
    return this.call({ op: 'exec', tx, text });
  }

  /**
   * BEGIN … COMMIT around fn (ROLLBACK when it throws); other statements wait in the worker meanwhile, as in PGlite.
   * prologue: statements the worker runs right after BEGIN in the same call (the row-level-security scope).
   * BEGIN is sent without waiting for its answer: fn's first statement follows it at once, and the worker runs the
   * transaction's statements in the order they were sent, so the connection is not held while this thread gets round
   * to sending the next one. A failed BEGIN fails every statement of the transaction.
   */
  async transaction<T>(fn: (tx: Transaction) => Promise<T>, prologue: Statement[] = []): Promise<T> {
    const id = this.nextTx++;
    const began = this.call({ op: 'begin', tx: id, prologue });
    began.catch(() => undefined);
    let closed = false;
    const tx = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) => this.query<R>(text, params ?? [], options, id),
      exec: (text: string) => this.exec(text, undefined, id),
      rollback: async () => {
        if (closed) return;
        closed = true;
        await this.call({ op: 'end', tx: id, commit: false });
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await fn(tx);
      await began;
    } catch (err) {
      if (!closed) {
        closed = true;
        await this.call({ op: 'end', tx: id, commit: false }).catch(() => undefined);
      }
      throw err;
    }
    if (!closed) {
      closed = true;
      await this.call({ op: 'end', tx: id, commit: true });
    }
    return result;
  }

  /** Statements run one after the other in one implicit transaction (one call into the database), outside any open transaction. */
  batch(statements: Statement[]): Promise<Results[]> {
    return this.call({ op: 'batch', statements });
  }

  /**
   * A pollers' view (pg-boss polls its queue every second): the same statements, outside any transaction, that do not
   * count as activity, so the maintenance schedule still sees the database idle between them.
   */
  background(): { query<T>(text: string, params?: unknown[]): Promise<Results<T>>; exec(text: string): Promise<Results[]> } {
    return {
      query: <T>(text: string, params: unknown[] = []) =>
        this.call<Results<T>>({ op: 'query', tx: null, text, params, rowMode: null, rawTypes: null }, [], true),
      exec: (text: string) => this.call<Results[]>({ op: 'exec', tx: null, text }, [], true),
    };
  }

  /** Milliseconds since the last statement (other than a poller's) went out or came back; 0 while one is in flight. */
  idleFor(): number {
    return this.foreground > 0 ? 0 : Date.now() - this.lastActivity;
  }

  /** One autovacuum-like pass in the database thread (pglite-maintenance.ts). */
  maintain(hinted: string[]): Promise<PassReport> {
    return this.call({ op: 'maintain', hinted });
  }

  async dumpDataDir(): Promise<Blob> {
    const buf = await this.call<ArrayBuffer>({ op: 'dump' });
    return new Blob([buf], { type: 'application/x-gzip' });
  }

  /** The database thread's heap and the WASM heap's size (for the footprint log and benchmark). */
  stats(): Promise<WorkerStats> {
    return this.call({ op: 'stats' });
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    this.closing = true;
    await this.call({ op: 'close' });
    this.stopped = new Error('The database is closed');
    await this.worker.terminate();
  }

  /** The interface drizzle's pglite driver is typed against (it uses query and transaction only). */
  asPglite(): PGlite {
    return this as unknown as PGlite;
  }
}
