// /admin/configurations: the tenant's configuration, under the page's level-one heading (the card's title shows it).
import { ConfigurationsForm } from '../../features/configurations/components/configurations-form';

export function ConfigurationsPage() {
  return (
    <>
      <h1 className="visually-hidden">Configurations</h1>
      <ConfigurationsForm />
    </>
  );
}
