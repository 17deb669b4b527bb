// Sign-in routes (docs/requirements.md §2, §7 Authentication). The console's refresh token travels in an httpOnly, Secure, SameSite=Strict cookie;
// API clients may send it in the body instead.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminLoginBody,
  confirmMfaBody,
  confirmResetTokenBody,
  envelope,
  idParam,
  loginBody,
  loginConfirmBody,
  loginResult,
  logoutBody,
  messageOnly,
  onboardingBody,
  onboardingQuery,
  passwordResetBody,
  passwordUpdateBody,
  refreshBody,
  refreshResult,
  sessionResult,
  setNewPasswordBody,
  setupMfaBody,
  setupMfaResult,
} from '@farmland/contracts';
import type { Deps } from '../../context.js';
import { isInternalCaller } from '../../lib/instance-lock.js';
import { gate } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { authPolicy } from './auth.policy.js';
import * as auth from './auth.service.js';

export const REFRESH_COOKIE = 'farmland_refresh';

/** The refresh cookie lives as long as its session (a device session's is longer: DEVICE_SESSION_TTL_DAYS). */
function setRefreshCookie(reply: FastifyReply, deps: Deps, token: string, sessionExpiresAt?: Date | string): void {
  const until = sessionExpiresAt ? new Date(sessionExpiresAt).getTime() : NaN;
  reply.setCookie(REFRESH_COOKIE, token, {
    httpOnly: true,
    secure: deps.config.cookieSecure,
    sameSite: 'strict',
    path: '/api/auth',
    maxAge: Number.isFinite(until) ? Math.max(0, Math.ceil((until - Date.now()) / 1000)) : deps.config.jwt.refreshTtl,
  });
}

const clearRefreshCookie = (reply: FastifyReply, deps: Deps) =>
  reply.clearCookie(REFRESH_COOKIE, { path: '/api/auth', httpOnly: true, secure: deps.config.cookieSecure, sameSite: 'strict' });

const tags = ['auth'];
const pub = { access: 'public' } as const;
const messageResponse = { 200: messageOnly };

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.post('/auth/login/', {
    config: pub,
    schema: {
      tags,
      security: [],
      summary: 'Check email and password; answers a two-factor challenge (or an enrolment step)',
      body: loginBody,
      response: { 200: envelope(loginResult) },
    },
    handler: async (req) => {
      const data = await auth.login(deps, req.ctx, req.body);
      return { data, message: data.mfa_setup_required ? 'Set up two-factor authentication to continue' : 'Enter the code from your authenticator app' };
    },
  });

  app.post('/auth/setup-mfa/', {
    config: pub,
    schema: {
      tags,
      security: [],
      summary: 'Start two-factor enrolment: returns the TOTP secret and an otpauth URI for a QR code',
      body: setupMfaBody,
      response: { 200: envelope(setupMfaResult) },
    },
    handler: async (req) => ({ data: await auth.setupMfa(deps, req.ctx, req.body) }),
  });

  app.post('/auth/confirm-mfa/', {
    config: pub,
    schema: {
      tags,
      security: [],
      summary: 'Confirm enrolment with a first code; signs the user in',
      body: confirmMfaBody,
      response: { 200: envelope(sessionResult) },
    },
    handler: async (req, reply) => {
      const data = await auth.confirmMfa(deps, req.ctx, req.body);
      setRefreshCookie(reply, deps, data.refresh, data.session_expires_at);
      return { data, message: 'Login successful' };
    },
  });

  app.post('/auth/login/confirm', {
    config: pub,
    schema: {
      tags,
      security: [],
      summary:
        'Second factor: mfa_token, user_token and the 6-digit code; returns the session (device: true, agents only: a device session for the field app, DEVICE_SESSION_TTL_DAYS long)',
      body: loginConfirmBody,
      response: { 200: envelope(sessionResult) },
    },
    handler: async (req, reply) => {
      const data = await auth.loginConfirm(deps, req.ctx, req.body);
      setRefreshCookie(reply, deps, data.refresh, data.session_expires_at);
      return { data, message: 'Login successful' };
    },
  });

  app.post('/auth/token/refresh/', {
    config: pub,
    schema: {
      tags,
      security: [],
      summary:
        'Rotate the refresh token (body or cookie). A rotated token presented again within REFRESH_REUSE_INTERVAL_SECONDS (30 s) gets the same successor; after that, reusing it revokes its whole session.',
      body: refreshBody.optional(),
      response: { 200: envelope(refreshResult) },
    },
    handler: async (req, reply) => {
      const token = req.body?.refresh ?? req.cookies[REFRESH_COOKIE];
      try {
        const { expiresAt, ...data } = await auth.refreshTokens(deps, req.ctx, token);
        setRefreshCookie(reply, deps, data.refresh, expiresAt);
        return { data };
      } catch (err) {
        clearRefreshCookie(reply, deps);
        throw err;
      }
    },
  });

  app.post('/auth/logout/', {
    config: gate(authPolicy, 'sign-out'),
    schema: { tags, summary: 'End the current session', body: logoutBody.optional(), response: messageResponse },
    handler: async (req, reply) => {
      await auth.logout(deps, req.ctx);
      clearRefreshCookie(reply, deps);
      return { message: 'Logged out successfully' };
    },
  });

  app.post('/auth/admin-login/', {
    config: pub,
    schema: {
      tags,
      security: [],
      summary: 'Sign in once through an admin link (npm run admin-link)',
      body: adminLoginBody,
      response: { 200: envelope(sessionResult) },
    },
    handler: async (req, reply) => {
      const data = await auth.adminLogin(deps, req.ctx, req.body.request_id);
      setRefreshCookie(reply, deps, data.refresh);
      return { data, message: 'Login successful' };
    },
  });

  app.post('/auth/:id/reset-mfa/', {
    config: gate(authPolicy, 'reset-mfa'),
    schema: {
      tags,
      summary: "Reset a user's two-factor authentication; they enrol again at next sign-in",
      params: idParam,
      body: z.object({}).optional(),
      response: messageResponse,
    },
    handler: async (req) => {
      await auth.resetMfa(deps, req.ctx, req.params.id);
      return { message: 'Two-factor authentication reset successfully' };
    },
  });

  app.post('/auth/password/update/', {
    config: gate(authPolicy, 'change-password'),
    schema: { tags, summary: 'Change the password (ends the other sessions)', body: passwordUpdateBody, response: messageResponse },
    handler: async (req) => {
      await auth.updatePassword(deps, req.ctx, req.body);
      return { message: 'Password updated successfully' };
    },
  });

  app.post('/auth/password/reset/', {
    config: pub,
    schema: { tags, security: [], summary: 'Mail a single-use reset link valid for one hour', body: passwordResetBody, response: messageResponse },
    handler: async (req) => {
      await auth.requestPasswordReset(deps, req.ctx, req.body.email);
      return { message: 'If an account exists for this email, a password reset link has been sent to it' };
    },
  });

  app.post('/auth/password/confirm-reset-token/', {
    config: pub,
    schema: { tags, security: [], summary: 'Check that a reset token is still valid', body: confirmResetTokenBody, response: messageResponse },
    handler: async (req) => {
      await auth.confirmResetToken(deps, req.ctx, req.body.token);
      return { message: 'Token is valid' };
    },
  });

  app.post('/auth/password/set-new-password/', {
    config: pub,
    schema: {
      tags,
      security: [],
      summary: 'Set a new password with a reset token (single use; ends every session)',
      body: setNewPasswordBody,
      response: messageResponse,
    },
    handler: async (req) => {
      await auth.setNewPassword(deps, req.ctx, req.body);
      return { message: 'Password reset successfully' };
    },
  });

  app.post('/onboarding/tenant-admin/', {
    config: pub,
    schema: {
      tags,
      security: [],
      summary: 'A newly invited tenant admin sets a password from the signed invitation key',
      querystring: onboardingQuery,
      body: onboardingBody,
      response: messageResponse,
    },
    handler: async (req) => {
      await auth.acceptInvitation(deps, req.ctx, req.query.signed_key, req.body);
      return { message: 'Account set up successfully. You can now sign in' };
    },
  });

  // Used by `npm run admin-link` while the embedded server owns the database: loopback only, with the internal key.
  app.post('/internal/admin-links/', {
    config: pub,
    schema: { hide: true, body: z.object({ email: z.email().max(254) }), response: { 200: envelope(z.object({ url: z.string() })) } },
    handler: async (req) => {
      if (!isInternalCaller(req.socket.remoteAddress, deps.keys.signing, req.headers['x-internal-key'])) throw problems.notFound('Route');
      return { data: { url: await auth.createAdminLink(deps, req.body.email) } };
    },
  });
};
