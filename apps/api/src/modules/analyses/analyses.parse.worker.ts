// Worker-thread entry: parses an uploaded file and stages its rows off the main thread, so that a large or hostile
// spreadsheet never blocks the event loop. The parent bounds its time and memory (analyses.parse-client.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { parseFile, ParseError } from './analyses.parse.js';
import { STAGE_LINE_ROWS, stageLine } from './analyses.rows.js';

export type ParseRequest = { data: Uint8Array; filename: string; areaIds: string[] };
export type ParseReply =
  | { ok: true; kind: 'csv' | 'xls' | 'xlsx'; total: number; lines: string[] }
  | { ok: false; status: number; code: string; message: string };

const req = workerData as ParseRequest;
let reply: ParseReply;
try {
  const { kind, rows } = parseFile(req.data, req.filename);
  const ids = new Set(req.areaIds);
  const lines: string[] = [];
  for (let i = 0; i < rows.length; i += STAGE_LINE_ROWS) lines.push(stageLine(rows, i, Math.min(rows.length, i + STAGE_LINE_ROWS), ids));
  reply = { ok: true, kind, total: rows.length, lines };
} catch (err) {
  reply =
    err instanceof ParseError
      ? { ok: false, status: err.status, code: err.code, message: err.message }
      : { ok: false, status: 400, code: 'file_unreadable', message: `The file cannot be read (${err instanceof Error ? err.message.slice(0, 160) : 'unknown error'})` };
}
parentPort?.postMessage(reply);
