// Builds req.ctx for every request and enforces each route's declared access before its handler runs:
// the bearer token is verified, then its session is looked up, so that logout, deactivation and the tenant gate take effect at once.
// Capture routes that list 'sdk_license' also accept a tenant's SDK license key in X-License-Key instead of a session.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { platformName, type PlatformName, type RoleName } from '@farmland/contracts';
import type { Access, Actor, Ctx, Deps, LicenseActor } from '../context.js';
import { problems } from '../lib/problems.js';
import { findSessionCheck, sessionCheckQuery, toSessionCheck, type SessionCheck, type SessionCheckRow } from '../modules/auth/auth.queries.js';
import { findLicenseByKey } from '../modules/auth/license-key.queries.js';
import { verifyAccessToken, type AccessClaims } from '../modules/auth/tokens.js';
import { assertTenantGate } from '../modules/auth/tenant-gate.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function platformOf(req: FastifyRequest): PlatformName {
  const raw = req.headers['x-platform'];
  const parsed = platformName.safeParse(typeof raw === 'string' ? raw.toLowerCase() : undefined);
  return parsed.success ? parsed.data : 'api';
}

function countryHeader(req: FastifyRequest): string | null {
  const raw = req.headers['x-country'];
  return typeof raw === 'string' && /^[\p{L} .'()-]{2,60}$/u.test(raw) ? raw : null;
}

/** The access token's claims, verified (signature, expiry, issuer, audience); a 401 otherwise. */
export async function verifyClaims(deps: Deps, token: string): Promise<AccessClaims> {
  const claims = await verifyAccessToken(deps.keys.jwt, deps.config.jwt, token);
  if (!claims) throw problems.unauthenticated();
  // A signed token with a session id that is not a uuid names no session (and never reaches SQL).
  if (!UUID.test(claims.sid)) throw problems.unauthenticated('Your session has ended. Please sign in again.');
  return claims;
}

/**
 * The session check's verdict: the actor, or the problem (401, or 403 with the tenant gate's code). `sameAsClaims`: the
 * check ran with a read made as the token's claims (sessionWithRead), so the user must still be what the token says.
 */
export function settleSession(s: SessionCheck | null, claims: AccessClaims, sameAsClaims = false): { actor: Actor; country: string | null } {
  if (!s || s.user.id !== claims.sub) throw problems.unauthenticated('Your session has ended. Please sign in again.');
  // A suspended account says so with its own code (suspension also ends its sessions, so this comes first).
  if (s.user.isSuspended) throw problems.accountSuspended();
  if (s.revokedAt || s.expiresAt < new Date()) throw problems.unauthenticated('Your session has ended. Please sign in again.');
  if (!s.user.isActive) throw problems.unauthenticated('This account has been deactivated.');
  if (sameAsClaims && (s.user.role !== claims.role || s.user.tenantId !== claims.tid))
    throw problems.unauthenticated('Your session has ended. Please sign in again.');
  let country: string | null = null;
  if (s.user.tenantId) {
    assertTenantGate(s.gate);
    country = s.gate?.countryName ?? null;
  }
  return {
    actor: {
      userId: s.user.id,
      sessionId: s.sessionId,
      role: s.user.role,
      tenantId: s.user.tenantId,
      name: `${s.user.firstName} ${s.user.lastName}`.trim(),
      email: s.user.email,
    },
    country,
  };
}

export async function authenticate(deps: Deps, token: string): Promise<{ actor: Actor; country: string | null }> {
  const claims = await verifyClaims(deps, token);
  // One statement, one round trip: the session, its user and the tenant gate (auth.queries.ts).
  return settleSession(await findSessionCheck(deps.db, claims.sid), claims);
}

/**
 * For a read-only route that declares sessionWithRead: the actor as the verified token says (name and email empty), and
 * the session check left pending, to ride on the handler's first scoped read (db/client.ts scopedReader). settle()
 * replaces the actor with the checked one, or throws the check's problem; alone() runs the check by itself (a read
 * that failed, or a handler that made no scoped read: the onSend hook below). Nothing leaves before the check passed.
 */
function deferSession(deps: Deps, ctx: Ctx, claims: AccessClaims): void {
  const settle = (s: SessionCheck | null) => {
    ctx.pending = null;
    const { actor, country } = settleSession(s, claims, true);
    ctx.actor = actor;
    ctx.country ??= country;
  };
  ctx.actor = { userId: claims.sub, sessionId: claims.sid, role: claims.role, tenantId: claims.tid, name: '', email: '' };
  ctx.pending = {
    scope: { kind: 'system' },
    query: sessionCheckQuery(claims.sid),
    settle: (rows) => settle(toSessionCheck(rows[0] as SessionCheckRow | undefined)),
    alone: async () => {
      ctx.pending = null;
      settle(await findSessionCheck(deps.db, claims.sid));
    },
  };
}

/**
 * An SDK license key stands in for a session on capture routes: unknown (or its tenant deleted) → 401; then the tenant
 * gate (inactive, suspended, the key's license revoked or expired → 403 with its code); a Platform license → 403.
 */
export async function authenticateLicenseKey(deps: Deps, key: string): Promise<{ license: LicenseActor; country: string | null }> {
  if (key.length < 8 || key.length > 200) throw problems.unauthenticated('Unknown license key.');
  const row = await findLicenseByKey(deps.db, key);
  if (!row) throw problems.unauthenticated('Unknown license key.');
  // The same gate as a session's, with the key's own license in place of the tenant's current one.
  assertTenantGate({ isActive: row.tenant_active, isSuspended: row.tenant_suspended, licenseRevoked: row.is_revoked, licenseExpired: row.is_expired });
  if (row.type !== 'SDK') throw problems.forbidden('Only an SDK license key can be used for field capture.');
  return {
    license: { licenseId: row.license_id, tenantId: row.tenant_id, tenantName: row.tenant_name, keyHint: key.slice(-4) },
    country: row.country_name,
  };
}

function allowed(access: Access, role: RoleName): boolean {
  if (access === 'authenticated') return true;
  if (access === 'public') return true;
  return access.some((r) => r === role);
}

export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('ctx', null as unknown as Ctx);
  // Authentication runs at onRequest, before the body is even read: an anonymous or unauthorised caller learns nothing
  // from validation errors and cannot make the server parse a large body.
  app.addHook('onRequest', async (req) => {
    req.ctx = { actor: null, platform: platformOf(req), ip: req.ip, country: countryHeader(req), requestId: req.id };
    const access = req.routeOptions.config.access;
    if (access === undefined) {
      // Every route must say who may call it; a route that forgets is closed, not open.
      if (req.routeOptions.url === undefined) return; // the not-found handler
      throw problems.forbidden('This route has no access rule.');
    }
    if (access === 'public') return;
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
    const licenseKey = req.headers['x-license-key'];
    if (!token && typeof licenseKey === 'string' && access !== 'authenticated' && access.includes('sdk_license')) {
      const { license, country } = await authenticateLicenseKey(app.deps, licenseKey.trim());
      req.ctx.license = license;
      req.ctx.country ??= country;
      if (req.headers['x-platform'] === undefined) req.ctx.platform = 'sdk';
      return;
    }
    if (!token) throw problems.unauthenticated();
    if (req.routeOptions.config.sessionWithRead && (req.method === 'GET' || req.method === 'HEAD')) {
      const claims = await verifyClaims(app.deps, token);
      // A role the route refuses is answered after the check, as on every other route (an ended session: 401 first).
      if (allowed(access, claims.role)) return deferSession(app.deps, req.ctx, claims);
    }
    const { actor, country } = await authenticate(app.deps, token);
    req.ctx.actor = actor;
    req.ctx.country ??= country;
    if (!allowed(access, actor.role)) throw problems.forbidden();
  });
  // A deferred session check that no read took runs before anything is sent: a failed check replaces the answer (its
  // 401/403), whatever the handler answered.
  app.addHook('onSend', async (req) => {
    if (req.ctx?.pending) await req.ctx.pending.alone();
  });
}
