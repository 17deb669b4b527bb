// Worker-thread entry: parses an uploaded file and stages its rows off the main thread, so that a large or hostile
// spreadsheet never blocks the event loop. The parent bounds its time and memory (analyses.parse-client.ts).
// An analysis file is read from disk in a stream (csv, xlsx, GeoJSON) or whole (the other formats), and its staged rows go back to the
// parent in chunks of about a MB as they are produced; the parent writes each to storage and acknowledges it, and this
// thread never runs more than STAGED_IN_FLIGHT chunks ahead, so neither side holds the file or its rows.
import { parentPort } from 'node:worker_threads';
import { ParseError, type FileKind } from '../../ingest/limits.js';
import { readAnalysisFile } from '../../ingest/read.js';
import { readTable, type TableOptions } from '../../ingest/table.js';
import { STAGE_LINE_ROWS, stageRows, type Duplicates } from './analyses.rows.js';

/**
 * Stage an analysis file: path is the uploaded file on this machine's disk; maxRows the analysis row cap (csv, xlsx,
 * GeoJSON; the formats read whole keep MAX_ROWS). nameField: the feature property naming each farm (GIS files).
 */
export type StageRequest = {
  mode: 'stage';
  path: string;
  filename: string;
  areaIds: string[];
  nameField?: string | undefined;
  maxRows: number;
  /**
   * Two threads stage one large csv: both read every row, each stages the blocks of SPLIT_BLOCK_LINES staged lines whose
   * number modulo `of` is its `index`, one chunk per block, and the parent takes the blocks in turn.
   */
  part?: { index: number; of: number } | undefined;
};
/** A plain table (bulk uploads of farmers and agents): every cell as text, keyed by the header; nothing staged. */
export type TableRequest = { mode: 'table'; data: Uint8Array; filename: string; table: TableOptions };
export type TableReply = { ok: true; kind: 'csv' | 'xls' | 'xlsx'; rows: Array<Record<string, string>> } | ParseFailure;
export type ParseFailure = { ok: false; status: number; code: string; message: string };
/**
 * What a staging worker sends: chunks of staged NDJSON (whole lines, each ending with a newline; transferred, not
 * copied), then done or failed. The parent answers each chunk with { type: 'ack' }.
 */
export type StageMessage = { type: 'chunk'; data: Uint8Array } | { type: 'done'; kind: FileKind; total: number } | ({ type: 'failed' } & ParseFailure);

/** Staged bytes per chunk sent to the parent. */
export const STAGED_CHUNK_BYTES = 1024 * 1024;
/** Chunks sent and not yet acknowledged (written) at most. */
export const STAGED_IN_FLIGHT = 4;
/** Staged lines (of STAGE_LINE_ROWS rows) per block when two threads share a file: ~0.5 MB of staged rows. */
export const SPLIT_BLOCK_LINES = 10;

const failure = (err: unknown): ParseFailure =>
  err instanceof ParseError
    ? { ok: false, status: err.status, code: err.code, message: err.message }
    : {
        ok: false,
        status: 400,
        code: 'file_unreadable',
        message: `The file cannot be read (${err instanceof Error ? err.message.slice(0, 160) : 'unknown error'})`,
      };

const cellText = (v: unknown): string => (typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v));

async function handleTable(req: TableRequest): Promise<void> {
  let reply: TableReply;
  try {
    const { kind, rows } = await readTable(req.data, req.filename, req.table);
    reply = { ok: true, kind, rows: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cellText(v)]))) };
  } catch (err) {
    reply = failure(err);
  }
  parentPort?.postMessage(reply);
}

async function handleStage(req: StageRequest): Promise<void> {
  const port = parentPort!;
  let credits = STAGED_IN_FLIGHT;
  let wake: (() => void) | null = null;
  port.on('message', (m: { type?: string }) => {
    if (m?.type !== 'ack') return;
    credits++;
    const w = wake;
    wake = null;
    w?.();
  });
  const encoder = new TextEncoder();
  let lines: string[] = [];
  let bytes = 0;
  const send = async () => {
    if (lines.length === 0) return;
    while (credits <= 0) await new Promise<void>((resolve) => (wake = resolve));
    credits--;
    // TextEncoder gives a buffer of its own: handed over whole (transfer list), never copied.
    const data = encoder.encode(`${lines.join('\n')}\n`);
    lines = [];
    bytes = 0;
    port.postMessage({ type: 'chunk', data } satisfies StageMessage, [data.buffer]);
  };
  try {
    const ids = new Set(req.areaIds);
    // Exact twins are found within this thread's rows (with two threads, a polygon repeated across their blocks keeps one
    // representative per thread, which the overlap probe then links as an ordinary pair: still bounded).
    const seen: Duplicates = new Map();
    const part = req.part;
    const { kind, total } = await readAnalysisFile(
      req.path,
      req.filename,
      { nameField: req.nameField, maxRows: req.maxRows, window: STAGE_LINE_ROWS },
      async (rows, first) => {
        const lineNo = (first - 1) / STAGE_LINE_ROWS;
        if (part) {
          // Only this thread's blocks; a block is one chunk, sent when its last line is staged.
          if (Math.floor(lineNo / SPLIT_BLOCK_LINES) % part.of !== part.index) return;
          lines.push(stageRows(rows, 0, rows.length, first, ids, seen));
          if (lineNo % SPLIT_BLOCK_LINES === SPLIT_BLOCK_LINES - 1) await send();
          return;
        }
        const line = stageRows(rows, 0, rows.length, first, ids, seen);
        lines.push(line);
        bytes += line.length;
        if (bytes >= STAGED_CHUNK_BYTES) await send();
      },
    );
    await send();
    port.postMessage({ type: 'done', kind, total } satisfies StageMessage);
  } catch (err) {
    port.postMessage({ type: 'failed', ...failure(err) } satisfies StageMessage);
  }
}

// The worker may be started ahead of an upload (a warm spare, see analyses.parse-client.ts): it waits for one request.
parentPort?.once('message', (req: StageRequest | TableRequest) => {
  if (req.mode === 'table') void handleTable(req);
  else if (req.mode === 'stage') void handleStage(req);
});
