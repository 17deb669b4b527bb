// POST /auth/admin-login/: signs a super-admin in once through an admin link (/#q=<request_id>).
import type { SessionResult } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';

export const adminLogin = (requestId: string) =>
  api<Envelope<SessionResult>>('/auth/admin-login/', { method: 'POST', body: { request_id: requestId }, session: false });
