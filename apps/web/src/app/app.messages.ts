// Texts of the app shell and its route pages (app/): sign-in landing, not-found, the tenant gate, guards.
import { defineMessages } from '../i18n';

export const appText = defineMessages('app', {
  restoringSession: 'Restoring your session',
  signingIn: 'Signing you in',
  comingSoon: 'This screen is coming soon.',
  configurations: 'Configurations',
  dashboard: 'Dashboard',
  notForAgents: 'This console is not for field agents.',
  fieldAgentAccount: 'Field agent account',
  notForAgentsBody: "Agents capture farm boundaries with the mobile app or their organisation's own app. Ask your administrator if you need console access.",
  backToSignIn: 'Back to sign in',
  pageNotFound: 'Page not found',
  pageNotFoundBody: 'The page you are looking for does not exist or has moved.',
  backToDashboard: 'Back to dashboard',
  gateInactive: 'Your organisation is inactive',
  gateSuspended: 'Your organisation is suspended',
  gateRevoked: "Your organisation's license has been revoked",
  gateExpired: "Your organisation's license has expired",
});
