// Texts of lib/: the API client's and the notifier's fixed messages, and the license actions' toasts.
import { defineMessages } from '../i18n';

export const libText = defineMessages('lib', {
  somethingWentWrong: 'Something went wrong',
  networkError: 'Network error',
  requestFailed: 'Request failed with status {status}',
  organisationBlocked: 'Access to this organisation is blocked.',
  pageNotFoundToast: 'Page not found, Please contact the site administrator',
  licenseRevoked: 'License revoked successfully',
  licenseReissued: 'License reissued successfully',
  licenseKeyRotated: 'License key rotated successfully',
  statusRevoked: 'Revoked',
  statusExpired: 'Expired',
  statusActive: 'Active',
});
