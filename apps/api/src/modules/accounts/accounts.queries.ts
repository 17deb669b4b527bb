// All SQL of user profiles.
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { tenants, users } from '../../db/schema.js';

export async function findProfile(tx: Executor, userId: string) {
  const rows = await tx
    .select({ user: users, tenantName: tenants.name })
    .from(users)
    .leftJoin(tenants, eq(tenants.id, users.tenantId))
    .where(eq(users.id, userId))
    .limit(1);
  return rows[0] ?? null;
}

export async function updateProfile(
  tx: Executor,
  userId: string,
  patch: { firstName?: string; lastName?: string; phoneNumber?: string | null; gender?: string | null; imageFileId?: string },
): Promise<void> {
  await tx
    .update(users)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** Account reset: no password and no second factor until the user accepts the new invitation. */
export async function clearCredentials(tx: Executor, userId: string): Promise<void> {
  await tx.update(users).set({ passwordHash: null, mfaEnabled: false, updatedAt: new Date() }).where(eq(users.id, userId));
}
