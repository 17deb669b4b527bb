// The provider (super-admin) frame: sidebar items of docs/requirements.md §2 in their order.
import { AppstoreOutlined, BankOutlined, BarChartOutlined, EnvironmentOutlined, HistoryOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { ConsoleFrame, type NavItem } from './console-frame';

export const PROVIDER_NAV: NavItem[] = [
  { key: 'dashboard', label: 'Dashboard', icon: <AppstoreOutlined /> },
  { key: 'tenant', label: 'Tenant', icon: <BankOutlined /> },
  { key: 'license', label: 'License', icon: <SafetyCertificateOutlined /> },
  { key: 'farmlands', label: 'Farmlands', icon: <EnvironmentOutlined /> },
  { key: 'reports', label: 'Reports', icon: <BarChartOutlined /> },
  { key: 'activity-log', label: 'Activity Log', icon: <HistoryOutlined /> },
  { key: 'profile', label: 'Profile', icon: <UserOutlined /> },
];

export function ProviderFrame() {
  return <ConsoleFrame areaLabel="Super Admin" basePath="/super-admin" items={PROVIDER_NAV} />;
}
