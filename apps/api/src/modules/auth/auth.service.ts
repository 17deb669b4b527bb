// Sign-in use cases: password, two-factor enrolment and confirmation, token rotation, logout, admin link login,
// password change and reset, and tenant-admin onboarding. Each runs in one transaction with its activity entry.
import type { SessionResult } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { requireActor } from '../../context.js';
import { withScope, type Tx } from '../../db/client.js';
import { decrypt, encrypt, randomToken, sha256, sign, successorToken, verifySigned } from '../../lib/crypto.js';
import { hashPassword, verifyPassword, assertUncommonPassword } from '../../lib/passwords.js';
import { authorizeRow } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { matchTotp, newTotpSecret, TOTP_ISSUER, totpUri } from '../../lib/totp.js';
import { recordActivity } from '../activity/activity.service.js';
import { queueMail } from '../mail/mail.service.js';
import { authPolicy } from './auth.policy.js';
import * as q from './auth.queries.js';
import { presentSessionUser } from './auth.presenter.js';
import { assertTenantGate } from './tenant-gate.js';
import {
  assertAddressAllowed,
  assertCodeAttemptAllowed,
  assertNotThrottled,
  countAddress,
  CODE_SLOWDOWN_AFTER,
  recordFailure,
  recordRightCode,
  recordSuccess,
  recordWrongCode,
} from './throttle.js';
import { signAccessToken } from './tokens.js';

const LOGIN_CHALLENGE_TTL_MS = 10 * 60 * 1000;
const MAX_CODE_ATTEMPTS = 5;
const ADMIN_LINK_TTL_MS = 5 * 60 * 1000;
const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const system = { kind: 'system' } as const;
const fullName = (u: q.UserRow) => `${u.firstName} ${u.lastName}`.trim();
const who = (u: q.UserRow) => ({ id: u.id, name: fullName(u), role: u.role, tenantId: u.tenantId });

/** The user may sign in: active, not suspended, and their tenant passes the gate. Returns the tenant for the session. */
type SignInTenant = { id: string; name: string; country: string | null };

async function assertUserMaySignIn(tx: Tx, user: q.UserRow): Promise<SignInTenant | null> {
  if (user.isSuspended) throw problems.accountSuspended();
  if (!user.isActive) throw problems.accountInactive();
  if (!user.tenantId) return null;
  const gate = await q.tenantGateRow(tx, user.tenantId);
  assertTenantGate(gate);
  return gate ? { id: gate.tenantId, name: gate.tenantName, country: gate.countryName } : null;
}

async function issueSession(tx: Tx, deps: Deps, ctx: Ctx, user: q.UserRow, tenant: SignInTenant | null, how: string, device = false): Promise<SessionResult> {
  const refresh = randomToken();
  // A device session (the field app) lives DEVICE_SESSION_TTL_DAYS; docs/decisions/0062-field-app-device-session.md.
  const expiresAt = new Date(Date.now() + (device ? deps.config.jwt.deviceTtl : deps.config.jwt.refreshTtl) * 1000);
  const sessionId = await q.insertSession(tx, {
    userId: user.id,
    tenantId: user.tenantId,
    platform: ctx.platform,
    ip: ctx.ip,
    userAgent: null,
    expiresAt,
    device,
  });
  await q.insertRefreshToken(tx, sessionId, sha256(refresh), expiresAt);
  await q.touchLastLogin(tx, user.id);
  // Before a session exists the country comes from the header or, as for every later call, the user's tenant.
  await recordActivity(
    tx,
    { ...ctx, country: ctx.country ?? tenant?.country ?? null },
    { action: 'Login', description: `${fullName(user)} signed in${how}${device ? ' on a field device' : ''}`, user: who(user) },
  );
  const access = await signAccessToken(deps.keys.jwt, deps.config.jwt, { sub: user.id, sid: sessionId, role: user.role, tid: user.tenantId });
  return { user: presentSessionUser(deps, user, tenant), access, refresh, session_expires_at: expiresAt.toISOString(), device };
}

// ---------- password step ----------
export async function login(deps: Deps, ctx: Ctx, body: { email: string; password: string }) {
  await withScope(deps.db, system, (tx) => assertNotThrottled(tx, body.email, ctx.ip));
  const user = await withScope(deps.db, system, (tx) => q.findUserByEmail(tx, body.email));
  const ok = await verifyPassword(user?.passwordHash ?? null, body.password);
  if (!user || !ok) {
    await withScope(deps.db, system, (tx) => recordFailure(tx, body.email, ctx.ip));
    throw problems.invalidCredentials();
  }
  return withScope(deps.db, system, async (tx) => {
    await recordSuccess(tx, body.email, ctx.ip);
    await assertUserMaySignIn(tx, user);
    const mfaToken = randomToken();
    const challengeId = await q.insertChallenge(tx, {
      userId: user.id,
      kind: 'login',
      tokenHash: sha256(mfaToken),
      expiresAt: new Date(Date.now() + LOGIN_CHALLENGE_TTL_MS),
    });
    return { mfa_required: user.mfaEnabled, mfa_setup_required: !user.mfaEnabled, mfa_token: mfaToken, user_token: challengeId };
  });
}

async function liveLoginChallenge(tx: Tx, body: { mfa_token: string; user_token: string }) {
  if (!/^[0-9a-f-]{36}$/i.test(body.user_token)) throw problems.invalidChallenge();
  const challenge = await q.findLiveChallenge(tx, 'login', { id: body.user_token, tokenHash: sha256(body.mfa_token) });
  if (!challenge || challenge.attempts >= MAX_CODE_ATTEMPTS) throw problems.invalidChallenge();
  const user = await q.findUserById(tx, challenge.userId);
  if (!user) throw problems.invalidChallenge();
  return { challenge, user };
}

/**
 * A wrong code is counted outside the request's transaction, so the count survives the error: against the challenge,
 * and against the account and the (account, address) pair. When the account starts being slowed down, the activity log
 * says so.
 */
async function countWrongCode(deps: Deps, ctx: Ctx, challengeId: string, user: q.UserRow | null): Promise<void> {
  await withScope(deps.db, system, async (tx) => {
    await q.countChallengeAttempt(tx, challengeId);
    if (!user) return;
    const failures = await recordWrongCode(tx, user.id, ctx.ip);
    if (failures === CODE_SLOWDOWN_AFTER) {
      await recordActivity(tx, ctx, {
        action: 'Login',
        description: `${fullName(user)}'s sign-in was slowed down after ${failures} wrong two-factor codes`,
        user: who(user),
      });
    }
  });
}

// ---------- two-factor enrolment ----------
export async function setupMfa(deps: Deps, _ctx: Ctx, body: { mfa_token: string; user_token: string }) {
  return withScope(deps.db, system, async (tx) => {
    const { user } = await liveLoginChallenge(tx, body);
    if (user.mfaEnabled) throw problems.mfaAlreadyEnabled();
    const existing = await q.getMfaSecret(tx, user.id);
    let secret: string;
    if (existing && !existing.confirmedAt) {
      secret = decrypt(deps.keys.encryption, existing.secretEnc);
    } else {
      secret = newTotpSecret();
      await q.upsertPendingMfaSecret(tx, user.id, encrypt(deps.keys.encryption, secret));
    }
    return { secret, otpauth_url: totpUri(secret, user.email), issuer: TOTP_ISSUER, account: user.email };
  });
}

async function verifyCode(tx: Tx, deps: Deps, userId: string, code: string, requireConfirmed: boolean): Promise<void> {
  const stored = await q.getMfaSecret(tx, userId);
  if (!stored || (requireConfirmed && !stored.confirmedAt)) throw problems.invalidCode();
  const step = matchTotp(decrypt(deps.keys.encryption, stored.secretEnc), code);
  if (step === null) throw problems.invalidCode();
  if (!(await q.consumeTotpStep(tx, userId, step))) throw problems.codeReused();
}

type CodeBody = { mfa_token: string; user_token: string; code: string; device?: boolean | undefined };

async function completeWithCode(deps: Deps, ctx: Ctx, body: CodeBody, enrolling: boolean): Promise<SessionResult> {
  let challengeId: string | null = null;
  let signingIn: q.UserRow | null = null;
  try {
    return await withScope(deps.db, system, async (tx) => {
      const { challenge, user } = await liveLoginChallenge(tx, body);
      challengeId = challenge.id;
      signingIn = user;
      // Device sessions are the field app's, for agents; refused before the code is checked, so the challenge stays usable.
      if (body.device && user.role !== 'agent') throw problems.field('device', 'Only field agents can sign in a device');
      await assertCodeAttemptAllowed(tx, user.id, ctx.ip);
      if (enrolling && user.mfaEnabled) throw problems.mfaAlreadyEnabled();
      if (!enrolling && !user.mfaEnabled) throw problems.badRequest('mfa_setup_required', 'Two-factor authentication is not set up yet for this account.');
      await verifyCode(tx, deps, user.id, body.code, !enrolling);
      await recordRightCode(tx, user.id, ctx.ip);
      if (!(await q.useChallenge(tx, challenge.id))) throw problems.invalidChallenge();
      const tenant = await assertUserMaySignIn(tx, user);
      if (enrolling) {
        await q.confirmMfa(tx, user.id);
        await recordActivity(tx, ctx, { action: 'Update', description: `${fullName(user)} set up two-factor authentication`, user: who(user) });
        user.mfaEnabled = true;
      }
      return issueSession(tx, deps, ctx, user, tenant, '', body.device === true);
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (challengeId && (code === 'invalid_mfa_code' || code === 'mfa_code_reused')) await countWrongCode(deps, ctx, challengeId, signingIn);
    throw err;
  }
}

export const confirmMfa = (deps: Deps, ctx: Ctx, body: CodeBody) => completeWithCode(deps, ctx, body, true);
export const loginConfirm = (deps: Deps, ctx: Ctx, body: CodeBody) => completeWithCode(deps, ctx, body, false);

// ---------- tokens ----------
/**
 * How far the reuse interval follows a family forward from a re-presented token: each aborted load within the interval
 * that reached the server before the next one is one step (three reloads 150 ms apart take at most two).
 */
const REUSE_CHAIN_MAX = 8;

/**
 * A used refresh token presented again: within the reuse interval (REFRESH_REUSE_INTERVAL_SECONDS) of its use, the
 * answer is the family's current token, found by following the deterministic successors (successorToken) while each was
 * used within the interval; for a token rotated once that is the very successor its first use made. Null is reuse: the
 * interval has passed, or the successor was not made by this scheme (a token from before it), or another family.
 */
async function withinReuseInterval(tx: Tx, deps: Deps, token: string, sessionId: string): Promise<string | null> {
  const intervalMs = deps.config.jwt.reuseIntervalSeconds * 1000;
  if (intervalMs <= 0) return null;
  let current = token;
  for (let step = 0; step <= REUSE_CHAIN_MAX; step++) {
    const use = await q.findRefreshTokenUse(tx, sha256(current));
    if (!use || use.sessionId !== sessionId) return null;
    if (!use.usedAt) return step === 0 ? null : current;
    if (Date.now() - use.usedAt.getTime() > intervalMs) return null;
    current = successorToken(deps.keys.refresh, current);
  }
  return null;
}

/**
 * Why a session's refresh failed, as the problem the client shows: a suspended or deactivated account says so (the field
 * app keeps its queue and tells the agent), a session ended on purpose (sign-out, a reset) is session_revoked, and an
 * expired or idle one asks to sign in again.
 */
function endedProblem(reason: string | null, user: q.UserRow) {
  if (user.isSuspended || reason === 'agent_suspended') return problems.accountSuspended();
  if (!user.isActive || reason === 'agent_deleted') return problems.accountInactive();
  if (reason === 'refresh_token_reused') return problems.refreshReused();
  if (reason === null || reason === 'idle') return problems.refreshInvalid();
  return problems.sessionRevoked();
}

export async function refreshTokens(deps: Deps, _ctx: Ctx, token: string | undefined): Promise<{ access: string; refresh: string; expiresAt: Date }> {
  if (!token) throw problems.refreshInvalid();
  const outcome = await withScope(deps.db, system, async (tx) => {
    const row = await q.findRefreshToken(tx, sha256(token));
    if (!row) return { kind: 'invalid' as const };
    const session = await q.findSession(tx, row.sessionId);
    if (!session) return { kind: 'invalid' as const };
    if (session.revokedAt) return { kind: 'ended' as const, reason: session.revokedReason, user: session.user };
    if (session.expiresAt < new Date() || row.expiresAt < new Date()) return { kind: 'invalid' as const };
    let refresh: string;
    if (row.usedAt || !(await q.markRefreshTokenUsed(tx, row.id))) {
      // Used already (or by a concurrent request a moment ago, whose successor is committed by now): within the reuse
      // interval that is an aborted load or a second tab, and it gets the same successor; after it, theft or replay.
      const current = await withinReuseInterval(tx, deps, token, row.sessionId);
      if (!current) return { kind: 'reused' as const, sessionId: row.sessionId };
      refresh = current;
    } else {
      // Idle: the console refreshes on its next call after the access token expires; a refresh token older than the idle
      // limit means nobody used the console for that long, and the session ends. A device session (the field app) has
      // its own, longer limit (DEVICE_SESSION_IDLE_DAYS): a phone may stay offline for days.
      const idleSeconds = session.device ? deps.config.jwt.deviceIdleSeconds : deps.config.jwt.idleSeconds;
      if (idleSeconds > 0 && Date.now() - row.createdAt.getTime() > idleSeconds * 1000) {
        await q.revokeSession(tx, row.sessionId, 'idle');
        return { kind: 'invalid' as const };
      }
      refresh = successorToken(deps.keys.refresh, token);
      await q.insertRefreshToken(tx, row.sessionId, sha256(refresh), session.expiresAt);
    }
    const user = session.user;
    if (!user.isActive || user.isSuspended) return { kind: 'ended' as const, reason: null, user };
    if (user.tenantId) assertTenantGate(await q.tenantGateRow(tx, user.tenantId));
    const access = await signAccessToken(deps.keys.jwt, deps.config.jwt, { sub: user.id, sid: row.sessionId, role: user.role, tid: user.tenantId });
    return { kind: 'ok' as const, access, refresh, expiresAt: session.expiresAt };
  });
  if (outcome.kind === 'reused') {
    // Reuse of a rotated token after the reuse interval means it was stolen or replayed: end the whole family (the session).
    await withScope(deps.db, system, (tx) => q.revokeSession(tx, outcome.sessionId, 'refresh_token_reused'));
    deps.log.warn({ sessionId: outcome.sessionId }, 'refresh token reuse: session revoked');
    throw problems.refreshReused();
  }
  if (outcome.kind === 'invalid') throw problems.refreshInvalid();
  if (outcome.kind === 'ended') throw endedProblem(outcome.reason, outcome.user);
  return { access: outcome.access, refresh: outcome.refresh, expiresAt: outcome.expiresAt };
}

export async function logout(deps: Deps, ctx: Ctx): Promise<void> {
  const actor = requireActor(ctx);
  await withScope(deps.db, system, async (tx) => {
    await q.revokeSession(tx, actor.sessionId, 'logout');
    await recordActivity(tx, ctx, { action: 'Logout', description: `${actor.name} signed out` });
  });
}

// ---------- admin link ----------
export async function createAdminLink(deps: Deps, email: string): Promise<string> {
  return withScope(deps.db, system, async (tx) => {
    const user = await q.findUserByEmail(tx, email);
    if (!user) throw problems.notFound('User');
    const requestId = randomToken(24);
    await q.insertChallenge(tx, { userId: user.id, kind: 'admin_link', tokenHash: sha256(requestId), expiresAt: new Date(Date.now() + ADMIN_LINK_TTL_MS) });
    // The secret rides in the fragment: a browser never sends it to the server, so no request log holds it.
    return `${deps.config.publicUrl}/#q=${requestId}`;
  });
}

export async function adminLogin(deps: Deps, ctx: Ctx, requestId: string): Promise<SessionResult> {
  await withScope(deps.db, system, (tx) => assertAddressAllowed(tx, 'admin-link', ctx.ip));
  const found = await withScope(deps.db, system, (tx) => q.findLiveChallenge(tx, 'admin_link', { tokenHash: sha256(requestId) }));
  if (!found) {
    // A guess: counted against the address (a link is a random token; only guessing fails this way).
    await withScope(deps.db, system, (tx) => countAddress(tx, 'admin-link', ctx.ip));
    throw problems.invalidServiceProvider();
  }
  return withScope(deps.db, system, async (tx) => {
    const challenge = await q.findLiveChallenge(tx, 'admin_link', { tokenHash: sha256(requestId) });
    if (!challenge) throw problems.invalidServiceProvider();
    const user = await q.findUserById(tx, challenge.userId);
    if (!user) throw problems.invalidServiceProvider();
    if (user.role !== 'super_admin') throw problems.noServiceProviderAccess();
    if (!(await q.useChallenge(tx, challenge.id))) throw problems.invalidServiceProvider();
    const tenant = await assertUserMaySignIn(tx, user);
    return issueSession(tx, deps, ctx, user, tenant, ' through an admin link');
  });
}

// ---------- two-factor reset by an administrator ----------
export async function resetMfa(deps: Deps, ctx: Ctx, userId: string): Promise<void> {
  const actor = requireActor(ctx);
  await withScope(deps.db, system, async (tx) => {
    // Provider staff may reset anyone; tenant admins their own tenant's users (themselves included). Others see 404.
    const user = authorizeRow(ctx, authPolicy, 'reset-mfa', await q.findUserById(tx, userId), (u) => ({ userId: u.id, tenantId: u.tenantId }));
    await q.clearMfa(tx, user.id);
    await q.revokeUserSessions(tx, user.id, 'mfa_reset', user.id === actor.userId ? actor.sessionId : undefined);
    await recordActivity(tx, ctx, {
      action: 'Update',
      description: `${actor.name} reset two-factor authentication for ${fullName(user)}`,
      tenantId: user.tenantId,
    });
  });
}

// ---------- passwords ----------
export async function updatePassword(deps: Deps, ctx: Ctx, body: { old_password: string; new_password: string }): Promise<void> {
  const actor = requireActor(ctx);
  const user = await withScope(deps.db, system, (tx) => q.findUserById(tx, actor.userId));
  if (!user) throw problems.wrongPassword();
  // A wrong current password counts like a wrong sign-in password (the same counters: a stolen access token must not
  // become a way to guess the password at full speed), and a right one clears them.
  await withScope(deps.db, system, (tx) => assertNotThrottled(tx, user.email, ctx.ip));
  if (!(await verifyPassword(user.passwordHash, body.old_password))) {
    await withScope(deps.db, system, (tx) => recordFailure(tx, user.email, ctx.ip));
    throw problems.wrongPassword();
  }
  await withScope(deps.db, system, (tx) => recordSuccess(tx, user.email, ctx.ip));
  if (body.old_password === body.new_password) throw problems.field('new_password', 'The new password must differ from the current one');
  await assertUncommonPassword('new_password', body.new_password);
  const hash = await hashPassword(body.new_password);
  await withScope(deps.db, system, async (tx) => {
    await q.setPassword(tx, user.id, hash);
    await q.revokeUserSessions(tx, user.id, 'password_changed', actor.sessionId);
    await recordActivity(tx, ctx, { action: 'Update', description: `${actor.name} changed their password` });
  });
}

/**
 * The reset request answers no sooner than this after it arrived, whether or not the account exists: without it the
 * answer for an existing account (a challenge and a mail written) came 11 ms later than for an unknown one, which let
 * anyone list accounts by timing. The work itself takes a few ms; the floor is far above it.
 */
export const RESET_ANSWER_FLOOR_MS = 300;

export async function requestPasswordReset(deps: Deps, ctx: Ctx, email: string): Promise<void> {
  const started = performance.now();
  try {
    await withScope(deps.db, system, async (tx) => {
      await assertAddressAllowed(tx, 'reset', ctx.ip);
      await countAddress(tx, 'reset', ctx.ip);
    });
    await queuePasswordReset(deps, ctx, email);
  } finally {
    const left = RESET_ANSWER_FLOOR_MS - (performance.now() - started);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  }
}

/**
 * Reset mails one account may be sent per hour, whatever addresses ask (the per-address limit alone let anyone flood an
 * inbox by rotating addresses). Past it the request is answered as always and nothing is sent, so the answer still says
 * nothing about the account.
 */
export const RESET_MAILS_PER_ACCOUNT_HOUR = 3;

async function queuePasswordReset(deps: Deps, ctx: Ctx, email: string): Promise<void> {
  await withScope(deps.db, system, async (tx) => {
    const user = await q.findUserByEmail(tx, email);
    // The answer is the same whether or not the account exists.
    if (!user || !user.isActive) return;
    if ((await q.countRecentChallenges(tx, user.id, 'password_reset', 3600)) >= RESET_MAILS_PER_ACCOUNT_HOUR) {
      deps.log.warn({ userId: user.id }, 'password reset mail withheld: the per-account hourly limit is reached');
      return;
    }
    await q.invalidateChallenges(tx, user.id, 'password_reset');
    const token = randomToken();
    await q.insertChallenge(tx, { userId: user.id, kind: 'password_reset', tokenHash: sha256(token), expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS) });
    const link = `${deps.config.publicUrl}/reset-password#token=${token}`;
    await queueMail(tx, deps, {
      to: user.email,
      subject: 'Reset your password',
      body: `Hello ${user.firstName},\n\nUse this link within one hour to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this message.`,
    });
    await recordActivity(tx, ctx, { action: 'Update', description: `Password reset requested for ${fullName(user)}`, user: who(user) });
  });
}

export async function confirmResetToken(deps: Deps, _ctx: Ctx, token: string): Promise<void> {
  const challenge = await withScope(deps.db, system, (tx) => q.findLiveChallenge(tx, 'password_reset', { tokenHash: sha256(token) }));
  if (!challenge) throw problems.invalidResetToken();
}

export async function setNewPassword(deps: Deps, ctx: Ctx, body: { token: string; password: string }): Promise<void> {
  await assertUncommonPassword('password', body.password);
  const hash = await hashPassword(body.password);
  await withScope(deps.db, system, async (tx) => {
    const challenge = await q.findLiveChallenge(tx, 'password_reset', { tokenHash: sha256(body.token) });
    if (!challenge || !(await q.useChallenge(tx, challenge.id))) throw problems.invalidResetToken();
    const user = await q.findUserById(tx, challenge.userId);
    if (!user) throw problems.invalidResetToken();
    await q.setPassword(tx, user.id, hash);
    await q.revokeUserSessions(tx, user.id, 'password_reset');
    await recordActivity(tx, ctx, { action: 'Update', description: `${fullName(user)} set a new password`, user: who(user) });
  });
}

// ---------- invitations (tenant-admin onboarding and account reset) ----------
/** Creates a single-use invitation and returns its signed key; the caller sends it (mail) in the same transaction. */
export async function createInvitation(tx: Tx, deps: Deps, userId: string): Promise<string> {
  await q.invalidateChallenges(tx, userId, 'invitation');
  const nonce = randomToken();
  const expiresAt = Date.now() + INVITATION_TTL_MS;
  const id = await q.insertChallenge(tx, { userId, kind: 'invitation', tokenHash: sha256(nonce), expiresAt: new Date(expiresAt) });
  return sign(deps.keys.signing, { cid: id, n: nonce, exp: expiresAt });
}

export function invitationLink(deps: Deps, signedKey: string): string {
  return `${deps.config.publicUrl}/onboarding#signed_key=${encodeURIComponent(signedKey)}`;
}

export async function acceptInvitation(
  deps: Deps,
  ctx: Ctx,
  signedKey: string,
  body: { password: string; first_name?: string | undefined; last_name?: string | undefined },
): Promise<void> {
  const payload = verifySigned(deps.keys.signing, signedKey) as { cid?: unknown; n?: unknown; exp?: unknown } | null;
  if (!payload || typeof payload.cid !== 'string' || typeof payload.n !== 'string' || typeof payload.exp !== 'number' || payload.exp < Date.now()) {
    throw problems.invalidInvitation();
  }
  const { cid, n } = payload;
  await assertUncommonPassword('password', body.password);
  const hash = await hashPassword(body.password);
  await withScope(deps.db, system, async (tx) => {
    const challenge = await q.findLiveChallenge(tx, 'invitation', { id: cid, tokenHash: sha256(n) });
    if (!challenge || !(await q.useChallenge(tx, challenge.id))) throw problems.invalidInvitation();
    const user = await q.findUserById(tx, challenge.userId);
    if (!user) throw problems.invalidInvitation();
    await q.setPassword(tx, user.id, hash);
    await q.updateNames(tx, user.id, body.first_name, body.last_name);
    await recordActivity(tx, ctx, { action: 'Update', description: `${fullName(user)} accepted their invitation and set a password`, user: who(user) });
  });
}
