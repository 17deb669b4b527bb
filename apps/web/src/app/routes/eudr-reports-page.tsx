// /admin/reports: the tenant's EUDR readiness (issue 29).
import { EudrReportsScreen } from '../../features/eudr-reports/components/eudr-reports-screen';

export function EudrReportsPage() {
  return <EudrReportsScreen />;
}
