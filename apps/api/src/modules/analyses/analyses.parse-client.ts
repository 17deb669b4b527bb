// Runs analyses.parse.worker in a worker thread with a memory ceiling and a deadline, at most two at a time, so that a
// zip bomb or a huge csv ends as a 4xx in bounded time and memory instead of blocking or exhausting the API process.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../lib/worker-entry.js';
import type { ParseReply, ParseRequest } from './analyses.parse.worker.js';

export const PARSE_TIMEOUT_MS = 20_000;
const PARSE_MEMORY_MB = 512;
const MAX_PARALLEL = 2;

let running = 0;
const waiting: Array<() => void> = [];

async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export type ParseOutcome = ParseReply;

const spawn = (): Worker =>
  startWorker(import.meta.url, './analyses.parse.worker', {
    resourceLimits: { maxOldGenerationSizeMb: PARSE_MEMORY_MB, maxYoungGenerationSizeMb: 64, stackSizeMb: 8 },
  });

// One worker started ahead of the next upload, so that starting a thread and loading the parser (SheetJS; tsx from
// sources) is off the upload's path. It holds no request until it is taken, and each worker parses exactly one file.
let spare: Worker | null = null;

/** Starts the spare parse worker if there is none (the API does this at start; the benchmark before it measures). */
export function prewarmParseWorker(): void {
  if (spare) return;
  const w = spawn();
  w.unref();
  const drop = () => {
    if (spare === w) spare = null;
  };
  w.once('error', drop);
  w.once('exit', drop);
  spare = w;
}

function takeWorker(): Worker {
  const w = spare;
  spare = null;
  if (w && w.threadId >= 0) {
    w.removeAllListeners();
    w.ref();
    return w;
  }
  return spawn();
}

export function parseInWorker(req: ParseRequest, timeoutMs = PARSE_TIMEOUT_MS): Promise<ParseOutcome> {
  return slot(
    () =>
      new Promise<ParseOutcome>((resolve) => {
        const worker = takeWorker();
        let settled = false;
        const finish = (r: ParseOutcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          void worker.terminate();
          // The next spare starts a little later, off this upload's remaining work.
          setTimeout(prewarmParseWorker, 1000).unref();
          resolve(r);
        };
        const timer = setTimeout(
          () => finish({ ok: false, status: 422, code: 'parse_timeout', message: `The file took longer than ${Math.round(timeoutMs / 1000)} s to read; simplify or split it` }),
          timeoutMs,
        );
        worker.once('message', (m: ParseReply) => finish(m));
        worker.once('error', (err: Error & { code?: string }) =>
          finish(
            err.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? { ok: false, status: 413, code: 'file_too_complex', message: 'The file needs more memory to read than an analysis may use; split it' }
              : { ok: false, status: 400, code: 'file_unreadable', message: 'The file cannot be read' },
          ),
        );
        worker.once('exit', () => finish({ ok: false, status: 400, code: 'file_unreadable', message: 'The file cannot be read' }));
        // The file's bytes are handed over, not copied (the caller passes its own copy).
        worker.postMessage(req, req.data.byteOffset === 0 && req.data.byteLength === req.data.buffer.byteLength ? [req.data.buffer as ArrayBuffer] : []);
      }),
  );
}
