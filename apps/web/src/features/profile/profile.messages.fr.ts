// Profile, in French.
import { translate } from '../../i18n';
import { profileText } from './profile.messages';

export default translate(profileText, {
  title: 'Profil',
  loadFailed: "Votre profil n'a pas pu être chargé.",
  tryAgain: 'Réessayer',
  photoOf: 'Photo de {name}',
  changePhoto: 'Changer de photo',
  email: 'E-mail',
  phone: 'Numéro de téléphone',
  gender: 'Genre',
  role: 'Rôle',
  roleSuperAdmin: 'Super administrateur',
  roleTenantAdmin: "Administrateur de l'organisation",
  roleAgent: 'Agent',
  organisation: 'Organisation',
  serviceProvider: 'Fournisseur de services',
  twoFactor: 'Double authentification',
  twoFactorEnabled: 'Activée',
  twoFactorNotSetUp: 'Non configurée',
  lastSignIn: 'Dernière connexion',
  memberSince: 'Membre depuis',
  language: 'Langue',
  languageHint: 'Mémorisée sur cet appareil.',
  editProfile: 'Modifier le profil',
  changePassword: 'Changer le mot de passe',
  resetTwoFactor: 'Réinitialiser la double authentification',
  resetTwoFactorTitle: 'Réinitialiser la double authentification',
  reset: 'Réinitialiser',
  resetTwoFactorBody:
    "Votre application d'authentification ne fonctionnera plus pour ce compte. Vous configurerez à nouveau la double authentification à votre prochaine connexion, et vos autres sessions seront fermées.",
});
