// The provider's dashboard, in French.
import { translate } from '../../i18n';
import { providerDashboardText } from './provider-dashboard.messages';

export default translate(providerDashboardText, {
  countsFailed: "Certains décomptes n'ont pas pu être chargés",
  tryAgain: 'Réessayer',
  tenants: 'Organisations',
  activeTenants: 'Organisations actives',
  suspendedTenants: 'Organisations suspendues',
  inactiveTenants: 'Organisations inactives',
  licenses: 'Licences',
  activeLicenses: 'Licences actives',
  expiredLicenses: 'Licences expirées',
  revokedLicenses: 'Licences révoquées',
  agents: 'Agents',
  farms: 'Parcelles',
  operationalAreas: 'Zones opérationnelles',
  mappedFarms: 'Parcelles cartographiées',
  mappedFarmsNote: 'Producteurs ayant au moins une parcelle cartographiée',
  unmappedFarms: 'Parcelles non cartographiées',
  unmappedFarmsNote: "Producteurs sans parcelle cartographiée pour l'instant",
  farmsMapped: 'Parcelles cartographiées',
  tenantsRegistered: 'Organisations inscrites',
  mappingData: 'Données de cartographie',
  mappingFailed: "Les données de cartographie n'ont pas pu être chargées",
  farmsMappedIn: '{count, plural, one {<big>{n}</big> parcelle cartographiée en {year}} other {<big>{n}</big> parcelles cartographiées en {year}}}',
  areaMapped: '{area} cartographiés',
  tenantsRegisteredIn:
    '{count, plural, one {{n} organisation inscrite en {year}, {total} à la fin de l’année} other {{n} organisations inscrites en {year}, {total} à la fin de l’année}}',
  chartLabel: 'Parcelles cartographiées par mois en {year}',
  ranking: 'Classement des organisations',
  rankingFailed: "Le classement n'a pas pu être chargé",
  noFarmsIn: 'Aucune parcelle cartographiée en {year}',
  tenant: 'Organisation',
  area: 'Superficie',
  year: 'Année',
  dashboardYear: 'Année du tableau de bord',
});
