// The route table. Every page is its own chunk (React.lazy), so the sign-in route loads only what it shows;
// the two frames and their screens load after sign-in. Areas are guarded by role.
import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { PageLoader } from '../components/ui/page-loader';
import { DUE_DILIGENCE_SEGMENT, paths, PROVIDER_BASE, PROVIDER_SECTIONS, TENANT_BASE, TENANT_SECTIONS } from '../lib/paths';
import { RequireRole } from './require-role';
import { TenantGateBoundary } from './tenant-gate-boundary';

const named = <K extends string, M extends Record<K, React.ComponentType>>(load: () => Promise<M>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

const LoginPage = named(() => import('./routes/login-page'), 'LoginPage');
const ForgotPasswordPage = named(() => import('./routes/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = named(() => import('./routes/reset-password-page'), 'ResetPasswordPage');
const OnboardingPage = named(() => import('./routes/onboarding-page'), 'OnboardingPage');
const NotForAgentsPage = named(() => import('./routes/not-for-agents-page'), 'NotForAgentsPage');
const NotFoundPage = named(() => import('./routes/not-found-page'), 'NotFoundPage');
const ProviderFrame = named(() => import('../components/layouts/provider-frame'), 'ProviderFrame');
const TenantFrame = named(() => import('../components/layouts/tenant-frame'), 'TenantFrame');
const ActivityLogPage = named(() => import('./routes/activity-log-page'), 'ActivityLogPage');
const ProfilePage = named(() => import('./routes/profile-page'), 'ProfilePage');
const FarmAnalysisPage = named(() => import('./routes/farm-analysis-page'), 'FarmAnalysisPage');
const FarmAnalysisResultPage = named(() => import('./routes/farm-analysis-result-page'), 'FarmAnalysisResultPage');
const TenantDashboardPage = named(() => import('./routes/tenant-dashboard-page'), 'TenantDashboardPage');
const ConfigurationsPage = named(() => import('./routes/configurations-page'), 'ConfigurationsPage');
const FarmlandsPage = named(() => import('./routes/farmlands-page'), 'FarmlandsPage');
const FarmersPage = named(() => import('./routes/farmers-page'), 'FarmersPage');
const AgentsPage = named(() => import('./routes/agents-page'), 'AgentsPage');
const OperationalAreasPage = named(() => import('./routes/operational-areas-page'), 'OperationalAreasPage');
const TenantsPage = named(() => import('./routes/tenants-page'), 'TenantsPage');
const TenantDetailsPage = named(() => import('./routes/tenant-details-page'), 'TenantDetailsPage');
const ProviderFarmlandsPage = named(() => import('./routes/provider-farmlands-page'), 'ProviderFarmlandsPage');
const LicensesPage = named(() => import('./routes/licenses-page'), 'LicensesPage');
const ProviderDashboardPage = named(() => import('./routes/provider-dashboard-page'), 'ProviderDashboardPage');
const ReportsPage = named(() => import('./routes/reports-page'), 'ReportsPage');
const TenantReferenceLayersPage = named(() => import('./routes/reference-layers-page'), 'TenantReferenceLayersPage');
const ProviderReferenceLayersPage = named(() => import('./routes/reference-layers-page'), 'ProviderReferenceLayersPage');
const EudrReportsPage = named(() => import('./routes/eudr-reports-page'), 'EudrReportsPage');
const DueDiligencePage = named(() => import('./routes/due-diligence-page'), 'DueDiligencePage');
const InFrameNotFound = named(() => import('./routes/not-found-page'), 'InFrameNotFound');

const page = (node: ReactNode) => <Suspense fallback={<PageLoader />}>{node}</Suspense>;

export function AppRoutes() {
  return (
    <TenantGateBoundary>
      <Routes>
        <Route path={paths.home} element={page(<LoginPage />)} />
        <Route path={paths.login} element={page(<LoginPage />)} />
        <Route path={paths.forgotPassword} element={page(<ForgotPasswordPage />)} />
        <Route path={paths.resetPassword} element={page(<ResetPasswordPage />)} />
        <Route path={paths.onboarding} element={page(<OnboardingPage />)} />
        <Route path={paths.notForAgents} element={page(<NotForAgentsPage />)} />

        <Route path={PROVIDER_BASE} element={<RequireRole role="super_admin">{page(<ProviderFrame />)}</RequireRole>}>
          <Route index element={<Navigate to={PROVIDER_SECTIONS.dashboard} replace />} />
          <Route path={PROVIDER_SECTIONS.dashboard} element={page(<ProviderDashboardPage />)} />
          <Route path={PROVIDER_SECTIONS.tenants} element={page(<TenantsPage />)} />
          <Route path={`${PROVIDER_SECTIONS.tenants}/:uuid`} element={page(<TenantDetailsPage />)} />
          <Route path={PROVIDER_SECTIONS.licenses} element={page(<LicensesPage />)} />
          <Route path={PROVIDER_SECTIONS.farmlands} element={page(<ProviderFarmlandsPage />)} />
          <Route path={PROVIDER_SECTIONS.reports} element={page(<ReportsPage />)} />
          <Route path={PROVIDER_SECTIONS.referenceLayers} element={page(<ProviderReferenceLayersPage />)} />
          <Route path={PROVIDER_SECTIONS.activityLog} element={page(<ActivityLogPage />)} />
          <Route path={PROVIDER_SECTIONS.profile} element={page(<ProfilePage />)} />
          <Route path="*" element={page(<InFrameNotFound />)} />
        </Route>

        <Route path={TENANT_BASE} element={<RequireRole role="tenant_admin">{page(<TenantFrame />)}</RequireRole>}>
          <Route index element={<Navigate to={TENANT_SECTIONS.dashboard} replace />} />
          <Route path={TENANT_SECTIONS.dashboard} element={page(<TenantDashboardPage />)} />
          <Route path={TENANT_SECTIONS.farmers} element={page(<FarmersPage />)} />
          <Route path={TENANT_SECTIONS.agents} element={page(<AgentsPage />)} />
          <Route path={TENANT_SECTIONS.farmlands} element={page(<FarmlandsPage />)} />
          <Route path={TENANT_SECTIONS.operationalAreas} element={page(<OperationalAreasPage />)} />
          <Route path={TENANT_SECTIONS.reports} element={page(<EudrReportsPage />)} />
          <Route path={`${TENANT_SECTIONS.reports}/${DUE_DILIGENCE_SEGMENT}`} element={page(<DueDiligencePage />)} />
          <Route path={TENANT_SECTIONS.referenceLayers} element={page(<TenantReferenceLayersPage />)} />
          <Route path={TENANT_SECTIONS.farmAnalysis} element={page(<FarmAnalysisPage />)} />
          <Route path={`${TENANT_SECTIONS.farmAnalysis}/:analysis`} element={page(<FarmAnalysisResultPage />)} />
          <Route path={TENANT_SECTIONS.configurations} element={page(<ConfigurationsPage />)} />
          <Route path={TENANT_SECTIONS.activityLog} element={page(<ActivityLogPage />)} />
          <Route path={TENANT_SECTIONS.profile} element={page(<ProfilePage />)} />
          <Route path="*" element={page(<InFrameNotFound />)} />
        </Route>

        <Route path="*" element={page(<NotFoundPage />)} />
      </Routes>
    </TenantGateBoundary>
  );
}
