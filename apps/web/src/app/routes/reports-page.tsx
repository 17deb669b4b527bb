// /super-admin/reports: each tenant's mapping progress.
import { ReportsScreen } from '../../features/reports/components/reports-screen';

export function ReportsPage() {
  return <ReportsScreen />;
}
