// The route table. Every page is its own chunk (React.lazy), so the sign-in route loads only what it shows;
// the two frames and their screens load after sign-in. Areas are guarded by role.
import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { PageLoader } from '../components/ui/page-loader';
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
const ComingSoonPage = lazy(async () => ({ default: (await import('./routes/coming-soon-page')).ComingSoonPage }));
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
const InFrameNotFound = named(() => import('./routes/not-found-page'), 'InFrameNotFound');

const page = (node: ReactNode) => <Suspense fallback={<PageLoader />}>{node}</Suspense>;
const soon = (title: string) => page(<ComingSoonPage title={title} />);

export function AppRoutes() {
  return (
    <TenantGateBoundary>
      <Routes>
        <Route path="/" element={page(<LoginPage />)} />
        <Route path="/login" element={page(<LoginPage />)} />
        <Route path="/forgot-password" element={page(<ForgotPasswordPage />)} />
        <Route path="/reset-password" element={page(<ResetPasswordPage />)} />
        <Route path="/onboarding" element={page(<OnboardingPage />)} />
        <Route path="/not-for-agents" element={page(<NotForAgentsPage />)} />

        <Route path="/super-admin" element={<RequireRole role="super_admin">{page(<ProviderFrame />)}</RequireRole>}>
          <Route index element={<Navigate to="dashboard" replace />} />
          <Route path="dashboard" element={page(<ProviderDashboardPage />)} />
          <Route path="tenant" element={page(<TenantsPage />)} />
          <Route path="tenant/:uuid" element={page(<TenantDetailsPage />)} />
          <Route path="license" element={page(<LicensesPage />)} />
          <Route path="farmlands" element={page(<ProviderFarmlandsPage />)} />
          <Route path="reports" element={page(<ReportsPage />)} />
          <Route path="activity-log" element={page(<ActivityLogPage />)} />
          <Route path="profile" element={page(<ProfilePage />)} />
          <Route path="*" element={page(<InFrameNotFound />)} />
        </Route>

        <Route path="/admin" element={<RequireRole role="tenant_admin">{page(<TenantFrame />)}</RequireRole>}>
          <Route index element={<Navigate to="dashboard" replace />} />
          <Route path="dashboard" element={page(<TenantDashboardPage />)} />
          <Route path="farmers" element={page(<FarmersPage />)} />
          <Route path="agents" element={page(<AgentsPage />)} />
          <Route path="mapping" element={page(<FarmlandsPage />)} />
          <Route path="operational-areas" element={page(<OperationalAreasPage />)} />
          <Route path="reports" element={soon('Reports')} />
          <Route path="farm-analysis" element={page(<FarmAnalysisPage />)} />
          <Route path="farm-analysis/:analysis" element={page(<FarmAnalysisResultPage />)} />
          <Route path="configurations" element={page(<ConfigurationsPage />)} />
          <Route path="activity-log" element={page(<ActivityLogPage />)} />
          <Route path="profile" element={page(<ProfilePage />)} />
          <Route path="*" element={page(<InFrameNotFound />)} />
        </Route>

        <Route path="*" element={page(<NotFoundPage />)} />
      </Routes>
    </TenantGateBoundary>
  );
}
