// GET /farms/export/eudr: the tenant's farms as EUDR due-diligence geolocation, in parts of at most 25 MB (the EU
// information system's upload limit; the part count is a response header). Streamed (issue 28): the parts are planned
// by one SQL aggregate of an upper bound of each farm's written size (from its stored vertex and hole counts and its
// names; no geometry is read), summed per id bucket (eudrPlan: no sort), so the first byte does not wait for a read of
// the registry. The asked part is then read from its start in keyset batches, each its own short scoped transaction,
// and written as it is read with backpressure (lib/export-stream.ts): memory stays at about one batch whatever the
// registry's size. The export is recorded in the activity log before the file is sent.
import type { Readable } from 'node:stream';
import type { EudrExportQuery, PlotRiskSettings } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { authorize, namedTenant } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { chunkSizer, letOthersIn, textStream, type ChunkSizer } from '../../lib/export-stream.js';
import { eudrExportPolicy } from './eudr-export.policy.js';
import { plotRisk } from '../reference-layers/plot-risk.js';
import { riskSettingsOf } from '../reference-layers/reference-layers.service.js';
import { applicableLayers } from '../reference-layers/reference-layers.screening.js';
import { eudrBatch, eudrPlan, layerCount, tenantExists, type EudrRow } from './eudr-export.queries.js';
import { boundTerms, FORMAT_INFO, formatter, frame, PART_LIMIT_BYTES, type PartBound } from './eudr-formats.js';
import { COMPANION_INFO, companionFormatter } from './eudr-companion.js';

export type EudrFile = { stream: Readable; filename: string; mime: string; parts: number; part: number };

type Read = (after: string | null, limit: number) => Promise<EudrRow[]>;
type RiskContext = { settings: PlotRiskSettings; layers: Set<string>; hasForestLayer: boolean };

/** The farms from `after` on, batch by batch (each batch its own transaction, sized by time: lib/export-stream.ts). */
async function* batches(read: Read, pause: () => Promise<void>, sizer: ChunkSizer, after: string | null = null): AsyncGenerator<EudrRow[]> {
  for (let cursor = after; ;) {
    const { rows, limit } = await sizer.read((n) => read(cursor, n));
    if (rows.length > 0) yield rows;
    if (rows.length < limit) return;
    cursor = rows[rows.length - 1]!.id;
    await pause();
  }
}

/**
 * One part's text: its head, its farms (read from its start, its count), its tail. The plan's bounds keep it within the
 * limit; should a farm's bound ever be short of its text (or farms be added since the plan), the part still ends
 * before the limit, and the log says so.
 */
async function* partText(
  read: Read,
  pause: () => Promise<void>,
  sizer: ChunkSizer,
  f: ReturnType<typeof formatter>,
  limitBytes: number,
  bound: PartBound,
  log: () => void,
): AsyncGenerator<string> {
  yield f.head;
  const { fixed, sep } = frame(f);
  let used = fixed;
  let count = 0;
  outer: for await (const rows of batches(read, pause, sizer, bound.after)) {
    let text = '';
    for (const r of rows) {
      const item = count < bound.count ? f.item(r) : '';
      const bytes = Buffer.byteLength(item) + (count > 0 ? sep : 0);
      const over = count > 0 && used + bytes > limitBytes;
      if (count >= bound.count || over) {
        if (over) log();
        if (text) yield text;
        break outer;
      }
      text += (count > 0 ? f.separator : '') + item;
      used += bytes;
      count++;
    }
    if (text) yield text;
    if (count >= bound.count) break;
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
          c = {
            settings: await riskSettingsOf(tx, r.tenant_id),
            layers: new Set(layers.map((l) => l.id)),
            hasForestLayer: layers.some((l) => l.kind === 'forest_2020'),
          };
          contexts.set(r.tenant_id, c);
        }
        const have = new Set(r.figures.map((f) => f.layer_id));
        const pendingLayers = [...c.layers].filter((id) => !have.has(id)).length;
        r.risk = plotRisk(r.figures, c.settings, { pendingLayers, hasForestLayer: c.hasForestLayer });
      }
      return rows;
    });
  const pause = () => letOthersIn(deps);
  // The plan: one aggregate over the registry's rows (no geometry, no sort), whatever its size; only the parts' bounds are kept.
  const planned = await withScope(deps.db, scope, async (tx) =>
    eudrPlan(tx, tenantId, opts, boundTerms(q.format, await layerCount(tx)), limitBytes - frame(f).fixed),
  );
  const plan: PartBound[] =
    planned.length > 0 ? planned.map((p, i) => ({ after: i > 0 ? planned[i - 1]!.last : null, count: p.count })) : [{ after: null, count: 0 }];
  const total = planned.reduce((n, p) => n + p.count, 0);
  const parts = plan.length;
  if (q.part > parts) throw problems.field('part', `part must be at most ${parts}`);
  const exporterTenant = tenantId ?? actor.tenantId;
  await withScope(deps.db, scope, (tx) =>
    recordActivity(tx, ctx, {
      action: 'Export',
      description: `Exported ${total} farms as EUDR ${q.format.toUpperCase()} (part ${q.part} of ${parts})`,
      tenantId: exporterTenant,
    }),
  );
  // Issue 29: the companion CSV (file=companion) is written through the same plan and reader as the geolocation file.
  const companion = q.file === 'companion';
  const info = companion ? COMPANION_INFO : FORMAT_INFO[q.format];
  const suffix = parts > 1 ? `-part-${q.part}-of-${parts}` : '';
  const out = companion ? companionFormatter() : f;
  // The companion's lines (no geometry) are shorter than the geolocation file's, so the plan's bound holds for both.
  const stream = textStream(
    deps,
    partText(read, pause, chunkSizer(deps), out, limitBytes, plan[q.part - 1]!, () =>
      deps.log.error({ export: 'eudr', format: q.format, part: q.part }, 'EUDR part reached the size limit before its planned count'),
    ),
    { export: 'eudr', format: q.format, part: q.part, requestId: ctx.requestId },
  );
  return { stream, filename: `farms-eudr${companion ? '-verdicts' : ''}${suffix}.${info.extension}`, mime: info.mime, parts, part: q.part };
}
