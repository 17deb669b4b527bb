// /admin/farmers: the Farmer's List screen (drawers follow ?farmer_id, view, lat, lng and farm_id).
import { FarmersScreen } from '../../features/farmers/components/farmers-screen';

export function FarmersPage() {
  return <FarmersScreen />;
}
