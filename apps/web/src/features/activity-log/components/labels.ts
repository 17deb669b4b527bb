// Display names for the activity log's role and platform values.
import type { RoleName } from '@farmland/contracts';

const ROLE_LABELS: Record<RoleName, string> = { super_admin: 'Super admin', tenant_admin: 'Tenant admin', agent: 'Agent' };
const PLATFORM_LABELS: Record<string, string> = { web: 'Web', mobile: 'Mobile', sdk: 'SDK', api: 'API' };

export const roleLabel = (role: RoleName | null): string => (role ? ROLE_LABELS[role] : 'System');
export const platformLabel = (platform: string): string => PLATFORM_LABELS[platform] ?? platform;
