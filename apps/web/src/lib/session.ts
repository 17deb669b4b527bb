// Session lifecycle: restore on load (refresh cookie → access token → profile), start after sign-in, and logout.
import type { SessionResult, SessionUser, UserProfile } from '@farmland/contracts';
import { api, NetworkError, refreshSession } from './api-client';
import { clearSession, getAccessToken, getSession, hadSession, startSession } from './session-store';

/** The user id (sub) of an access token; the token is trusted as the API issued it, this only reads it. */
export function tokenSubject(token: string): string | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const payload: unknown = JSON.parse(json);
    return payload && typeof payload === 'object' && 'sub' in payload && typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}

export function profileToSessionUser(p: UserProfile): SessionUser {
  return { id: p.id, email: p.email, first_name: p.first_name, last_name: p.last_name, image: p.image, roles: p.roles, tenant: p.tenant };
}

let restoring: Promise<void> | null = null;

/** Runs once at start-up: a valid refresh cookie brings the session back after a reload. */
export function restoreSession(): Promise<void> {
  restoring ??= (async () => {
    if (getSession().status === 'authenticated') return;
    if (!hadSession()) {
      clearSession();
      return;
    }
    const outcome = await refreshSession();
    if (outcome === 'unreachable') {
      // The page is being left (a reload aborted this call) or the server cannot be reached: keep the hint, so the
      // next load tries again instead of taking the session for ended.
      clearSession({ keepHint: true });
      return;
    }
    const token = outcome === 'ok' ? getAccessToken() : null;
    const sub = token ? tokenSubject(token) : null;
    if (!token || !sub) {
      clearSession();
      return;
    }
    try {
      const res = await api<{ data: UserProfile }>(`/accounts/users/${sub}/`);
      startSession(profileToSessionUser(res.data), token);
    } catch (err) {
      clearSession({ keepHint: err instanceof NetworkError || (err instanceof DOMException && err.name === 'AbortError') });
    }
  })();
  return restoring;
}

export function beginSession(result: SessionResult): void {
  startSession(result.user, result.access);
}

/** Ends the session on the server (which also clears the refresh cookie), then locally. */
export async function logout(): Promise<void> {
  try {
    if (getAccessToken()) await api('/auth/logout/', { method: 'POST', body: {} });
  } catch {
    // The session is ended locally whatever the server answered.
  } finally {
    clearSession();
  }
}
