// Writes and lists activity-log entries. recordActivity is called by every mutating service inside its own transaction.
import type { ActivityAction } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { scopeOf } from '../../context.js';
import { scopedReader, type Executor } from '../../db/client.js';
import { pageOffset, paginate, type Page } from '../../db/pagination.js';
import { authorize } from '../../lib/policy.js';
import { activityPolicy } from './activity.policy.js';
import { insertActivity, listActivities } from './activity.queries.js';
import { presentActivity } from './activity.presenter.js';

export type ActivityInput = {
  action: ActivityAction;
  description: string;
  /** Defaults to the actor's tenant; set it when a provider action concerns a tenant, or for sign-in before a session exists. */
  tenantId?: string | null;
  user?: { id: string; name: string; role: string; tenantId: string | null };
};

export async function recordActivity(tx: Executor, ctx: Ctx, input: ActivityInput): Promise<void> {
  const who = input.user ?? (ctx.actor ? { id: ctx.actor.userId, name: ctx.actor.name, role: ctx.actor.role, tenantId: ctx.actor.tenantId } : null);
  await insertActivity(tx, {
    tenantId: input.tenantId !== undefined ? input.tenantId : (who?.tenantId ?? null),
    userId: who?.id ?? null,
    userName: who?.name ?? 'System',
    role: who?.role ?? null,
    action: input.action,
    description: input.description,
    platform: ctx.platform,
    country: ctx.country,
    ip: ctx.ip,
  });
}

export type ActivityListQuery = {
  page: number;
  page_size?: number | undefined;
  search?: string | undefined;
  action?: string | undefined;
  date_after?: string | undefined;
  date_before?: string | undefined;
};

export async function listActivity(deps: Deps, ctx: Ctx, q: ActivityListQuery, url: string): Promise<Page<ReturnType<typeof presentActivity>>> {
  const { actor } = authorize(ctx, activityPolicy, 'list');
  const size = q.page_size ?? 30;
  // The page and its total in one statement, sent with the scope in one round trip (db/pagination.ts).
  const { rows, total } = await listActivities(
    scopedReader(deps.db, scopeOf(actor), ctx),
    actor.role === 'super_admin' ? null : actor.tenantId,
    { search: q.search, action: q.action, dateAfter: q.date_after, dateBefore: q.date_before },
    size,
    pageOffset(q.page, size),
  );
  return paginate(rows.map(presentActivity), total, q.page, size, url);
}
