// All SQL of the activity log. Entries are written in the caller's transaction, so an entry exists exactly when its change does.
import { and, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { activityLogs, tenants } from '../../db/schema.js';
import { containsPattern } from '../../db/like.js';
import { countList } from '../../lib/pagination.js';

export type NewActivity = typeof activityLogs.$inferInsert;

export async function insertActivity(tx: Executor, entry: NewActivity): Promise<void> {
  await tx.insert(activityLogs).values(entry);
}

export async function insertActivities(tx: Executor, entries: NewActivity[]): Promise<void> {
  for (let i = 0; i < entries.length; i += 500) await tx.insert(activityLogs).values(entries.slice(i, i + 500));
}

export type ActivityFilter = {
  search?: string | undefined;
  action?: string | undefined;
  dateAfter?: string | undefined;
  dateBefore?: string | undefined;
};

/** The filter as SQL conditions; tenantId null means every tenant (provider scope). Shared by the list and its export. */
export function activityConditions(tenantId: string | null, f: ActivityFilter): (SQL | undefined)[] {
  const conds: (SQL | undefined)[] = [tenantId ? eq(activityLogs.tenantId, tenantId) : undefined];
  if (f.action) conds.push(eq(activityLogs.action, f.action));
  if (f.dateAfter) conds.push(gte(activityLogs.createdAt, sql`${f.dateAfter}::date`));
  if (f.dateBefore) conds.push(lt(activityLogs.createdAt, sql`${f.dateBefore}::date + 1`));
  if (f.search) {
    const like = containsPattern(f.search);
    conds.push(or(ilike(activityLogs.userName, like), ilike(activityLogs.description, like), ilike(activityLogs.action, like), ilike(activityLogs.platform, like)));
  }
  return conds;
}

/** tenantId null lists every tenant (provider scope); the database's row-level security enforces the same. */
export async function listActivities(tx: Executor, tenantId: string | null, f: ActivityFilter, limit: number, offset: number) {
  const where = and(...activityConditions(tenantId, f));
  const rows = await tx
      .select({ entry: activityLogs, tenantName: tenants.name })
      .from(activityLogs)
      .leftJoin(tenants, eq(tenants.id, activityLogs.tenantId))
      .where(where)
      .orderBy(desc(activityLogs.createdAt), desc(activityLogs.id))
    .limit(limit)
    .offset(offset);
  const total = await countList(tx, { from: sql`FROM activity_logs ${where ? sql`WHERE ${where}` : sql``}` }, offset, rows.length, limit);
  return { rows, total };
}
