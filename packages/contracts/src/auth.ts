// Sign-in, two-factor, session tokens, password reset, admin link login and tenant-admin onboarding.
import { z } from 'zod';
import { roleName, text, uuid } from './common.js';

/** Device sign-in (the field app, agents only): a long session; docs/decisions/0062-field-app-device-session.md. */
const device = z.boolean('device must be true or false').optional();

/** Opaque tokens the API issued (sign-in challenges, refresh tokens): never longer than this. */
const token = text().min(1).max(2000);
const email = z
  .email()
  .max(254)
  .transform((v) => v.toLowerCase());
/**
 * New passwords: at least 12 characters (NIST SP 800-63B allows 8 behind a second factor; 12 because an offline guess
 * against a leaked hash does not meet the second factor), at most 256. The API also refuses the 49,000 most common ones.
 */
export const MIN_PASSWORD_LENGTH = 12;
const password = text().min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`).max(256);
export const totpCode = text().regex(/^\d{6}$/, 'Enter the 6-digit code');

export const loginBody = z.object({ email, password: text().min(1).max(256) });

/** What /auth/login/ answers: either a two-factor challenge, or an enrolment step for users without two-factor. */
export const loginResult = z.object({
  mfa_required: z.boolean(),
  mfa_setup_required: z.boolean(),
  mfa_token: z.string(),
  user_token: z.string(),
});

export const setupMfaBody = z.object({ mfa_token: token, user_token: token });
export const setupMfaResult = z.object({ secret: z.string(), otpauth_url: z.string(), issuer: z.string(), account: z.string() });
export const confirmMfaBody = setupMfaBody.extend({ code: totpCode, device });

export const loginConfirmBody = z.object({
  mfa_token: token,
  user_token: token,
  code: totpCode,
  device,
});

export const tenantSummary = z.object({ id: uuid, uuid: uuid, name: z.string() }).nullable();

export const sessionUser = z.object({
  id: uuid,
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  image: z.string().nullable(),
  roles: z.array(roleName),
  tenant: tenantSummary,
});
export type SessionUser = z.infer<typeof sessionUser>;

export const sessionResult = z.object({
  user: sessionUser,
  access: z.string(),
  refresh: z.string(),
  /** When the session ends at the latest (a device session: 30 days by default; docs/decisions/0062-field-app-device-session.md). */
  session_expires_at: z.string().optional(),
  /** A device session (signed in with device: true). */
  device: z.boolean().optional(),
});
export type SessionResult = z.infer<typeof sessionResult>;

export const refreshBody = z.object({ refresh: token.optional() });
export const refreshResult = z.object({ access: z.string(), refresh: z.string() });

export const logoutBody = z.object({ refresh: token.optional() });

export const adminLoginBody = z.object({ request_id: text().min(1).max(100) });

export const passwordUpdateBody = z.object({ old_password: text().min(1).max(256), new_password: password });
export const passwordResetBody = z.object({ email });
export const confirmResetTokenBody = z.object({ token: text().min(1).max(200) });
export const setNewPasswordBody = z.object({ token: text().min(1).max(200), password });

export const onboardingQuery = z.object({ signed_key: text().min(1).max(500) });
export const onboardingBody = z.object({ password, first_name: text().trim().min(1).max(100).optional(), last_name: text().trim().min(1).max(100).optional() });
