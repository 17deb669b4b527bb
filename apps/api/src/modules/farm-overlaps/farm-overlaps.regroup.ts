// Re-grouping a whole registry (a new overlap tolerance; registries grouped before the tolerance existed) in short
// transactions, so a large registry never holds the embedded engine's one connection, or a PostgreSQL row lock, for the
// whole run (docs/decisions/0058-registry-regroup-in-batches.md). The pairs are read a batch of farms at a time, the groups
// are found in memory, and the changes are written a batch at a time. A farm written while this runs is checked again
// at the end with the incremental refresh, so a concurrent capture or edit is not left with a stale group.
import { sql } from 'drizzle-orm';
import { queryRows, uuidArray, withScope, type Db } from '../../db/client.js';
import { componentsOf } from '../../lib/union-find.js';
import { overlapHolds, refreshOverlaps, writeGroups } from './farm-overlaps.js';

/** Farms read or written per transaction: about 0.1 to 0.3 s of work each on the embedded engine. */
export const REGROUP_BATCH = 2000;

/** One run per tenant at a time in this process: a second request waits for the first, then runs on the newest setting. */
const running = new Map<string, Promise<unknown>>();

export type RegroupResult = { overlapping: number; groups: number; farms: number; batches: number; rechecked: number };

/**
 * Recomputes is_overlapping and overlap_group_id for every farm of the tenant, in batches of `batch` farms, each in its
 * own transaction; clears the tenant's overlap_regroup_pending flag at the end.
 */
export async function regroupTenantFarms(db: Db, tenantId: string, batch = REGROUP_BATCH): Promise<RegroupResult> {
  const before = running.get(tenantId) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => regroupOnce(db, tenantId, batch));
  running.set(tenantId, run);
  try {
    return await run;
  } finally {
    if (running.get(tenantId) === run) running.delete(tenantId);
  }
}

async function regroupOnce(db: Db, tenantId: string, batch: number): Promise<RegroupResult> {
  const scope = { kind: 'tenant', tenantId } as const;
  const [clock] = await withScope(db, scope, (tx) => queryRows<{ at: string }>(tx, sql`SELECT clock_timestamp()::text AS at`));
  const started = clock!.at;
  let batches = 0;

  // 1. The overlapping pairs, a batch of farms (by id) at a time: each farm of the batch against the whole registry.
  const seen = new Set<string>();
  const pairs: Array<[string, string]> = [];
  const farmIds: string[] = [];
  for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
    const rows = await withScope(db, scope, async (tx) => {
      const ids = await queryRows<{ id: string }>(
        tx,
        sql`
        SELECT id FROM farms WHERE tenant_id = ${tenantId} AND id > ${after}::uuid ORDER BY id LIMIT ${batch}`,
      );
      if (ids.length === 0) return { ids, found: [] };
      const found = await queryRows<{ a: string; b: string }>(
        tx,
        sql`
        SELECT a.id AS a, b.id AS b
          FROM farms a
          JOIN farms b ON b.tenant_id = a.tenant_id AND a.geom && b.geom AND a.id <> b.id
         WHERE a.tenant_id = ${tenantId} AND a.id = ANY(${uuidArray(ids.map((r) => r.id))})
           AND a.flag IS DISTINCT FROM 'vanished' AND b.flag IS DISTINCT FROM 'vanished'
           AND ${overlapHolds('a', 'b', tenantId)}`,
      );
      return { ids, found };
    });
    batches++;
    if (rows.ids.length === 0) break;
    for (const r of rows.ids) farmIds.push(r.id);
    for (const r of rows.found) {
      const [x, y] = r.a < r.b ? [r.a, r.b] : [r.b, r.a];
      const k = `${x}|${y}`;
      if (!seen.has(k)) {
        seen.add(k);
        pairs.push([x, y]);
      }
    }
    after = rows.ids[rows.ids.length - 1]!.id;
    if (rows.ids.length < batch) break;
  }

  // 2. The groups (connected components; a group's id is its smallest member's), written a batch at a time where changed.
  const groups = componentsOf(pairs);
  for (let i = 0; i < farmIds.length; i += batch) {
    const slice = farmIds.slice(i, i + batch).map((id) => ({ id, gid: groups.get(id) ?? null }));
    await withScope(db, scope, (tx) => writeGroups(tx, tenantId, slice), { retry: true });
    batches++;
  }

  // 3. Farms written since the start (captured, edited, retained): their components again, incrementally, then the
  // pending flag (set by a tolerance change or by migration 0029) cleared.
  const rechecked = await withScope(
    db,
    scope,
    async (tx) => {
      const changed = await queryRows<{ id: string; overlap_group_id: string | null }>(
        tx,
        sql`
        SELECT id, overlap_group_id FROM farms WHERE tenant_id = ${tenantId} AND updated_at >= ${started}::timestamptz`,
      );
      if (changed.length > 0) {
        await refreshOverlaps(
          tx,
          tenantId,
          changed.map((r) => r.id),
          changed.map((r) => r.overlap_group_id),
        );
      }
      await tx.execute(sql`UPDATE tenants SET overlap_regroup_pending = false WHERE id = ${tenantId} AND overlap_regroup_pending`);
      return changed.length;
    },
    { retry: true },
  );
  batches++;
  const gids = [...groups.values()];
  return { overlapping: gids.length, groups: new Set(gids).size, farms: farmIds.length, batches, rechecked };
}

/**
 * Re-groups, one tenant after another, every registry flagged overlap_regroup_pending: those grouped before the overlap
 * tolerance existed (migration 0029 flags them), or whose regroup was cut short by a stop. Run in the background once
 * at start (server.ts); returns how many tenants were re-grouped.
 */
export async function regroupPendingTenants(db: Db, log?: { info: (o: object, m: string) => void }): Promise<number> {
  const pending = await withScope(db, { kind: 'provider' }, (tx) =>
    queryRows<{ id: string }>(tx, sql`SELECT id FROM tenants WHERE overlap_regroup_pending ORDER BY created_at`),
  );
  for (const t of pending) {
    const t0 = performance.now();
    const r = await regroupTenantFarms(db, t.id);
    log?.info({ tenant_id: t.id, ...r, ms: Math.round(performance.now() - t0) }, 'registry re-grouped under the overlap tolerance');
  }
  return pending.length;
}
