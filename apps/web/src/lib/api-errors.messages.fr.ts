// The API's error texts, in French.
import { translate } from '../i18n';
import { apiErrorText } from './api-errors.messages';

export default translate(apiErrorText, {
  notAuthenticated: "Les informations d'authentification sont absentes ou ont expiré.",
  invalidCredentials: 'E-mail ou mot de passe incorrect.',
  accountSuspended: 'Ce compte a été suspendu. Contactez votre administrateur.',
  accountInactive: 'Ce compte a été désactivé. Contactez votre administrateur.',
  invalidMfaToken: 'Cette tentative de connexion a expiré. Veuillez vous reconnecter.',
  invalidMfaCode: 'Code invalide ou expiré.',
  invalidMfaCodeField: 'Code invalide ou expiré',
  mfaCodeReused: 'Ce code a déjà été utilisé. Attendez le code suivant.',
  mfaCodeReusedField: 'Ce code a déjà été utilisé. Attendez le code suivant',
  mfaAlreadyEnabled: 'La double authentification est déjà configurée pour ce compte.',
  mfaSetupRequired: "La double authentification n'est pas encore configurée pour ce compte.",
  refreshTokenInvalid: 'Votre session a expiré. Veuillez vous reconnecter.',
  idempotencyKeyReused: 'Cette clé Idempotency-Key a déjà servi pour une autre requête. Utilisez une nouvelle clé pour une nouvelle requête.',
  idempotencyKeyInProgress: 'Une requête avec cette clé Idempotency-Key est encore en cours de traitement. Réessayez dans un instant.',
  sessionRevoked: 'Cette session a été fermée. Veuillez vous reconnecter.',
  refreshTokenReused: 'Cette session a été fermée car son jeton de renouvellement a été utilisé deux fois. Veuillez vous reconnecter.',
  tooManyAttempts: 'Trop de tentatives échouées. Réessayez dans {minutes} minute(s).',
  analysisQueueFull:
    'Votre organisation a déjà {limit} analyses en attente de démarrage, le maximum autorisé à la fois. Téléversez celle-ci à nouveau quand certaines auront démarré.',
  invalidServiceProvider: 'Fournisseur de services invalide',
  noServiceProviderAccess: "Vous n'avez pas les droits d'accès à ce fournisseur de services",
  invalidResetToken: 'Ce lien de réinitialisation du mot de passe est invalide ou a expiré.',
  invalidResetTokenField: 'Ce lien est invalide ou a expiré',
  invalidInvitation: "Ce lien d'invitation est invalide ou a expiré.",
  invalidInvitationField: "Ce lien d'invitation est invalide ou a expiré",
  wrongPassword: 'old_password : le mot de passe actuel est incorrect',
  wrongPasswordField: 'Le mot de passe actuel est incorrect',
  forbidden: "Vous n'avez pas l'autorisation d'effectuer cette action.",
  tenantInactive: 'Votre organisation a été désactivée. Contactez votre fournisseur de services pour rétablir l’accès.',
  tenantSuspended: 'Votre organisation a été suspendue. Contactez votre fournisseur de services pour rétablir l’accès.',
  licenseRevoked: 'La licence de votre organisation a été révoquée. Contactez votre fournisseur de services pour rétablir l’accès.',
  licenseExpired: 'La licence de votre organisation a expiré. Contactez votre fournisseur de services pour la renouveler.',
  pageNotFound: 'Page introuvable.',
  farmerHasFarms:
    'Cet agriculteur a {count, plural, one {# parcelle} other {# parcelles}}. Supprimez d’abord les parcelles, ou supprimez à nouveau avec delete_farms=true pour retirer ensemble l’agriculteur et ses parcelles.',
  licenseNotReissuable:
    'Seules les licences SDK peuvent être réémises. Une licence Plateforme peut seulement être révoquée ; modifiez l’organisation pour changer ses dates.',
  licenseNotRotatable: 'Une licence révoquée n’a pas de clé en service à renouveler. Réémettez-la (SDK) ou modifiez d’abord l’organisation.',
  licenseSuperseded:
    'Cette licence a été remplacée par une plus récente (renouvellement de clé ou changement de type) ; agissez sur la licence actuelle de l’organisation.',
  transactionConflict:
    'Cette modification est entrée en conflit avec une autre modification des mêmes enregistrements au même moment, et rien n’a été enregistré. Réessayez.',
  payloadUnbound: 'Le corps chiffré doit porter iat (secondes) et jti (16 à 64 caractères base64url) dans son en-tête protégé.',
  payloadStale: "L'iat du corps chiffré s'écarte de plus de {seconds} s de l'horloge du serveur (voir l'en-tête Date de cette réponse). Chiffrez-le à nouveau.",
  payloadReplayed: 'Ce corps chiffré a déjà été reçu (son jti a déjà servi). Chiffrez chaque requête à nouveau.',
  payloadSessionMismatch:
    "Le corps chiffré a été créé pour une autre session : son ath doit être l'empreinte du jeton porteur de cette requête, et absent sans jeton.",
  payloadTooLarge: 'Le corps de la requête dépasse la limite de {limit} octets.',
  fileTooLarge: 'Le fichier dépasse la limite de {limit} octets',
  invalidJson: "Le corps de la requête n'est pas un JSON valide.",
  storageUnavailable:
    "Les fichiers ne peuvent pas être enregistrés ni lus pour le moment. Rien n'a été enregistré ; réessayez plus tard. L'erreur a été journalisée.",
  internalError: "Une erreur s'est produite de notre côté. L'erreur a été journalisée.",
  farmVanished: 'Cette parcelle a été découpée par une conservation antérieure et attend une vérification ; elle ne peut pas être conservée.',
  notOverlapping: 'Cette parcelle ne chevauche aucune autre parcelle.',
  layerLoading: 'Cette couche est encore en cours de chargement ; remplacez-la une fois le chargement terminé ou échoué.',
  queueUnavailable: "La couche a été enregistrée mais son chargement n'a pas pu être mis en file d'attente. Relancez le téléversement.",
  webhookDeliveryInProgress: "Cette livraison est en cours d'envoi ; relancez-la une fois cette tentative terminée.",
  webhookLimitReached: 'Une organisation peut enregistrer au plus {max} points de terminaison webhook. Supprimez-en un d’abord.',
  overloaded: "Le serveur est occupé et n'a pas traité cette requête. Réessayez après le délai indiqué dans Retry-After.",
  rateLimited: 'Trop de requêtes. Ralentissez et réessayez dans un instant.',
  requestTimeout: 'La requête a mis trop de temps à arriver. Réessayez.',
  invalidValue: "Une valeur de cette requête est hors limites ou mal formée, et n'a pas été enregistrée.",
});
