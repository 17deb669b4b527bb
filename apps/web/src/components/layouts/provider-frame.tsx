// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The provider (super-admin) frame: sidebar items of docs/requirements.md §2 in their order.
import { AppstoreOutlined, BankOutlined, BarChartOutlined, EnvironmentOutlined, GlobalOutlined, HistoryOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { ConsoleFrame, type NavItem } from './console-frame';
import { PROVIDER_BASE, PROVIDER_SECTIONS } from '../../lib/paths';

export const PROVIDER_NAV: NavItem[] = [
  { key: PROVIDER_SECTIONS.dashboard, label: 'Dashboard', icon: <AppstoreOutlined /> },
  { key: PROVIDER_SECTIONS.tenants, label: 'Tenant', icon: <BankOutlined /> },
  { key: PROVIDER_SECTIONS.licenses, label: 'License', icon: <SafetyCertificateOutlined /> },
  { key: PROVIDER_SECTIONS.farmlands, label: 'Farmlands', icon: <EnvironmentOutlined /> },
  { key: PROVIDER_SECTIONS.reports, label: 'Reports', icon: <BarChartOutlined /> },
  { key: PROVIDER_SECTIONS.referenceLayers, label: 'Reference Layers', icon: <GlobalOutlined /> },
  { key: PROVIDER_SECTIONS.activityLog, label: 'Activity Log', icon: <HistoryOutlined /> },
  { key: PROVIDER_SECTIONS.profile, label: 'Profile', icon: <UserOutlined /> },
];

export function ProviderFrame() {
  return <ConsoleFrame areaLabel="Super Admin" basePath={PROVIDER_BASE} items={PROVIDER_NAV} />;
}
