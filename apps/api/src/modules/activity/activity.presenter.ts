// Activity-log row → API shape (explicit whitelist: the IP address stays internal).
import type { ActivityEntry, RoleName } from '@farmland/contracts';
import type { ActivityRow } from './activity.queries.js';

export function presentActivity(r: ActivityRow): ActivityEntry {
  return {
    id: r.id,
    user: r.user_name,
    user_id: r.user_id,
    role: (r.role as RoleName | null) ?? null,
    action: r.action as ActivityEntry['action'],
    description: r.description,
    platform: r.platform,
    country: r.country,
    tenant: r.tenant_name,
    timestamp: new Date(r.created_at).toISOString(),
  };
}
