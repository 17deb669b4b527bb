// Texts of lib/, in French.
import { translate } from '../i18n';
import { libText } from './lib.messages';

export default translate(libText, {
  somethingWentWrong: "Une erreur s'est produite",
  networkError: 'Erreur réseau',
  requestFailed: 'La requête a échoué (statut {status})',
  organisationBlocked: "L'accès à cette organisation est bloqué.",
  pageNotFoundToast: "Page introuvable, veuillez contacter l'administrateur du site",
  licenseRevoked: 'Licence révoquée avec succès',
  licenseReissued: 'Licence réémise avec succès',
  licenseKeyRotated: 'Clé de licence renouvelée avec succès',
  statusRevoked: 'Révoquée',
  statusExpired: 'Expirée',
  statusActive: 'Active',
});
