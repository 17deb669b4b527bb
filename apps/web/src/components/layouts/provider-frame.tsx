// The provider (super-admin) frame: sidebar items of docs/requirements.md §2 in their order.
import {
  AppstoreOutlined,
  BankOutlined,
  BarChartOutlined,
  EnvironmentOutlined,
  GlobalOutlined,
  HistoryOutlined,
  SafetyCertificateOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { ConsoleFrame, type NavItem } from './console-frame';
import { PROVIDER_BASE, PROVIDER_SECTIONS } from '../../lib/paths';
import { t } from '../../i18n';
import { layoutText as m } from './layout.messages';

/** The sidebar's items, labelled in the page's language. */
export const providerNav = (): NavItem[] => [
  { key: PROVIDER_SECTIONS.dashboard, label: t(m.navDashboard), icon: <AppstoreOutlined /> },
  { key: PROVIDER_SECTIONS.tenants, label: t(m.navTenant), icon: <BankOutlined /> },
  { key: PROVIDER_SECTIONS.licenses, label: t(m.navLicense), icon: <SafetyCertificateOutlined /> },
  { key: PROVIDER_SECTIONS.farmlands, label: t(m.navFarmlands), icon: <EnvironmentOutlined /> },
  { key: PROVIDER_SECTIONS.reports, label: t(m.navReports), icon: <BarChartOutlined /> },
  { key: PROVIDER_SECTIONS.referenceLayers, label: t(m.navReferenceLayers), icon: <GlobalOutlined /> },
  { key: PROVIDER_SECTIONS.activityLog, label: t(m.navActivityLog), icon: <HistoryOutlined /> },
  { key: PROVIDER_SECTIONS.profile, label: t(m.navProfile), icon: <UserOutlined /> },
];

export function ProviderFrame() {
  return <ConsoleFrame areaLabel={t(m.superAdmin)} basePath={PROVIDER_BASE} items={providerNav()} />;
}
