// Who may read and change a user account: themselves; provider staff any account; tenant admins the accounts of their
// tenant. A user the actor may not see is reported as missing (404), never as forbidden. Resetting an account is an
// administrator's act on someone else's account.
import { definePolicy } from '../../lib/policy.js';

export const accountsPolicy = definePolicy('accounts', {
  see: { who: ['super_admin', 'tenant_admin', 'agent'], reach: { agent: 'self' }, hidden: 'User' },
  edit: { who: ['super_admin', 'tenant_admin', 'agent'], reach: { agent: 'self' }, hidden: 'User' },
  /** One's own profile image: the account is the caller's, never named. */
  'edit-own': { who: ['super_admin', 'tenant_admin', 'agent'] },
  reset: { who: ['super_admin', 'tenant_admin'], hidden: 'User', notSelf: 'You cannot reset your own account. Use change password instead.' },
});
