// Exports a registered list as CSV: authorize → check the list, its columns and filters → record the Export in the
// activity log → stream the rows batch by batch.
import { Readable } from 'node:stream';
import { csvLine, type CsvCell as Cell, type ExportBody } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { requireActor, scopeOf } from '../../context.js';
import { withScope } from '../../db/client.js';
import { authorize } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { resolveColumns } from './exports.define.js';
import { exportsPolicy } from './exports.policy.js';
import { exportNames, findExport } from './exports.registry.js';

export type ExportStream = { filename: string; stream: Readable };

async function* csvChunks(header: string[], rows: AsyncGenerator<Cell[][]>): AsyncGenerator<string> {
  yield csvLine(header);
  for await (const batch of rows) {
    let chunk = '';
    for (const row of batch) chunk += csvLine(row);
    yield chunk;
  }
}

export async function exportList(deps: Deps, ctx: Ctx, name: string, body: ExportBody): Promise<ExportStream> {
  const actor = requireActor(ctx);
  const list = findExport(name);
  if (!list) throw problems.field('name', `Unknown export "${name}". Available: ${exportNames().join(', ')}`);
  authorize(ctx, exportsPolicy, list.action);
  const columns = resolveColumns(list, body.column_list);
  const prepared = list.prepare(deps, actor, body.filters ?? {});
  const labels = columns.map((k) => list.columns.find((c) => c.key === k)?.label ?? k);
  await withScope(deps.db, scopeOf(actor), (tx) =>
    recordActivity(tx, ctx, { action: 'Export', description: `${actor.name} exported ${list.subject} (${columns.join(', ')})` }),
  );
  const stream = Readable.from(csvChunks(labels, prepared.rows(columns)), { objectMode: false });
  stream.on('error', (err) => deps.log.error({ err, export: name, requestId: ctx.requestId }, 'export stream failed'));
  return { filename: `${list.name}.csv`, stream };
}
