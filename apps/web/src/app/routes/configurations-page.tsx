// /admin/configurations: the tenant's configuration.
import { ConfigurationsForm } from '../../features/configurations/components/configurations-form';

export function ConfigurationsPage() {
  return <ConfigurationsForm />;
}
