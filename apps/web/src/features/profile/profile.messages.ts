// The Profile screen's texts (English; French in profile.messages.fr.ts).
import { defineMessages } from '../../i18n';

export const profileText = defineMessages('profile', {
  title: 'Profile',
  loadFailed: 'Your profile could not be loaded.',
  tryAgain: 'Try again',
  photoOf: 'Photo of {name}',
  changePhoto: 'Change photo',
  email: 'Email',
  phone: 'Phone number',
  gender: 'Gender',
  role: 'Role',
  roleSuperAdmin: 'Super admin',
  roleTenantAdmin: 'Tenant admin',
  roleAgent: 'Agent',
  organisation: 'Organisation',
  serviceProvider: 'Service provider',
  twoFactor: 'Two-factor',
  twoFactorEnabled: 'Enabled',
  twoFactorNotSetUp: 'Not set up',
  lastSignIn: 'Last sign-in',
  memberSince: 'Member since',
  language: 'Language',
  languageHint: 'Remembered on this device.',
  editProfile: 'Edit profile',
  changePassword: 'Change password',
  resetTwoFactor: 'Reset two-factor',
  resetTwoFactorTitle: 'Reset two-factor authentication',
  reset: 'Reset',
  resetTwoFactorBody:
    'Your authenticator app will no longer work for this account. You will set up two-factor again the next time you sign in, and your other sessions will end.',
});

/** Each language's name in its own language, so anyone can find theirs. */
export const languageNames = { en: 'English', fr: 'Français' } as const;
