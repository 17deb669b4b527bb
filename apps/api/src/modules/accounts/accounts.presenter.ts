// User row → profile shape: an explicit whitelist (no password hash, no two-factor secret).
import type { UserProfile } from '@farmland/contracts';
import type { Deps } from '../../context.js';
import type { users } from '../../db/schema.js';
import { fileUrl } from '../files/files.service.js';

export function presentProfile(deps: Deps, u: typeof users.$inferSelect, tenantName: string | null): UserProfile {
  return {
    id: u.id,
    email: u.email,
    first_name: u.firstName,
    last_name: u.lastName,
    phone_number: u.phoneNumber,
    gender: u.gender,
    image: fileUrl(deps, u.imageFileId),
    role: u.role,
    roles: [u.role],
    tenant: u.tenantId && tenantName ? { id: u.tenantId, uuid: u.tenantId, name: tenantName } : null,
    is_active: u.isActive,
    mfa_enabled: u.mfaEnabled,
    last_login_at: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
    created_at: u.createdAt.toISOString(),
  };
}
