// /super-admin/license: every tenant's licenses.
import { LicensesList } from '../../features/licenses/components/licenses-list';

export function LicensesPage() {
  return <LicensesList />;
}
