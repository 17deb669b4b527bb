// GET /farms/export/eudr: the tenant's farms as EUDR due-diligence geolocation, in parts of at most 25 MB (the EU
// information system's upload limit; the part count is a response header). Streamed (issue 28): a first pass reads
// the farms in keyset batches, each its own short scoped transaction, formats each and keeps only its size, which plans
// the parts (their bounds: where each starts and how many farms it holds; never the farms). The asked part is then read
// again from its start, batch by batch, and written as it is read with backpressure (lib/export-stream.ts): memory stays at
// about one batch whatever the registry's size. The export is recorded in the activity log before the file is sent.
import type { Readable } from 'node:stream';
import type { EudrExportQuery, PlotRiskSettings } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { authorize, namedTenant } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { ChunkSizer, letOthersIn, textStream } from '../../lib/export-stream.js';
import { eudrExportPolicy } from './eudr-export.policy.js';
import { plotRisk } from '../reference-layers/plot-risk.js';
import { riskSettingsOf } from '../reference-layers/reference-layers.service.js';
import { applicableLayers } from '../reference-layers/reference-layers.screening.js';
import { eudrBatch, tenantExists, type EudrRow } from './eudr-export.queries.js';
import { FORMAT_INFO, formatter, PartPlanner, PART_LIMIT_BYTES, type PartBound } from './eudr-formats.js';
import { COMPANION_INFO, companionFormatter } from './eudr-companion.js';

export type EudrFile = { stream: Readable; filename: string; mime: string; parts: number; part: number };

type Read = (after: string | null, limit: number) => Promise<EudrRow[]>;
type RiskContext = { settings: PlotRiskSettings; layers: Set<string>; hasForestLayer: boolean };

/** The farms from `after` on, batch by batch (each batch its own transaction, sized by time: lib/export-stream.ts). */
async function* batches(read: Read, pause: () => Promise<void>, after: string | null = null): AsyncGenerator<EudrRow[]> {
  const sizer = new ChunkSizer();
  for (let cursor = after; ; ) {
    const { rows, limit } = await sizer.read((n) => read(cursor, n));
    if (rows.length > 0) yield rows;
    if (rows.length < limit) return;
    cursor = rows[rows.length - 1]!.id;
    await pause();
  }
}

/** One part's text: its head, its farms (read from its start, at most its count and never past the limit), its tail. */
async function* partText(read: Read, pause: () => Promise<void>, f: ReturnType<typeof formatter>, plan: PartPlanner, bound: PartBound): AsyncGenerator<string> {
  yield f.head;
  let used = Buffer.byteLength(f.head) + Buffer.byteLength(f.tail);
  let count = 0;
  outer: for await (const rows of batches(read, pause, bound.after)) {
    let text = '';
    for (const r of rows) {
      const item = f.item(r);
      const bytes = Buffer.byteLength(item);
      // The plan's count, and the limit again: farms added since the first pass never push a part past 25 MB.
      if (count >= bound.count || !plan.fits(used, count, bytes)) {
        if (text) yield text;
        break outer;
      }
      text += (count > 0 ? f.separator : '') + item;
      used += bytes + (count > 0 ? Buffer.byteLength(f.separator) : 0);
      count++;
    }
    if (text) yield text;
  }
  yield f.tail;
}

export async function exportEudr(deps: Deps, ctx: Ctx, q: EudrExportQuery, limitBytes = PART_LIMIT_BYTES): Promise<EudrFile> {
  const { actor, tenantId, scope } = authorize(ctx, eudrExportPolicy, 'export', namedTenant(q.tenant_id));
  if (tenantId && !(await withScope(deps.db, scope, (tx) => tenantExists(tx, tenantId)))) throw problems.notFound('Tenant');
  const f = formatter(q.format, q.verdicts !== 'companion');
  const opts = { pointsBelow4ha: q.points_below_4ha ?? false, passingOnly: q.plots !== 'all', splitHoles: q.split_holes ?? false };
  // Each plot's verdict (issue 29): its figures, its tenant's thresholds and the layers that apply to the tenant.
  const contexts = new Map<string, RiskContext>();
  const read: Read = (after, limit) =>
    withScope(deps.db, scope, async (tx) => {
      const rows = await eudrBatch(tx, tenantId, opts, after, limit);
      for (const r of rows) {
        let c = contexts.get(r.tenant_id);
        if (!c) {
          const layers = await applicableLayers(tx, r.tenant_id);
          c = { settings: await riskSettingsOf(tx, r.tenant_id), layers: new Set(layers.map((l) => l.id)), hasForestLayer: layers.some((l) => l.kind === 'forest_2020') };
          contexts.set(r.tenant_id, c);
        }
        const have = new Set(r.figures.map((f) => f.layer_id));
        const pendingLayers = [...c.layers].filter((id) => !have.has(id)).length;
        r.risk = plotRisk(r.figures, c.settings, { pendingLayers, hasForestLayer: c.hasForestLayer });
      }
      return rows;
    });
  const pause = () => letOthersIn(deps);
  const plan = new PartPlanner(f, limitBytes);
  let total = 0;
  for await (const rows of batches(read, pause)) {
    for (const r of rows) plan.add(r.id, Buffer.byteLength(f.item(r)));
    total += rows.length;
  }
  const parts = plan.parts.length;
  if (q.part > parts) throw problems.field('part', `part must be at most ${parts}`);
  const exporterTenant = tenantId ?? actor.tenantId;
  await withScope(deps.db, scope, (tx) =>
    recordActivity(tx, ctx, { action: 'Export', description: `Exported ${total} farms as EUDR ${q.format.toUpperCase()} (part ${q.part} of ${parts})`, tenantId: exporterTenant }),
  );
  // Issue 29: the companion CSV (file=companion) is written through the same plan and reader as the geolocation file.
  const companion = q.file === 'companion';
  const info = companion ? COMPANION_INFO : FORMAT_INFO[q.format];
  const suffix = parts > 1 ? `-part-${q.part}-of-${parts}` : '';
  const out = companion ? companionFormatter() : f;
  const stream = textStream(deps, partText(read, pause, out, plan, plan.parts[q.part - 1]!), { export: 'eudr', format: q.format, part: q.part, requestId: ctx.requestId });
  return { stream, filename: `farms-eudr${companion ? '-verdicts' : ''}${suffix}.${info.extension}`, mime: info.mime, parts, part: q.part };
}
