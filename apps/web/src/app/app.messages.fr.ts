// Texts of the app shell, in French.
import { translate } from '../i18n';
import { appText } from './app.messages';

export default translate(appText, {
  restoringSession: 'Restauration de votre session',
  signingIn: 'Connexion en cours',
  comingSoon: 'Cet écran sera bientôt disponible.',
  configurations: 'Paramètres',
  dashboard: 'Tableau de bord',
  notForAgents: "Cette console n'est pas destinée aux agents de terrain.",
  fieldAgentAccount: 'Compte agent de terrain',
  notForAgentsBody:
    "Les agents relèvent les limites des parcelles avec l'application mobile ou l'application de leur organisation. Demandez à votre administrateur si vous avez besoin d'accéder à la console.",
  backToSignIn: 'Retour à la connexion',
  pageNotFound: 'Page introuvable',
  pageNotFoundBody: "La page que vous cherchez n'existe pas ou a été déplacée.",
  backToDashboard: 'Retour au tableau de bord',
  gateInactive: 'Votre organisation est inactive',
  gateSuspended: 'Votre organisation est suspendue',
  gateRevoked: 'La licence de votre organisation a été révoquée',
  gateExpired: 'La licence de votre organisation a expiré',
});
