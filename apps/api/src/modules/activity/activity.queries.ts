// All SQL of the activity log. Entries are written in the caller's transaction, so an entry exists exactly when its change does.
import { and, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import { readerOf, type Executor, type Reader } from '../../db/client.js';
import { activityLogs } from '../../db/schema.js';
import { containsPattern } from '../../db/like.js';
import { listPage } from '../../db/pagination.js';

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
    conds.push(
      or(ilike(activityLogs.userName, like), ilike(activityLogs.description, like), ilike(activityLogs.action, like), ilike(activityLogs.platform, like)),
    );
  }
  return conds;
}

/** An entry as the list shows it, with its tenant's name. */
export type ActivityRow = {
  id: string;
  user_id: string | null;
  user_name: string;
  role: string | null;
  action: string;
  description: string;
  platform: string;
  country: string | null;
  tenant_name: string | null;
  created_at: Date | string;
};

/**
 * tenantId null lists every tenant (provider scope); the database's row-level security enforces the same. The page
 * and, when the page is full, its bounded count in one statement (db/pagination.ts).
 */
export async function listActivities(run: Reader | Executor, tenantId: string | null, f: ActivityFilter, limit: number, offset: number) {
  const where = and(...activityConditions(tenantId, f));
  const filter = where ? sql`WHERE ${where}` : sql``;
  return listPage<ActivityRow>(
    readerOf(run),
    {
      rows: sql`SELECT activity_logs.id, activity_logs.created_at FROM activity_logs ${filter}`,
      details: sql`SELECT e.id, e.user_id, e.user_name, e.role, e.action, e.description, e.platform, e.country, t.name AS tenant_name, e.created_at
                     FROM page p JOIN activity_logs e ON e.id = p.id LEFT JOIN tenants t ON t.id = e.tenant_id`,
      count: { from: sql`FROM activity_logs ${filter}` },
    },
    limit,
    offset,
  );
}
