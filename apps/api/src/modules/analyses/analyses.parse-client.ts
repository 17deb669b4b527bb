// Runs analyses.parse.worker in worker threads with a memory ceiling and a deadline, at most two threads at a time, so
// that a zip bomb or a huge csv ends as a 4xx in bounded time and memory instead of blocking or exhausting the API
// process. A large csv is read by two threads at once: both parse the file (the cheap part), each stages half of the
// rows (the costly part: reading coordinates, checks, EWKB, JSON), and the halves are joined in order.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../lib/worker-entry.js';
import { extensionKind, type FileKind, type TableOptions } from './analyses.parse.js';
import type { ParseReply, ParseRequest, TableReply, TableRequest } from './analyses.parse.worker.js';

/** 20 s; PARSE_TIMEOUT_MS in the environment raises it for benchmarks on a loaded machine (bench:footprint does). */
export const PARSE_TIMEOUT_MS = Number(process.env['PARSE_TIMEOUT_MS']) > 0 ? Number(process.env['PARSE_TIMEOUT_MS']) : 20_000;
const PARSE_MEMORY_MB = 512;
/** Parse threads running at once, over all uploads. */
const MAX_THREADS = 2;
/** From this size a csv is staged by two threads (below it, starting the second costs more than it saves). */
export const SPLIT_MIN_BYTES = 1024 * 1024;

let running = 0;
const waiting: Array<{ n: number; go: () => void }> = [];

/** Runs fn holding n (≤ MAX_THREADS) thread slots; waiters are served in order, and a releaser reserves for them. */
async function slot<T>(n: number, fn: () => Promise<T>): Promise<T> {
  if (running + n <= MAX_THREADS && waiting.length === 0) running += n;
  else await new Promise<void>((go) => waiting.push({ n, go }));
  try {
    return await fn();
  } finally {
    running -= n;
    while (waiting.length > 0 && running + waiting[0]!.n <= MAX_THREADS) {
      const next = waiting.shift()!;
      running += next.n;
      next.go();
    }
  }
}

/** staged: the staged NDJSON in chunks of whole lines, in order (one per thread), never joined on this thread. */
export type ParseOutcome = { ok: true; kind: FileKind; total: number; staged: Uint8Array[] } | Extract<ParseReply, { ok: false }>;

const spawn = (): Worker =>
  startWorker(import.meta.url, './analyses.parse.worker', {
    resourceLimits: { maxOldGenerationSizeMb: PARSE_MEMORY_MB, maxYoungGenerationSizeMb: 64, stackSizeMb: 8 },
  });

// Workers started ahead of the next upload, so that starting a thread and loading the parser (SheetJS; tsx from
// sources) is off the upload's path. They hold no request until taken, and each worker parses exactly one file.
// Each idle one is a whole V8 isolate with the parser loaded (about 25 MB of RSS, docs/decisions.md "Embedded
// footprint"), so none is started with the API: an upload request starts them as it arrives (prewarmParseWorker from
// its onRequest hook, while the body is still being received), a finished parse starts the next ones, and they end
// after SPARE_IDLE_MS without a parse.
const spares: Worker[] = [];
/** Spares end after this long without an upload. */
export const SPARE_IDLE_MS = 30_000;
let idleTimer: NodeJS.Timeout | null = null;

/** Ends the spare workers now (idle timer, tests). */
export function endSpareParseWorkers(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  for (const w of spares.splice(0)) void w.terminate();
}

/** How many spare parse workers are running (tests, footprint benchmark). */
export function spareParseWorkers(): number {
  return spares.length;
}

/** Starts spare parse workers up to MAX_THREADS, and (re)arms their idle end. */
export function prewarmParseWorker(): void {
  while (spares.length < MAX_THREADS) {
    const w = spawn();
    w.unref();
    const drop = () => {
      const i = spares.indexOf(w);
      if (i >= 0) spares.splice(i, 1);
    };
    w.once('error', drop);
    w.once('exit', drop);
    spares.push(w);
  }
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(endSpareParseWorkers, SPARE_IDLE_MS);
  idleTimer.unref();
}

function takeWorker(): Worker {
  for (let w = spares.shift(); w; w = spares.shift()) {
    if (w.threadId >= 0) {
      w.removeAllListeners();
      w.ref();
      return w;
    }
  }
  return spawn();
}

/** One worker, one request: its reply, or a 4xx outcome when it runs out of time or memory or dies. */
function runOne(req: ParseRequest, timeoutMs: number): Promise<ParseReply>;
function runOne(req: TableRequest, timeoutMs: number): Promise<TableReply>;
function runOne(req: ParseRequest | TableRequest, timeoutMs: number): Promise<ParseReply | TableReply> {
  return new Promise<ParseReply | TableReply>((resolve) => {
    const worker = takeWorker();
    let settled = false;
    const finish = (r: ParseReply | TableReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      // The next spares start a little later, off this upload's remaining work.
      setTimeout(prewarmParseWorker, 1000).unref();
      resolve(r);
    };
    const timer = setTimeout(
      () => finish({ ok: false, status: 422, code: 'parse_timeout', message: `The file took longer than ${Math.round(timeoutMs / 1000)} s to read; simplify or split it` }),
      timeoutMs,
    );
    worker.once('message', (m: ParseReply | TableReply) => finish(m));
    worker.once('error', (err: Error & { code?: string }) =>
      finish(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { ok: false, status: 413, code: 'file_too_complex', message: 'The file needs more memory to read than an upload may use; split it' }
          : { ok: false, status: 400, code: 'file_unreadable', message: 'The file cannot be read' },
      ),
    );
    worker.once('exit', () => finish({ ok: false, status: 400, code: 'file_unreadable', message: 'The file cannot be read' }));
    // The file's bytes are handed over, not copied (the caller passes its own copy).
    worker.postMessage(req, req.data.byteOffset === 0 && req.data.byteLength === req.data.buffer.byteLength ? [req.data.buffer as ArrayBuffer] : []);
  });
}

const NEWLINE = new Uint8Array([0x0a]);

/** Parses and stages a file (req.data is handed over to the worker: pass a copy you no longer need). */
export function parseInWorker(req: ParseRequest, timeoutMs = PARSE_TIMEOUT_MS): Promise<ParseOutcome> {
  const split = extensionKind(req.filename) === 'csv' && req.data.byteLength >= SPLIT_MIN_BYTES;
  if (!split) return slot(1, async () => {
    const r = await runOne(req, timeoutMs);
    return r.ok ? { ...r, staged: [r.staged] } : r;
  });
  return slot(MAX_THREADS, async () => {
    const parts = await Promise.all(
      [0, 1].map((index) => runOne({ ...req, data: index === 0 ? new Uint8Array(req.data) : req.data, part: { index, of: 2 } }, timeoutMs)),
    );
    const failed = parts.find((p) => !p.ok);
    if (failed) return failed;
    const [a, b] = parts as Array<Extract<ParseReply, { ok: true }>>;
    if (a!.total !== b!.total || a!.kind !== b!.kind) return { ok: false, status: 400, code: 'file_unreadable', message: 'The file cannot be read' };
    const pieces = [a!.staged, b!.staged].filter((s) => s.byteLength > 0);
    return { ok: true, kind: a!.kind, total: a!.total, staged: pieces.flatMap((s, i) => (i > 0 ? [NEWLINE, s] : [s])) };
  });
}

/**
 * Reads a plain table (bulk uploads of farmers and agents) in the same bounded worker as analysis files: the type by
 * content, the zip-bomb, row, column and cell caps, a memory ceiling and a deadline. Every cell comes back as trimmed text.
 */
export function parseTableInWorker(data: Uint8Array, filename: string, table: TableOptions, timeoutMs = PARSE_TIMEOUT_MS): Promise<TableReply> {
  return slot(1, () => runOne({ mode: 'table', data, filename, table }, timeoutMs));
}
