// The signed-in session, kept in memory only: the access token and the user. The refresh token never reaches
// JavaScript (the API keeps it in an httpOnly cookie), so a reload restores the session through a refresh call.
import { useSyncExternalStore } from 'react';
import type { RoleName, SessionUser } from '@farmland/contracts';
import { paths } from './paths';

export type TenantGateCode = 'tenant_inactive' | 'tenant_suspended' | 'license_revoked' | 'license_expired';
export const TENANT_GATE_CODES: readonly TenantGateCode[] = ['tenant_inactive', 'tenant_suspended', 'license_revoked', 'license_expired'];

export type SessionStatus = 'restoring' | 'authenticated' | 'anonymous';

export type SessionState = {
  status: SessionStatus;
  user: SessionUser | null;
  /** Set when the API refused the tenant (403 with a gate code): the console shows a full-page message. */
  gate: { code: TenantGateCode; message: string } | null;
};

let accessToken: string | null = null;

/**
 * A hint (not a secret) that this browser had a session, so that an anonymous visit skips the refresh call that
 * could only answer 401. The refresh token itself stays in the httpOnly cookie.
 */
const SESSION_HINT = 'farmland.session';

function setHint(on: boolean): void {
  try {
    if (on) localStorage.setItem(SESSION_HINT, '1');
    else localStorage.removeItem(SESSION_HINT);
  } catch {
    // storage unavailable: the restore just always tries
  }
}

export function hadSession(): boolean {
  try {
    return localStorage.getItem(SESSION_HINT) !== null;
  } catch {
    return true;
  }
}
let state: SessionState = { status: 'restoring', user: null, gate: null };
const listeners = new Set<() => void>();

function emit(next: SessionState): void {
  state = next;
  for (const l of listeners) l();
}

export const getAccessToken = (): string | null => accessToken;
export const getSession = (): SessionState => state;

export function setAccessToken(token: string): void {
  accessToken = token;
}

export function startSession(user: SessionUser, access: string): void {
  accessToken = access;
  setHint(true);
  emit({ status: 'authenticated', user, gate: null });
}

export function updateSessionUser(patch: Partial<SessionUser>): void {
  if (!state.user) return;
  emit({ ...state, user: { ...state.user, ...patch } });
}

/** keepHint: the session was not seen to end (no answer from the server), so the next load still tries to restore it. */
export function clearSession(opts: { keepHint?: boolean } = {}): void {
  accessToken = null;
  if (!opts.keepHint) setHint(false);
  emit({ status: 'anonymous', user: null, gate: state.gate });
}

export function setTenantGate(gate: SessionState['gate']): void {
  emit({ ...state, gate });
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, getSession, getSession);
}

export function primaryRole(user: Pick<SessionUser, 'roles'> | null): RoleName | null {
  if (!user) return null;
  if (user.roles.includes('super_admin')) return 'super_admin';
  if (user.roles.includes('tenant_admin')) return 'tenant_admin';
  return user.roles.includes('agent') ? 'agent' : null;
}

/** Where a role lands after sign-in. Agents have no console (docs/requirements.md §6). */
export function landingPath(role: RoleName | null): string {
  if (role === 'super_admin') return paths.provider.dashboard;
  if (role === 'tenant_admin') return paths.tenant.dashboard;
  if (role === 'agent') return paths.notForAgents;
  return paths.home;
}
