// /super-admin/farmlands: every tenant's farms, their totals and their map (?lat&lng).
import { ProviderFarmlandsScreen } from '../../features/provider-farmlands/components/provider-farmlands-screen';

export function ProviderFarmlandsPage() {
  return <ProviderFarmlandsScreen />;
}
