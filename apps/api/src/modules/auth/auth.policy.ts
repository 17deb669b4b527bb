// Who may act on sessions and credentials once signed in (signing in itself is public, and the tenant gate is no policy
// here: plugins/auth.ts applies it to every session). Anyone signed in ends their own session and changes their own
// password. Two-factor reset: provider staff anyone's, tenant admins their tenant's users' (their own included); a user
// out of reach is reported as missing (404).
import { definePolicy } from '../../lib/policy.js';

export const authPolicy = definePolicy('auth', {
  'sign-out': { who: ['super_admin', 'tenant_admin', 'agent'] },
  'change-password': { who: ['super_admin', 'tenant_admin', 'agent'] },
  'reset-mfa': { who: ['super_admin', 'tenant_admin'], hidden: 'User' },
});
