// The tenant-admin frame: sidebar items of tenant-admin docs/requirements.md §2 in their order (Farmlands is /admin/mapping).
import {
  AppstoreOutlined,
  BarChartOutlined,
  EnvironmentOutlined,
  ExperimentOutlined,
  GatewayOutlined,
  GlobalOutlined,
  HistoryOutlined,
  SettingOutlined,
  TeamOutlined,
  UserOutlined,
  UsergroupAddOutlined,
} from '@ant-design/icons';
import { useSession } from '../../lib/session-store';
import { ConsoleFrame, type NavItem } from './console-frame';
import { TENANT_BASE, TENANT_SECTIONS } from '../../lib/paths';
import { t } from '../../i18n';
import { layoutText as m } from './layout.messages';

/** The sidebar's items, labelled in the page's language. */
export const tenantNav = (): NavItem[] => [
  { key: TENANT_SECTIONS.dashboard, label: t(m.navDashboard), icon: <AppstoreOutlined /> },
  { key: TENANT_SECTIONS.farmers, label: t(m.navFarmers), icon: <TeamOutlined /> },
  { key: TENANT_SECTIONS.agents, label: t(m.navAgents), icon: <UsergroupAddOutlined /> },
  { key: TENANT_SECTIONS.farmlands, label: t(m.navFarmlands), icon: <EnvironmentOutlined /> },
  { key: TENANT_SECTIONS.operationalAreas, label: t(m.navOperationalAreas), icon: <GatewayOutlined /> },
  { key: TENANT_SECTIONS.reports, label: t(m.navReports), icon: <BarChartOutlined /> },
  { key: TENANT_SECTIONS.referenceLayers, label: t(m.navReferenceLayers), icon: <GlobalOutlined /> },
  { key: TENANT_SECTIONS.farmAnalysis, label: t(m.navFarmAnalysis), icon: <ExperimentOutlined /> },
  { key: TENANT_SECTIONS.configurations, label: t(m.navConfigurations), icon: <SettingOutlined /> },
  { key: TENANT_SECTIONS.activityLog, label: t(m.navActivityLog), icon: <HistoryOutlined /> },
  { key: TENANT_SECTIONS.profile, label: t(m.navProfile), icon: <UserOutlined /> },
];

export function TenantFrame() {
  const { user } = useSession();
  return <ConsoleFrame areaLabel={user?.tenant?.name ?? t(m.admin)} basePath={TENANT_BASE} items={tenantNav()} />;
}
