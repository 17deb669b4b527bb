// Activity-log row → API shape (explicit whitelist: the IP address stays internal).
import type { ActivityEntry, RoleName } from '@farmland/contracts';
import type { activityLogs } from '../../db/schema.js';

export function presentActivity(r: { entry: typeof activityLogs.$inferSelect; tenantName: string | null }): ActivityEntry {
  return {
    id: r.entry.id,
    user: r.entry.userName,
    user_id: r.entry.userId,
    role: (r.entry.role as RoleName | null) ?? null,
    action: r.entry.action as ActivityEntry['action'],
    description: r.entry.description,
    platform: r.entry.platform,
    country: r.entry.country,
    tenant: r.tenantName,
    timestamp: r.entry.createdAt.toISOString(),
  };
}
