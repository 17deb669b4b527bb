// All SQL of sign-in: users by email, sessions and refresh-token families, challenges, throttling and the tenant gate.
// These run in the 'system' scope, because the tenant is not known before the user is.
import { and, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, scopedRows, type Db, type Executor } from '../../db/client.js';
import { authChallenges, authThrottle, countries, licenses, mfaSecrets, refreshTokens, sessions, tenants, users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(tx: Executor, email: string): Promise<UserRow | null> {
  const rows = await tx
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return rows[0] ?? null;
}

export async function findUserById(tx: Executor, id: string): Promise<UserRow | null> {
  const rows = await tx.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

export type TenantGateRow = {
  tenantId: string;
  tenantName: string;
  isActive: boolean;
  isSuspended: boolean;
  countryName: string | null;
  licenseRevoked: boolean | null;
  licenseExpired: boolean | null;
};

export async function tenantGateRow(tx: Executor, tenantId: string): Promise<TenantGateRow | null> {
  const rows = await tx
    .select({
      tenantId: tenants.id,
      tenantName: tenants.name,
      isActive: tenants.isActive,
      isSuspended: tenants.isSuspended,
      countryName: countries.name,
      licenseRevoked: licenses.isRevoked,
      licenseExpired: sql<boolean | null>`${licenses.expiryDate} < current_date`,
    })
    .from(tenants)
    .leftJoin(countries, eq(countries.id, tenants.countryId))
    .leftJoin(
      licenses,
      eq(licenses.id, sql`(SELECT l.id FROM licenses l WHERE l.tenant_id = ${tenants.id} ORDER BY l.issued_date DESC, l.created_at DESC LIMIT 1)`),
    )
    .where(and(eq(tenants.id, tenantId), isNull(tenants.deletedAt)))
    .limit(1);
  return rows[0] ?? null;
}

export type SessionActorRow = {
  sessionId: string;
  revokedAt: Date | null;
  revokedReason: string | null;
  device: boolean;
  expiresAt: Date;
  user: UserRow;
};

export async function findSession(tx: Executor, sessionId: string): Promise<SessionActorRow | null> {
  const rows = await tx
    .select({
      sessionId: sessions.id,
      revokedAt: sessions.revokedAt,
      revokedReason: sessions.revokedReason,
      device: sessions.device,
      expiresAt: sessions.expiresAt,
      user: users,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return rows[0] ?? null;
}

/** What every authenticated request checks: its session, the session's user and the user's tenant gate. */
export type SessionCheck = {
  sessionId: string;
  revokedAt: Date | null;
  expiresAt: Date;
  user: Pick<UserRow, 'id' | 'tenantId' | 'role' | 'firstName' | 'lastName' | 'email' | 'isActive' | 'isSuspended'>;
  /** null for a user without a tenant, and for a tenant that is deleted or missing. */
  gate: TenantGateRow | null;
};

/** The session check's row (sessionCheckQuery). */
export type SessionCheckRow = {
  session_id: string;
  revoked_at: Date | string | null;
  expires_at: Date | string;
  user_id: string;
  tenant_id: string | null;
  role: UserRow['role'];
  first_name: string;
  last_name: string;
  email: string;
  is_active: boolean;
  is_suspended: boolean;
  gate_tenant_id: string | null;
  gate_tenant_name: string | null;
  gate_active: boolean | null;
  gate_suspended: boolean | null;
  gate_country: string | null;
  license_revoked: boolean | null;
  license_expired: boolean | null;
};

/**
 * The session check of every authenticated request as one statement: the session, its user and the user's tenant gate
 * (the same rule as findSession + tenantGateRow: the tenant not deleted, its country, its latest license), read in the
 * 'system' scope in one round trip with the scope (scopedRows), or with the request's first read (plugins/auth.ts).
 * Nothing is cached: logout, suspension and the gate take effect on the next request.
 */
export function sessionCheckQuery(sessionId: string): SQL {
  return sql`SELECT s.id AS session_id, s.revoked_at, s.expires_at,
               u.id AS user_id, u.tenant_id, u.role, u.first_name, u.last_name, u.email, u.is_active, u.is_suspended,
               t.id AS gate_tenant_id, t.name AS gate_tenant_name, t.is_active AS gate_active, t.is_suspended AS gate_suspended,
               c.name AS gate_country, l.is_revoked AS license_revoked, (l.expiry_date < current_date) AS license_expired
          FROM sessions s
          JOIN users u ON u.id = s.user_id
          LEFT JOIN tenants t ON t.id = u.tenant_id AND t.deleted_at IS NULL
          LEFT JOIN countries c ON c.id = t.country_id
          LEFT JOIN LATERAL (SELECT l.is_revoked, l.expiry_date FROM licenses l WHERE l.tenant_id = t.id
                              ORDER BY l.issued_date DESC, l.created_at DESC LIMIT 1) l ON true
         WHERE s.id = ${sessionId}
         LIMIT 1`;
}

/** A session check's row (or none) as a SessionCheck. */
export function toSessionCheck(row: SessionCheckRow | undefined): SessionCheck | null {
  if (!row) return null;
  return {
    sessionId: row.session_id,
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
    expiresAt: new Date(row.expires_at),
    user: {
      id: row.user_id,
      tenantId: row.tenant_id,
      role: row.role,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      isActive: row.is_active,
      isSuspended: row.is_suspended,
    },
    gate:
      row.gate_tenant_id === null
        ? null
        : {
            tenantId: row.gate_tenant_id,
            tenantName: row.gate_tenant_name ?? '',
            isActive: row.gate_active === true,
            isSuspended: row.gate_suspended === true,
            countryName: row.gate_country,
            licenseRevoked: row.license_revoked,
            licenseExpired: row.license_expired,
          },
  };
}

export async function findSessionCheck(db: Db, sessionId: string): Promise<SessionCheck | null> {
  const [row] = await scopedRows<SessionCheckRow>(db, { kind: 'system' }, sessionCheckQuery(sessionId));
  return toSessionCheck(row);
}

export async function insertSession(
  tx: Executor,
  v: { userId: string; tenantId: string | null; platform: string; ip: string; userAgent: string | null; expiresAt: Date; device?: boolean },
): Promise<string> {
  const [row] = await tx.insert(sessions).values(v).returning({ id: sessions.id });
  if (!row) throw new Error('session insert returned nothing');
  return row.id;
}

export async function revokeSession(tx: Executor, sessionId: string, reason: string): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeUserSessions(tx: Executor, userId: string, reason: string, exceptSessionId?: string): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), exceptSessionId ? sql`${sessions.id} <> ${exceptSessionId}` : undefined));
}

export async function revokeTenantSessions(tx: Executor, tenantId: string, reason: string): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.tenantId, tenantId), isNull(sessions.revokedAt)));
}

export async function insertRefreshToken(tx: Executor, sessionId: string, tokenHash: string, expiresAt: Date): Promise<void> {
  await tx.insert(refreshTokens).values({ sessionId, tokenHash, expiresAt });
}

export async function findRefreshToken(tx: Executor, tokenHash: string) {
  const rows = await tx
    .select({
      id: refreshTokens.id,
      sessionId: refreshTokens.sessionId,
      usedAt: refreshTokens.usedAt,
      expiresAt: refreshTokens.expiresAt,
      createdAt: refreshTokens.createdAt,
    })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  return rows[0] ?? null;
}

/** The refresh token with this hash and its use, for the reuse interval's walk along a family. */
export async function findRefreshTokenUse(tx: Executor, tokenHash: string): Promise<{ sessionId: string; usedAt: Date | null } | null> {
  const rows = await tx
    .select({ sessionId: refreshTokens.sessionId, usedAt: refreshTokens.usedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  return rows[0] ?? null;
}

/** Marks a refresh token used; false when another request already used it (the race counts as reuse). */
export async function markRefreshTokenUsed(tx: Executor, id: string): Promise<boolean> {
  const rows = await tx
    .update(refreshTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export async function insertChallenge(
  tx: Executor,
  v: { userId: string; kind: 'login' | 'admin_link' | 'password_reset' | 'invitation'; tokenHash: string; expiresAt: Date },
): Promise<string> {
  const [row] = await tx.insert(authChallenges).values(v).returning({ id: authChallenges.id });
  if (!row) throw new Error('challenge insert returned nothing');
  return row.id;
}

export async function findLiveChallenge(
  tx: Executor,
  kind: 'login' | 'admin_link' | 'password_reset' | 'invitation',
  where: { id?: string; tokenHash: string },
) {
  const rows = await tx
    .select()
    .from(authChallenges)
    .where(
      and(
        eq(authChallenges.kind, kind),
        eq(authChallenges.tokenHash, where.tokenHash),
        where.id ? eq(authChallenges.id, where.id) : undefined,
        isNull(authChallenges.usedAt),
        gt(authChallenges.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

/** Challenges of a kind made for a user within the last `seconds` (used or not). */
export async function countRecentChallenges(tx: Executor, userId: string, kind: 'password_reset', seconds: number): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(authChallenges)
    .where(and(eq(authChallenges.userId, userId), eq(authChallenges.kind, kind), sql`${authChallenges.createdAt} > now() - make_interval(secs => ${seconds})`));
  return Number(row?.n ?? 0);
}

export async function countChallengeAttempt(tx: Executor, id: string): Promise<number> {
  const [row] = await tx
    .update(authChallenges)
    .set({ attempts: sql`${authChallenges.attempts} + 1` })
    .where(eq(authChallenges.id, id))
    .returning({ attempts: authChallenges.attempts });
  return row?.attempts ?? 0;
}

/** Consumes a challenge once; false when it was already used. */
export async function useChallenge(tx: Executor, id: string): Promise<boolean> {
  const rows = await tx
    .update(authChallenges)
    .set({ usedAt: new Date() })
    .where(and(eq(authChallenges.id, id), isNull(authChallenges.usedAt)))
    .returning({ id: authChallenges.id });
  return rows.length === 1;
}

export async function invalidateChallenges(tx: Executor, userId: string, kind: 'login' | 'admin_link' | 'password_reset' | 'invitation'): Promise<void> {
  await tx
    .update(authChallenges)
    .set({ usedAt: new Date() })
    .where(and(eq(authChallenges.userId, userId), eq(authChallenges.kind, kind), isNull(authChallenges.usedAt)));
}

export async function getMfaSecret(tx: Executor, userId: string) {
  const rows = await tx.select().from(mfaSecrets).where(eq(mfaSecrets.userId, userId)).limit(1);
  return rows[0] ?? null;
}

export async function upsertPendingMfaSecret(tx: Executor, userId: string, secretEnc: string): Promise<void> {
  await tx
    .insert(mfaSecrets)
    .values({ userId, secretEnc })
    .onConflictDoUpdate({ target: mfaSecrets.userId, set: { secretEnc, confirmedAt: null, lastUsedStep: 0 } });
}

/** Records a TOTP step as used; false when this or a later step was already accepted (a replayed code). */
export async function consumeTotpStep(tx: Executor, userId: string, step: number): Promise<boolean> {
  const rows = await tx
    .update(mfaSecrets)
    .set({ lastUsedStep: step })
    .where(and(eq(mfaSecrets.userId, userId), sql`${mfaSecrets.lastUsedStep} < ${step}`))
    .returning({ userId: mfaSecrets.userId });
  return rows.length === 1;
}

export async function confirmMfa(tx: Executor, userId: string): Promise<void> {
  await tx.update(mfaSecrets).set({ confirmedAt: new Date() }).where(eq(mfaSecrets.userId, userId));
  await tx.update(users).set({ mfaEnabled: true, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function clearMfa(tx: Executor, userId: string): Promise<void> {
  await tx.delete(mfaSecrets).where(eq(mfaSecrets.userId, userId));
  await tx.update(users).set({ mfaEnabled: false, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function setPassword(tx: Executor, userId: string, passwordHash: string | null): Promise<void> {
  await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function touchLastLogin(tx: Executor, userId: string): Promise<void> {
  await tx.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, userId));
}

// ---- throttling ----
export async function throttleState(tx: Executor, keys: string[]) {
  if (keys.length === 0) return [];
  return tx.select().from(authThrottle).where(inArray(authThrottle.key, keys));
}

export async function recordThrottleFailure(tx: Executor, key: string, lockAfter: number, baseSeconds: number, maxSeconds: number): Promise<number> {
  // failures >= lockAfter lock for base * 2^(failures - lockAfter), never longer than maxSeconds.
  const [row] = await queryRows<{ failures: number }>(
    tx,
    sql`
    INSERT INTO auth_throttle (key, failures, locked_until, updated_at) VALUES (${key}, 1, NULL, now())
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN auth_throttle.updated_at < now() - interval '1 day' THEN 1 ELSE auth_throttle.failures + 1 END,
      locked_until = CASE
        WHEN (CASE WHEN auth_throttle.updated_at < now() - interval '1 day' THEN 1 ELSE auth_throttle.failures + 1 END) >= ${lockAfter}
        THEN now() + make_interval(secs => least(${maxSeconds}::float8, ${baseSeconds}::float8 * power(2, (CASE WHEN auth_throttle.updated_at < now() - interval '1 day' THEN 1 ELSE auth_throttle.failures + 1 END) - ${lockAfter})))
        ELSE NULL END,
      updated_at = now()
    RETURNING failures`,
  );
  return row?.failures ?? 0;
}

export async function clearThrottle(tx: Executor, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.delete(authThrottle).where(inArray(authThrottle.key, keys));
}

export async function updateNames(tx: Executor, userId: string, firstName: string | undefined, lastName: string | undefined): Promise<void> {
  if (!firstName && !lastName) return;
  await tx
    .update(users)
    .set({ ...(firstName ? { firstName } : {}), ...(lastName ? { lastName } : {}), updatedAt: new Date() })
    .where(eq(users.id, userId));
}
