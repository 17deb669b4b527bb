// GET /farms/export/eudr: the tenant's farms as EUDR due-diligence geolocation. Reads in keyset batches, each its own
// short scoped transaction (row-level security; provider staff may name a tenant), formats, splits into parts of at
// most 25 MB, and returns the asked part with the number of parts. The export is recorded in the activity log.
import type { EudrExportQuery } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { readScope } from '../farms/farms.policy.js';
import { eudrBatch, tenantExists, type EudrRow } from './eudr-export.queries.js';
import { FORMAT_INFO, formatter, PART_LIMIT_BYTES, splitParts } from './eudr-formats.js';

const BATCH = 5000;

export type EudrFile = { body: string; filename: string; mime: string; parts: number; part: number };

export async function exportEudr(deps: Deps, ctx: Ctx, q: EudrExportQuery, limitBytes = PART_LIMIT_BYTES): Promise<EudrFile> {
  const actor = ctx.actor;
  if (!actor || (actor.role !== 'tenant_admin' && actor.role !== 'super_admin')) throw problems.forbidden('Only administrators can export farms.');
  const { tenantId, scope } = readScope(ctx, q.tenant_id);
  if (tenantId && !(await withScope(deps.db, scope, (tx) => tenantExists(tx, tenantId)))) throw problems.notFound('Tenant');
  const f = formatter(q.format);
  const items: string[] = [];
  let after: string | null = null;
  for (;;) {
    const cursor: string | null = after;
    const rows: EudrRow[] = await withScope(deps.db, scope, (tx) => eudrBatch(tx, tenantId, q.points_below_4ha ?? false, cursor, BATCH));
    for (const r of rows) items.push(f.item(r));
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  const parts = splitParts(items, f, limitBytes);
  if (q.part > parts.length) throw problems.field('part', `part must be at most ${parts.length}`);
  const exporterTenant = tenantId ?? actor.tenantId;
  await withScope(deps.db, scope, (tx) =>
    recordActivity(tx, ctx, { action: 'Export', description: `Exported ${items.length} farms as EUDR ${q.format.toUpperCase()} (part ${q.part} of ${parts.length})`, tenantId: exporterTenant }),
  );
  const info = FORMAT_INFO[q.format];
  const suffix = parts.length > 1 ? `-part-${q.part}-of-${parts.length}` : '';
  return { body: parts[q.part - 1]!, filename: `farms-eudr${suffix}.${info.extension}`, mime: info.mime, parts: parts.length, part: q.part };
}
