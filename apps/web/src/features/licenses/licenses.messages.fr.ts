// The provider's licenses list, in French.
import { translate } from '../../i18n';
import { licensesText } from './licenses.messages';

export default translate(licensesText, {
  title: 'Toutes les licences',
  status: 'Statut',
  statusActive: 'Active',
  statusExpired: 'Expirée',
  statusRevoked: 'Révoquée',
  type: 'Type',
  typePlatform: 'Plateforme',
  typeSdk: 'SDK',
  issuedDate: "Date d'émission",
  revokeTitle: 'Révoquer la licence',
  revoke: 'Révoquer',
  reissueTitle: 'Renouveler la licence',
  reissue: 'Renouveler',
  tenant: 'Organisation',
  keyHint: 'Indice de clé',
  issued: 'Émise le',
  expires: 'Expire le',
  price: 'Prix',
  revokeLicense: 'Révoquer la licence',
  reissueLicense: 'Renouveler la licence',
  rotateKey: 'Changer la clé',
  viewTenant: "Voir l'organisation",
  actionsFor: 'Actions pour la licence de {tenant}',
  searchPlaceholder: 'Rechercher par organisation ou clé',
  noMatch: 'Aucune licence ne correspond à votre recherche ou à vos filtres',
  empty: "Aucune licence pour l'instant",
  reissueQuestion: 'Renouveler la licence SDK de {tenant} ? Elle est prolongée d’un an (elle expire actuellement le {date}).',
  revokeQuestion: 'Révoquer la licence {type} de {tenant} ? Une licence révoquée empêche l’organisation d’agir sur la plateforme.',
});
