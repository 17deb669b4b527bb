// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The tenant-admin frame: sidebar items of tenant-admin docs/requirements.md §2 in their order (Farmlands is /admin/mapping).
import { AppstoreOutlined, BarChartOutlined, EnvironmentOutlined, ExperimentOutlined, GatewayOutlined, GlobalOutlined, HistoryOutlined, SettingOutlined, TeamOutlined, UserOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { useSession } from '../../lib/session-store';
import { ConsoleFrame, type NavItem } from './console-frame';
import { TENANT_BASE, TENANT_SECTIONS } from '../../lib/paths';

export const TENANT_NAV: NavItem[] = [
  { key: TENANT_SECTIONS.dashboard, label: 'Dashboard', icon: <AppstoreOutlined /> },
  { key: TENANT_SECTIONS.farmers, label: 'Farmers', icon: <TeamOutlined /> },
  { key: TENANT_SECTIONS.agents, label: 'Agents', icon: <UsergroupAddOutlined /> },
  { key: TENANT_SECTIONS.farmlands, label: 'Farmlands', icon: <EnvironmentOutlined /> },
  { key: TENANT_SECTIONS.operationalAreas, label: 'Operational Areas', icon: <GatewayOutlined /> },
  { key: TENANT_SECTIONS.reports, label: 'Reports', icon: <BarChartOutlined /> },
  { key: TENANT_SECTIONS.referenceLayers, label: 'Reference Layers', icon: <GlobalOutlined /> },
  { key: TENANT_SECTIONS.farmAnalysis, label: 'Custom Farm Analysis', icon: <ExperimentOutlined /> },
  { key: TENANT_SECTIONS.configurations, label: 'Configurations', icon: <SettingOutlined /> },
  { key: TENANT_SECTIONS.activityLog, label: 'Activity Log', icon: <HistoryOutlined /> },
  { key: TENANT_SECTIONS.profile, label: 'Profile', icon: <UserOutlined /> },
];

export function TenantFrame() {
  const { user } = useSession();
  return <ConsoleFrame areaLabel={user?.tenant?.name ?? 'Admin'} basePath={TENANT_BASE} items={TENANT_NAV} />;
}
