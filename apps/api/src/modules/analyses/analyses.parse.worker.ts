// Worker-thread entry: parses an uploaded file and stages its rows off the main thread, so that a large or hostile
// spreadsheet never blocks the event loop. The parent bounds its time and memory (analyses.parse-client.ts).
import { parentPort } from 'node:worker_threads';
import { parseFile, parseTable, ParseError, type FileKind, type TableOptions } from './analyses.parse.js';
import { STAGE_LINE_ROWS, stageLine, type Duplicates } from './analyses.rows.js';

/** part: stage only that share of the rows (aligned to staged lines); the whole file is still parsed and counted. */
/** nameField: the feature property naming each farm (GIS files). */
export type ParseRequest = { data: Uint8Array; filename: string; areaIds: string[]; nameField?: string | undefined; part?: { index: number; of: number } };
/** A plain table (bulk uploads of farmers and agents): every cell as text, keyed by the header; nothing staged. */
export type TableRequest = { mode: 'table'; data: Uint8Array; filename: string; table: TableOptions };
export type TableReply = { ok: true; kind: 'csv' | 'xls' | 'xlsx'; rows: Array<Record<string, string>> } | Extract<ParseReply, { ok: false }>;
export type ParseReply =
  /** staged: the staged NDJSON (one line per STAGE_LINE_ROWS rows), encoded here and transferred, not copied. */
  | { ok: true; kind: FileKind; total: number; staged: Uint8Array }
  | { ok: false; status: number; code: string; message: string };

const failure = (err: unknown): Extract<ParseReply, { ok: false }> =>
  err instanceof ParseError
    ? { ok: false, status: err.status, code: err.code, message: err.message }
    : { ok: false, status: 400, code: 'file_unreadable', message: `The file cannot be read (${err instanceof Error ? err.message.slice(0, 160) : 'unknown error'})` };

const cellText = (v: unknown): string => (typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v));

function handleTable(req: TableRequest): void {
  let reply: TableReply;
  try {
    const { kind, rows } = parseTable(req.data, req.filename, req.table);
    reply = { ok: true, kind, rows: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cellText(v)]))) };
  } catch (err) {
    reply = failure(err);
  }
  parentPort?.postMessage(reply);
}

// The worker may be started ahead of an upload (a warm spare, see analyses.parse-client.ts): it waits for one request.
function handle(req: ParseRequest | TableRequest): void {
  if ('mode' in req && req.mode === 'table') return handleTable(req);
  if ('mode' in req) return;
  let reply: ParseReply;
  try {
    const { kind, rows } = parseFile(req.data, req.filename, req.nameField);
    const ids = new Set(req.areaIds);
    const lines: string[] = [];
    // Duplicates are found within this thread's part; a polygon repeated across both parts keeps one representative
    // per part, which the overlap probe then links (two entries instead of one: still bounded).
    const seen: Duplicates = new Map();
    const bound = (k: number) => Math.min(rows.length, Math.round((rows.length * k) / (req.part?.of ?? 1) / STAGE_LINE_ROWS) * STAGE_LINE_ROWS);
    const from = req.part ? bound(req.part.index) : 0;
    const to = req.part && req.part.index < req.part.of - 1 ? bound(req.part.index + 1) : rows.length;
    for (let i = from; i < to; i += STAGE_LINE_ROWS) lines.push(stageLine(rows, i, Math.min(to, i + STAGE_LINE_ROWS), ids, seen));
    const staged = Buffer.from(lines.join('\n'), 'utf8');
    reply = { ok: true, kind, total: rows.length, staged: new Uint8Array(staged.buffer, staged.byteOffset, staged.byteLength) };
  } catch (err) {
    reply = failure(err);
  }
  // The staged bytes are handed over (transfer list): the main thread neither copies nor decodes tens of MB.
  const whole = reply.ok && reply.staged.byteOffset === 0 && reply.staged.byteLength === reply.staged.buffer.byteLength;
  parentPort?.postMessage(reply, whole && reply.ok ? [reply.staged.buffer as ArrayBuffer] : []);
}

parentPort?.once('message', (req: ParseRequest | TableRequest) => handle(req));
