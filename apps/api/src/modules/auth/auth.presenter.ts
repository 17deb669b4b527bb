// User row → the session's user object: an explicit whitelist (no hash, no secret, no token).
import type { SessionUser } from '@farmland/contracts';
import type { Deps } from '../../context.js';
import { fileUrl } from '../files/files.service.js';
import type { UserRow } from './auth.queries.js';

export function presentSessionUser(deps: Deps, u: UserRow, tenant: { id: string; name: string } | null): SessionUser {
  return {
    id: u.id,
    email: u.email,
    first_name: u.firstName,
    last_name: u.lastName,
    image: fileUrl(deps, u.imageFileId),
    roles: [u.role],
    tenant: tenant ? { id: tenant.id, uuid: tenant.id, name: tenant.name } : null,
  };
}
