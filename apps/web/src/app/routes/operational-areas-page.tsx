// /admin/operational-areas: the areas on a map beside their list, with the drawing modal.
import { OperationalAreasScreen } from '../../features/operational-areas/components/operational-areas-screen';

export function OperationalAreasPage() {
  return <OperationalAreasScreen />;
}
