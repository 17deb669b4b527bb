// The SQL of exports: keyset-paginated batches (newest first), so that each batch is one short statement and no
// export holds the database (PGlite is one connection) while a slow client downloads. The tenant id comes first.
import { and, desc, eq, lte, or, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { activityLogs, tenants } from '../../db/schema.js';
import { activityConditions, type ActivityFilter } from '../activity/activity.queries.js';

export const EXPORT_BATCH_SIZE = 1000;

export type KeysetCursor = { createdAt: Date; id: string };

export type ActivityExportRow = {
  id: string;
  createdAt: Date;
  userName: string;
  role: string | null;
  action: string;
  description: string;
  platform: string;
  country: string | null;
  tenantName: string | null;
};

/** One batch of the activity log for an export; tenantId null is the provider's view of every tenant. */
export async function activityExportBatch(
  tx: Executor,
  tenantId: string | null,
  filter: ActivityFilter,
  upTo: Date,
  after: KeysetCursor | null,
  limit = EXPORT_BATCH_SIZE,
): Promise<ActivityExportRow[]> {
  const conds = [
    ...activityConditions(tenantId, filter),
    lte(activityLogs.createdAt, upTo),
    after ? or(lt(activityLogs.createdAt, after.createdAt), and(eq(activityLogs.createdAt, after.createdAt), lt(activityLogs.id, after.id))) : undefined,
  ];
  return tx
    .select({
      id: activityLogs.id,
      createdAt: activityLogs.createdAt,
      userName: activityLogs.userName,
      role: activityLogs.role,
      action: activityLogs.action,
      description: activityLogs.description,
      platform: activityLogs.platform,
      country: activityLogs.country,
      tenantName: tenants.name,
    })
    .from(activityLogs)
    .leftJoin(tenants, eq(tenants.id, activityLogs.tenantId))
    .where(and(...conds))
    .orderBy(desc(activityLogs.createdAt), desc(activityLogs.id))
    .limit(limit);
}
