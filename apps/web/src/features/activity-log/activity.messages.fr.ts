// Texts of the Activity Log screen, in French.
import { translate } from '../../i18n';
import { activityText } from './activity.messages';

export default translate(activityText, {
  title: "Journal d'activité",
  details: "Détails de l'activité",
  user: 'Utilisateur',
  role: 'Rôle',
  action: 'Action',
  description: 'Description',
  platform: 'Plateforme',
  country: 'Pays',
  tenant: 'Organisation',
  date: 'Date',
  time: 'Heure',
  timestamp: 'Horodatage',
  dateRange: 'Période',
  create: 'Création',
  update: 'Modification',
  searchPlaceholder: 'Rechercher un utilisateur, une description, une action ou une plateforme',
  empty: 'Aucune activité ne correspond à votre recherche ou à vos filtres',
  roleSuperAdmin: 'Super administrateur',
  roleTenantAdmin: "Administrateur de l'organisation",
  roleAgent: 'Agent',
  system: 'Système',
  web: 'Web',
  mobile: 'Mobile',
});
