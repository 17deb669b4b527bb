// /admin/mapping: the Farmlands screen (table, combined and map views).
import { FarmlandsScreen } from '../../features/farmlands/components/farmlands-screen';

export function FarmlandsPage() {
  return <FarmlandsScreen />;
}
