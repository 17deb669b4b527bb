// The device session. Sign-in is the platform's own (POST /auth/login/, then the two-factor code, or the enrolment
// for an account without two-factor). The refresh token lives in the API's httpOnly cookie (path /api/auth, kept for
// the refresh lifetime), so the device stays signed in across restarts and offline days; the access token is only in
// memory and is renewed from the cookie whenever the network is there. The agent's profile (not a secret) is kept in
// IndexedDB so that the app opens offline. A refused refresh (signed out, suspended, reset) ends the device session;
// the queue stays on the device.
import type { SessionResult, SessionUser } from '@farmland/contracts';
import { refreshSession, setSessionEndedHandler } from '../lib/api-client';
import { clearSession, getAccessToken, startSession } from '../lib/session-store';
import { logout as endServerSession } from '../lib/session';
import { getKv, setKv } from './db';

const USER_KEY = 'user';

export async function storedUser(): Promise<SessionUser | null> {
  return (await getKv<SessionUser>(USER_KEY)) ?? null;
}

export async function beginDeviceSession(result: SessionResult): Promise<void> {
  await setKv(USER_KEY, result.user);
  await setKv('sessionEnded', 0);
  startSession(result.user, result.access);
}

/**
 * Renews the access token from the cookie when online. 'ended' when the server refused it (the queue is kept);
 * 'offline' when there was no answer (the app keeps working from the device).
 */
export async function renewDeviceSession(user: SessionUser): Promise<'ok' | 'ended' | 'offline'> {
  if (getAccessToken()) return 'ok';
  const outcome = await refreshSession();
  if (outcome === 'ok') {
    startSession(user, getAccessToken()!);
    return 'ok';
  }
  if (outcome === 'refused') {
    await markSessionEnded();
    return 'ended';
  }
  return 'offline';
}

export async function markSessionEnded(): Promise<void> {
  await setKv('sessionEnded', 1);
  clearSession();
}

export async function sessionEndedFlag(): Promise<boolean> {
  return (await getKv<number>('sessionEnded')) === 1;
}

/** A 401 on any call after the refresh ends the device session (not a page change as in the console). */
export function onSessionEnded(handler: () => void): void {
  setSessionEndedHandler(() => {
    void markSessionEnded().then(handler);
  });
}

/** Signs out on the server and forgets the agent; the queue stays (another sign-in sends it). */
export async function signOut(): Promise<void> {
  await endServerSession();
  await setKv(USER_KEY, null);
}
