// The tenant-admin frame: sidebar items of tenant-admin docs/requirements.md §2 in their order (Farmlands is /admin/mapping).
import { AppstoreOutlined, BarChartOutlined, EnvironmentOutlined, ExperimentOutlined, GatewayOutlined, HistoryOutlined, SettingOutlined, TeamOutlined, UserOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { useSession } from '../../lib/session-store';
import { ConsoleFrame, type NavItem } from './console-frame';

export const TENANT_NAV: NavItem[] = [
  { key: 'dashboard', label: 'Dashboard', icon: <AppstoreOutlined /> },
  { key: 'farmers', label: 'Farmers', icon: <TeamOutlined /> },
  { key: 'agents', label: 'Agents', icon: <UsergroupAddOutlined /> },
  { key: 'mapping', label: 'Farmlands', icon: <EnvironmentOutlined /> },
  { key: 'operational-areas', label: 'Operational Areas', icon: <GatewayOutlined /> },
  { key: 'reports', label: 'Reports', icon: <BarChartOutlined /> },
  { key: 'farm-analysis', label: 'Custom Farm Analysis', icon: <ExperimentOutlined /> },
  { key: 'configurations', label: 'Configurations', icon: <SettingOutlined /> },
  { key: 'activity-log', label: 'Activity Log', icon: <HistoryOutlined /> },
  { key: 'profile', label: 'Profile', icon: <UserOutlined /> },
];

export function TenantFrame() {
  const { user } = useSession();
  return <ConsoleFrame areaLabel={user?.tenant?.name ?? 'Admin'} basePath="/admin" items={TENANT_NAV} />;
}
