// Runs analyses.parse.worker in worker threads with a memory ceiling and a deadline, at most two threads at a time, so
// that a zip bomb or a huge csv ends as a 4xx in bounded time and memory instead of blocking or exhausting the API
// process. An analysis file is staged by one thread that reads it from disk in a stream and sends its staged rows back
// in chunks, which are written to storage as they arrive (stageInWorker): neither the file nor its rows are ever whole
// in memory, on either side.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../lib/worker-entry.js';
import { extensionKind } from '../../ingest/file-type.js';
import type { FileKind } from '../../ingest/limits.js';
import type { TableOptions } from '../../ingest/table.js';
import type { ParseFailure, StageMessage, StageRequest, TableReply, TableRequest } from './analyses.parse.worker.js';

/**
 * 20 s, plus 1 s per MB of file beyond the first 4 MB (a csv is read in a stream: its work grows with its size, and
 * a million rows take tens of seconds); PARSE_TIMEOUT_MS in the environment raises the base for benchmarks on a loaded
 * machine (bench:footprint does).
 */
/** The deadline's base, read from the environment at each parse (a test of the row cap lifts it for its own request). */
export const parseTimeoutMs = (): number => (Number(process.env['PARSE_TIMEOUT_MS']) > 0 ? Number(process.env['PARSE_TIMEOUT_MS']) : 20_000);
export const parseDeadlineMs = (bytes: number, base = parseTimeoutMs()) => base + Math.max(0, Math.ceil(bytes / 1048576) - 4) * 1000;
/** An xlsx's deadline counts each MB of the file as this many (its XML is that much larger, and is read as a csv's text is). */
export const XLSX_WORK_FACTOR = 6;
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

/** How a staging ended: the file's kind and data rows, or why it was refused (a 4xx). */
export type StageOutcome = { ok: true; kind: FileKind; total: number } | ParseFailure;

/**
 * A parse thread's young generation. Every format is read in a stream or in a bounded thread, so what it allocates is
 * short-lived (a row, a feature, a staged line): 16 MB instead of 64 MB lowered a staging thread's peak by 65-95 MB
 * for ~5 % more CPU (docs/decisions/0030-geojson-uploads-read-in-a-stream.md).
 */
const YOUNG_GENERATION_MB = 16;

const spawn = (): Worker =>
  startWorker(import.meta.url, './analyses.parse.worker', {
    resourceLimits: { maxOldGenerationSizeMb: PARSE_MEMORY_MB, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, stackSizeMb: 8 },
  });

// Workers started ahead of the next upload, so that starting a thread and loading the parser (SheetJS; tsx from
// sources) is off the upload's path. They hold no request until taken, and each worker parses exactly one file.
// Each idle one is a whole V8 isolate with the parser loaded (about 25 MB of RSS, docs/decisions/0012-embedded-footprint.md), so none is started with the API: an upload request starts them as it arrives (prewarmParseWorker from
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

/** Why a worker ended without an answer: out of time, out of memory, or dead. */
const timedOut = (ms: number): ParseFailure => ({
  ok: false,
  status: 422,
  code: 'parse_timeout',
  message: `The file took longer than ${Math.round(ms / 1000)} s to read; simplify or split it`,
});
const workerFailure = (err: Error & { code?: string }): ParseFailure =>
  err.code === 'ERR_WORKER_OUT_OF_MEMORY'
    ? { ok: false, status: 413, code: 'file_too_complex', message: 'The file needs more memory to read than an upload may use; split it' }
    : { ok: false, status: 400, code: 'file_unreadable', message: 'The file cannot be read' };
const unreadable: ParseFailure = { ok: false, status: 400, code: 'file_unreadable', message: 'The file cannot be read' };

/** One worker, one table request: its reply, or a 4xx outcome when it runs out of time or memory or dies. */
function runTable(req: TableRequest, timeoutMs: number): Promise<TableReply> {
  return new Promise<TableReply>((resolve) => {
    const worker = takeWorker();
    let settled = false;
    const finish = (r: TableReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      // The next spares start a little later, off this upload's remaining work.
      setTimeout(prewarmParseWorker, 1000).unref();
      resolve(r);
    };
    const timer = setTimeout(() => finish(timedOut(timeoutMs)), timeoutMs);
    worker.once('message', (m: TableReply) => finish(m));
    worker.once('error', (err: Error & { code?: string }) => finish(workerFailure(err)));
    worker.once('exit', () => finish(unreadable));
    // The file's bytes are handed over, not copied (the caller passes its own copy).
    worker.postMessage(req, req.data.byteOffset === 0 && req.data.byteLength === req.data.buffer.byteLength ? [req.data.buffer as ArrayBuffer] : []);
  });
}

/** Thrown through the writer when the staging worker refused the file; carries the 4xx outcome. */
class Refused extends Error {
  constructor(readonly outcome: ParseFailure) {
    super(outcome.message);
  }
}

/**
 * Stages an analysis file (on this machine's disk) in a worker thread: write receives the staged NDJSON as a stream of
 * chunks, which the worker produces only as fast as write consumes them (each chunk taken is acknowledged). When the
 * worker refuses the file (or runs out of time or memory, or dies), the stream write is reading fails, so write
 * discards what it wrote (Storage.put does), and the outcome says why. An error of write itself (the store) is thrown.
 * split: a csv of SPLIT_MIN_BYTES or more is staged by two threads (false: one, the embedded engine's choice, where the
 * database shares the process and a second isolate costs ~90 MB at the peak).
 */
export function stageInWorker(
  req: Omit<StageRequest, 'mode' | 'part'>,
  size: number,
  write: (staged: AsyncIterable<Uint8Array>) => Promise<void>,
  // An xlsx is read in a stream too, but unpacks to ~9 times its size (a million rows: 30 MB, 280 MB of XML).
  timeoutMs = parseDeadlineMs(extensionKind(req.filename) === 'xlsx' ? size * XLSX_WORK_FACTOR : size),
  split = true,
): Promise<StageOutcome> {
  const threads = split && extensionKind(req.filename) === 'csv' && size >= SPLIT_MIN_BYTES ? MAX_THREADS : 1;
  return slot(threads, async () => {
    const workers = Array.from({ length: threads }, () => takeWorker());
    const chunks: Uint8Array[][] = workers.map(() => []);
    const ended: Array<StageOutcome | null> = workers.map(() => null);
    let failed: ParseFailure | null = null;
    let wake: (() => void) | null = null;
    const poke = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const end = (i: number, o: StageOutcome) => {
      if (ended[i]) return;
      ended[i] = o;
      if (!o.ok) failed ??= o;
      poke();
    };
    const timer = setTimeout(() => {
      failed ??= timedOut(timeoutMs);
      poke();
    }, timeoutMs);
    workers.forEach((worker, i) => {
      worker.on('message', (m: StageMessage) => {
        if (m.type === 'chunk') {
          chunks[i]!.push(m.data);
          poke();
        } else if (m.type === 'done') end(i, { ok: true, kind: m.kind, total: m.total });
        else end(i, { ok: false, status: m.status, code: m.code, message: m.message });
      });
      worker.once('error', (err: Error & { code?: string }) => end(i, workerFailure(err)));
      worker.once('exit', () => end(i, unreadable));
    });
    // The blocks in order: with two threads, block b comes from thread b % 2; the data ends when the thread whose turn
    // it is has finished without it.
    const staged: AsyncIterable<Uint8Array> = {
      async *[Symbol.asyncIterator]() {
        for (let turn = 0; ; turn = (turn + 1) % threads) {
          for (;;) {
            if (failed) throw new Refused(failed);
            const chunk = chunks[turn]!.shift();
            if (chunk) {
              workers[turn]!.postMessage({ type: 'ack' });
              yield chunk;
              break;
            }
            if (ended[turn]) {
              // Finished: every thread must finish (the same rows counted), or fail.
              while (!failed && ended.some((e) => !e)) await new Promise<void>((resolve) => (wake = resolve));
              if (failed) throw new Refused(failed);
              return;
            }
            await new Promise<void>((resolve) => (wake = resolve));
          }
        }
      },
    };
    workers.forEach((worker, index) =>
      worker.postMessage({ ...req, mode: 'stage', ...(threads > 1 ? { part: { index, of: threads } } : {}) } satisfies StageRequest),
    );
    try {
      await write(staged);
      const [first, ...rest] = ended as StageOutcome[];
      if (!first?.ok || rest.some((o) => !o.ok || o.total !== first.total || o.kind !== first.kind)) return unreadable;
      return first;
    } catch (err) {
      if (err instanceof Refused) return err.outcome;
      throw err;
    } finally {
      clearTimeout(timer);
      for (const worker of workers) void worker.terminate();
      // The next spares start a little later, off this upload's remaining work.
      setTimeout(prewarmParseWorker, 1000).unref();
    }
  });
}

/**
 * Reads a plain table (bulk uploads of farmers and agents) in the same bounded worker as analysis files: the type by
 * content, the zip-bomb, row, column and cell caps, a memory ceiling and a deadline. Every cell comes back as trimmed text.
 */
export function parseTableInWorker(data: Uint8Array, filename: string, table: TableOptions, timeoutMs = parseTimeoutMs()): Promise<TableReply> {
  return slot(1, () => runTable({ mode: 'table', data, filename, table }, timeoutMs));
}
