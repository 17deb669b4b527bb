// EUDR readiness (issue 29): every figure here is read from the same place as a farm's screening and the EUDR export:
// the stored screening figures through the one plot-risk tree (plot-risk.ts) with the tenant's thresholds, and the
// export's geolocation checks (eudr-formats.ts). Verdicts are not stored (they follow the thresholds and the layers in
// use), so each report walks the tenant's plots in keyset batches, each its own short scoped transaction sized by time
// (lib/export-stream.ts), and keeps only its counts, the asked page, or the chosen plots: memory does not grow with
// the registry. The csv export streams the same walk.
import type { Readable } from 'node:stream';
import {
  csvLine,
  DUE_DILIGENCE_MAX_PLOTS,
  EUDR_WARNINGS,
  type DueDiligenceQuery,
  type DueDiligenceReport,
  type EudrPlot,
  type EudrPlotsFilter,
  type EudrPlotsQuery,
  type EudrReadinessSummary,
  type EudrWarning,
  type PlotRiskSettings,
  type ReadinessCounts,
  type TenantReadiness,
} from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope, type Scope } from '../../db/client.js';
import { pageOffset, paginate, type Page } from '../../db/pagination.js';
import { chunkSizer, letOthersIn, textStream } from '../../lib/export-stream.js';
import { authorize } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { geolocationWarnings } from '../eudr-export/eudr-formats.js';
import { plotRisk } from '../reference-layers/plot-risk.js';
import { riskSettingsOf } from '../reference-layers/reference-layers.service.js';
import { eudrReportsPolicy } from './eudr-reports.policy.js';
import { PLOTS_CSV_HEADER, plotCsvCells, presentEvidence, presentPlot, type Evaluated } from './eudr-reports.presenter.js';
import * as q from './eudr-reports.queries.js';

type TenantContext = { settings: PlotRiskSettings; layers: q.LayerInUse[]; layerIds: Set<string>; hasForestLayer: boolean };

const TREND_MONTHS = 24;

/** The verdict and warnings of one plot, from its row and its tenant's context. */
function evaluate(row: q.PlotRow, c: TenantContext): Evaluated {
  const have = new Set(row.figures.map((f) => f.layer_id));
  const pending = [...c.layerIds].filter((id) => !have.has(id)).length;
  const verdict = plotRisk(row.figures, c.settings, { pendingLayers: pending, hasForestLayer: c.hasForestLayer });
  const warnings = geolocationWarnings({ ...row, farmer: row.farmer, risk: verdict });
  return { row, verdict, warnings, screened: c.layerIds.size > 0 && pending === 0 };
}

/** A plot needs action when its verdict is not low or it has a geolocation warning. */
const needsAction = (e: Evaluated) => e.verdict.level !== 'low' || e.warnings.length > 0;

/**
 * The plots of one tenant (or every tenant, tenantId null) that the selection keeps, evaluated, batch by batch, each
 * batch read in its own transaction. Tenant contexts are read once per walk, into `contexts`.
 */
async function* batchesOf(
  deps: Deps,
  scope: Scope,
  tenantId: string | null,
  sel: q.PlotSelection,
  contexts = new Map<string, TenantContext>(),
): AsyncGenerator<Evaluated[]> {
  const sizer = chunkSizer(deps);
  for (let after: string | null = null; ;) {
    const cursor: string | null = after;
    const { rows, limit } = await sizer.read((n) =>
      withScope(deps.db, scope, async (tx) => {
        const batch = await q.plotBatch(tx, tenantId, sel, cursor, n);
        const out: Evaluated[] = [];
        for (const r of batch) {
          let c = contexts.get(r.tenant_id);
          if (!c) {
            const layers = await q.layersInUse(tx, r.tenant_id);
            c = {
              settings: await riskSettingsOf(tx, r.tenant_id),
              layers,
              layerIds: new Set(layers.map((l) => l.id)),
              hasForestLayer: layers.some((l) => l.kind === 'forest_2020'),
            };
            contexts.set(r.tenant_id, c);
          }
          out.push(evaluate(r, c));
        }
        return out;
      }),
    );
    if (rows.length > 0) yield rows;
    if (rows.length < limit) return;
    after = rows[rows.length - 1]!.row.id;
    await letOthersIn(deps);
  }
}

/** Every plot of the walk, one at a time. */
async function walk(deps: Deps, scope: Scope, tenantId: string | null, sel: q.PlotSelection, visit: (e: Evaluated) => void): Promise<void> {
  for await (const batch of batchesOf(deps, scope, tenantId, sel)) for (const e of batch) visit(e);
}

const zeroCounts = (): ReadinessCounts => ({ plots: 0, screened: 0, low: 0, review: 0, high: 0, with_warnings: 0, ready: 0 });
const zeroWarnings = (): Record<EudrWarning, number> => Object.fromEntries(EUDR_WARNINGS.map((w) => [w, 0])) as Record<EudrWarning, number>;

function add(c: ReadinessCounts, e: Evaluated): void {
  c.plots++;
  if (e.screened) c.screened++;
  c[e.verdict.level]++;
  if (e.warnings.length > 0) c.with_warnings++;
  if (!needsAction(e)) c.ready++;
}

function tenantOf(ctx: Ctx): { tenantId: string; scope: Scope } {
  const { tenantId } = authorize(ctx, eudrReportsPolicy, 'tenant');
  return { tenantId, scope: { kind: 'tenant', tenantId } };
}

/** GET /eudr-reports/summary/: counts by verdict and warning, per area and agent, and the monthly trend. */
export async function summary(deps: Deps, ctx: Ctx): Promise<EudrReadinessSummary> {
  const { tenantId, scope } = tenantOf(ctx);
  const total = zeroCounts();
  const byWarning = zeroWarnings();
  const areas = new Map<string, ReadinessCounts & { id: string | null; name: string }>();
  const agents = new Map<string, ReadinessCounts & { id: string | null; name: string }>();
  const months = new Map<string, { month: string; plots: number; low: number; review: number; high: number; with_warnings: number }>();
  const groupOf = (m: typeof areas, id: string | null, name: string) => {
    const key = id ?? '';
    let g = m.get(key);
    if (!g) m.set(key, (g = { id, name, ...zeroCounts() }));
    return g;
  };
  await walk(deps, scope, tenantId, {}, (e) => {
    add(total, e);
    for (const w of e.warnings) byWarning[w]++;
    add(groupOf(areas, e.row.area_id, e.row.area_name ?? 'Outside operational areas'), e);
    add(groupOf(agents, e.row.agent_id, e.row.agent_name ?? 'Not mapped by an agent'), e);
    const month = e.row.created_at.slice(0, 7);
    let t = months.get(month);
    if (!t) months.set(month, (t = { month, plots: 0, low: 0, review: 0, high: 0, with_warnings: 0 }));
    t.plots++;
    t[e.verdict.level]++;
    if (e.warnings.length > 0) t.with_warnings++;
  });
  const layers = await withScope(deps.db, scope, (tx) => q.layersInUse(tx, tenantId));
  // Groups by their plots (most first), the "none" group last; months oldest first.
  const ordered = (m: typeof areas) =>
    [...m.values()].sort((a, b) => Number(a.id === null) - Number(b.id === null) || b.plots - a.plots || a.name.localeCompare(b.name));
  return {
    ...total,
    by_warning: byWarning,
    by_area: ordered(areas),
    by_agent: ordered(agents),
    trend: [...months.values()].sort((a, b) => a.month.localeCompare(b.month)).slice(-TREND_MONTHS),
    layers: layers.length,
  };
}

const matches = (f: EudrPlotsFilter) => {
  const needle = f.search?.toLocaleLowerCase('en');
  return (e: Evaluated) =>
    needsAction(e) &&
    (f.verdict === undefined || e.verdict.level === f.verdict) &&
    (f.warning === undefined || e.warnings.includes(f.warning)) &&
    (!needle || e.row.name.toLocaleLowerCase('en').includes(needle) || e.row.farmer.toLocaleLowerCase('en').includes(needle));
};

/** GET /eudr-reports/plots/: the plots needing action, in farm id order, paged (exact count: the walk counts every match). */
export async function plots(deps: Deps, ctx: Ctx, query: EudrPlotsQuery, url: string): Promise<Page<EudrPlot>> {
  const { tenantId, scope } = tenantOf(ctx);
  const size = query.page_size ?? 10;
  const offset = pageOffset(query.page, size);
  const keep = matches(query);
  const results: EudrPlot[] = [];
  let count = 0;
  await walk(deps, scope, tenantId, { areaId: query.area_id, agentId: query.agent_id }, (e) => {
    if (!keep(e)) return;
    if (count >= offset && count < offset + size) results.push(presentPlot(e));
    count++;
  });
  return paginate(results, count, query.page, size, url);
}

/** GET /eudr-reports/plots/export/: the same list as csv, streamed as it is walked; recorded in the activity log. */
export async function exportPlots(deps: Deps, ctx: Ctx, query: EudrPlotsFilter): Promise<{ stream: Readable; filename: string }> {
  const { tenantId, scope } = tenantOf(ctx);
  await withScope(deps.db, scope, (tx) => recordActivity(tx, ctx, { action: 'Export', description: 'Exported the EUDR plots needing action (csv)' }));
  const keep = matches(query);
  async function* lines(): AsyncGenerator<string> {
    yield csvLine([...PLOTS_CSV_HEADER]);
    for await (const batch of batchesOf(deps, scope, tenantId, { areaId: query.area_id, agentId: query.agent_id })) {
      const text = batch
        .filter(keep)
        .map((e) => csvLine(plotCsvCells(presentPlot(e))))
        .join('');
      if (text) yield text;
    }
  }
  return { stream: textStream(deps, lines(), { export: 'eudr-plots', requestId: ctx.requestId }), filename: 'eudr-plots-needing-action.csv' };
}

/** GET /eudr-reports/due-diligence/: a chosen set of plots (an area's, or named farms; at most 500), with the evidence per plot. */
export async function dueDiligence(deps: Deps, ctx: Ctx, query: DueDiligenceQuery): Promise<DueDiligenceReport> {
  const { tenantId, scope } = tenantOf(ctx);
  const head = await withScope(deps.db, scope, async (tx) => {
    const name = await q.tenantName(tx, tenantId);
    const layers = await q.layersInUse(tx, tenantId);
    let area: { id: string; name: string } | null = null;
    if (query.area_id) {
      area = await q.areaOf(tx, tenantId, query.area_id);
      if (!area) throw problems.field('area_id', 'Choose one of your operational areas');
      if ((await q.countAreaFarms(tx, tenantId, area.id, DUE_DILIGENCE_MAX_PLOTS)) > DUE_DILIGENCE_MAX_PLOTS)
        throw problems.field(
          'area_id',
          `This operational area holds more than ${DUE_DILIGENCE_MAX_PLOTS} plots: choose the plots instead (farm_ids), at most ${DUE_DILIGENCE_MAX_PLOTS} in one report`,
        );
    }
    return { name: name ?? '', layers, area };
  });
  const chosen: Evaluated[] = [];
  await walk(deps, scope, tenantId, query.area_id ? { areaId: query.area_id } : { farmIds: query.farm_ids }, (e) => void chosen.push(e));
  // Named farms that are not the tenant's are not told apart from missing ones: the report lists what was found.
  if (query.farm_ids && chosen.length === 0) throw problems.field('farm_ids', 'None of these farms is in your registry');
  const summaryCounts = { ...zeroCounts(), area_sqm: 0, by_warning: zeroWarnings() };
  for (const e of chosen) {
    add(summaryCounts, e);
    summaryCounts.area_sqm += e.row.area_sqm;
    for (const w of e.warnings) summaryCounts.by_warning[w]++;
  }
  const rank = { high: 0, review: 1, low: 2 } as const;
  chosen.sort((a, b) => rank[a.verdict.level] - rank[b.verdict.level] || a.row.name.localeCompare(b.row.name) || a.row.id.localeCompare(b.row.id));
  return {
    generated_at: new Date().toISOString(),
    tenant_name: head.name,
    selection: {
      kind: query.area_id ? 'area' : 'farms',
      area_id: head.area?.id ?? null,
      area_name: head.area?.name ?? null,
      requested: query.farm_ids?.length ?? chosen.length,
    },
    summary: summaryCounts,
    layers: head.layers.map((l) => ({
      id: l.id,
      name: l.name,
      kind: l.kind,
      owner: l.tenant_id ? ('tenant' as const) : ('provider' as const),
      reference_date: l.reference_date,
      source: l.source,
      version: l.version,
    })),
    plots: chosen.map(presentEvidence),
  };
}

/** GET /eudr-reports/tenant-readiness/: provider staff, every tenant's readiness (one walk over every tenant's plots). */
export async function tenantReadiness(deps: Deps, ctx: Ctx): Promise<TenantReadiness> {
  authorize(ctx, eudrReportsPolicy, 'provider');
  const scope: Scope = { kind: 'provider' };
  const counts = new Map<string, ReadinessCounts>();
  await walk(deps, scope, null, {}, (e) => {
    let c = counts.get(e.row.tenant_id);
    if (!c) counts.set(e.row.tenant_id, (c = zeroCounts()));
    add(c, e);
  });
  const tenants = await withScope(deps.db, scope, (tx) => q.allTenants(tx));
  return {
    results: tenants.map((t) => {
      const c = counts.get(t.id) ?? zeroCounts();
      return { tenant_id: t.id, tenant_name: t.name, layers: t.layers, ...c, ready_share: c.plots > 0 ? c.ready / c.plots : 0 };
    }),
  };
}
