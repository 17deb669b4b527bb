// What the two bulk uploads (farmers, agents) share: the one file read from multipart (3,145,728 bytes by default, 413
// beyond), the table read in the analysis parser's bounded worker (type by content, zip-bomb, row, column and cell caps),
// and failed rows that carry every error of every cell.
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { BulkUploadResult, FailedRow } from '@farmland/contracts';
import { firstFile } from '../../lib/form.js';
import { Problem, problems } from '../../lib/problems.js';
import { canonicalKey } from '../../ingest/keys.js';
import { parseTableInWorker } from '../analyses/analyses.parse-client.js';

/** Most data rows one bulk upload accepts; a 3 MB file of farmers without farms holds about 30,000. */
export const BULK_MAX_ROWS = 20_000;

export type UploadedTable = { filename: string; rows: Array<Record<string, string>> };

/** The file of a bulk upload (multipart field "file"); a JSON body is a 415, a larger file a 413 naming the field. */
export async function readUploadFile(req: FastifyRequest, limit: number): Promise<{ filename: string; data: Buffer }> {
  if (!req.isMultipart()) throw problems.unsupportedMediaType('Send the file as multipart/form-data in the field "file" (.csv, .xls or .xlsx).');
  const tooLarge = () =>
    new Problem(413, 'payload_too_large', `file: The file is larger than the limit of ${limit} bytes`, [
      { field: 'file', message: `The file is larger than the limit of ${limit} bytes` },
    ]);
  const file = await firstFile(req, { fileSize: limit, files: 1 }, tooLarge);
  if (!file) throw problems.field('file', 'Choose a .csv, .xls or .xlsx file');
  if (file.field !== 'file') throw problems.field(file.field, 'Send the file in the field "file"');
  if (file.data.length === 0) throw problems.field('file', 'The file is empty');
  return { filename: file.filename || 'upload', data: file.data };
}

/** The file's rows, keyed by canonical column names (trimmed, lower case, spaces → _); a refused file is a 4xx on "file". */
export async function readTable(file: { filename: string; data: Buffer }, required: readonly string[], headerHint: string): Promise<UploadedTable> {
  const reply = await parseTableInWorker(new Uint8Array(file.data), file.filename, { required, headerHint, maxRows: BULK_MAX_ROWS });
  if (!reply.ok) throw new Problem(reply.status, reply.code, `file: ${reply.message}`, [{ field: 'file', message: reply.message }]);
  const rows = reply.rows.map((r) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(r)) {
      const key = canonicalKey(k);
      if (out[key] === undefined || out[key] === '') out[key] = v;
    }
    return out;
  });
  return { filename: file.filename, rows };
}

/** Maps rows in slices, letting the event loop serve other requests between slices (5,000 rows take ~0.3 s of checks). */
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T, index: number) => R, slice = 200): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += slice) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (let j = i; j < Math.min(items.length, i + slice); j++) out.push(fn(items[j]!, j));
  }
  return out;
}

/** Per-cell errors of one row, every message kept (the console shows the first on hover). */
export class RowErrors {
  readonly byField: Record<string, string[]> = {};
  add(field: string, message: string): void {
    (this.byField[field] ??= []).push(message);
  }
  addIssues(issues: readonly z.core.$ZodIssue[]): void {
    for (const i of issues) this.add(i.path.map(String).join('.') || 'row', i.message);
  }
  has(field?: string): boolean {
    return field ? (this.byField[field]?.length ?? 0) > 0 : Object.keys(this.byField).length > 0;
  }
}

/** The row's own cells for the correction table: the columns used for creation, then any others the file had. */
export function rowData(row: Record<string, string>, columns: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of columns) out[c] = row[c] ?? '';
  for (const [k, v] of Object.entries(row)) if (!(k in out)) out[k] = v;
  return out;
}

/** Blank cells are absent values (so that an optional column left empty is not an error). */
export function blankToUndefined(row: Record<string, string>, columns: readonly string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const c of columns) out[c] = row[c] === undefined || row[c] === '' ? undefined : row[c];
  return out;
}

/** "male", "FEMALE" → Male, Female; anything else is left for the schema to refuse. */
export const normaliseGender = (v: string | undefined): string | undefined => {
  if (v === undefined) return v;
  const l = v.trim().toLowerCase();
  return l === 'male' ? 'Male' : l === 'female' ? 'Female' : v;
};

export function bulkResult(total: number, created: number, failed: FailedRow[]): BulkUploadResult {
  return { total_rows: total, created_count: created, failed_count: failed.length, failed_rows: failed };
}

export const bulkMessage = (r: BulkUploadResult, what: string): string =>
  r.failed_count === 0
    ? 'Bulk upload successful'
    : `${r.created_count} ${what} created; ${r.failed_count} row${r.failed_count === 1 ? '' : 's'} failed: correct ${r.failed_count === 1 ? 'it' : 'them'} and upload again`;
