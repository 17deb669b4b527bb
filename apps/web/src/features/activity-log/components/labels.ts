// Display names for the activity log's role, platform and action values, in the page's language.
import type { ActivityAction, RoleName } from '@farmland/contracts';
import { t } from '../../../i18n';
import { textMap } from '../../../lib/text-map';
import { activityText as m } from '../activity.messages';

const ROLE_LABELS = textMap<RoleName>({ super_admin: m.roleSuperAdmin, tenant_admin: m.roleTenantAdmin, agent: m.roleAgent });
const PLATFORM_LABELS: Record<string, string | undefined> = textMap({ web: m.web, mobile: m.mobile });
const ACTION_LABELS: Record<string, string | undefined> = textMap({ Create: m.create, Update: m.update });

export const roleLabel = (role: RoleName | null): string => (role ? ROLE_LABELS[role] : t(m.system));
/** SDK and API are the same in every language; an unknown platform shows as sent. */
export const platformLabel = (platform: string): string => PLATFORM_LABELS[platform] ?? (platform === 'sdk' ? 'SDK' : platform === 'api' ? 'API' : platform);
export const actionLabel = (action: ActivityAction | string): string => ACTION_LABELS[action] ?? action;
