// Failed sign-in throttling, per account+IP, per IP and per account. Locks grow exponentially but never beyond 15 minutes,
// and a success clears the account's counters: an attacker can slow a real user down, never lock them out for good.
import type { Executor } from '../../db/client.js';
import { problems } from '../../lib/problems.js';
import { clearThrottle, recordThrottleFailure, throttleState } from './auth.queries.js';

const MAX_LOCK_SECONDS = 15 * 60;
const rules = [
  { prefix: 'acct-ip', lockAfter: 5, base: 30 },
  { prefix: 'ip', lockAfter: 30, base: 30 },
  { prefix: 'acct', lockAfter: 50, base: 60 },
] as const;

function keysFor(email: string, ip: string) {
  return [`acct-ip:${email}|${ip}`, `ip:${ip}`, `acct:${email}`];
}

export async function assertNotThrottled(tx: Executor, email: string, ip: string): Promise<void> {
  const state = await throttleState(tx, keysFor(email, ip));
  const now = Date.now();
  const until = Math.max(0, ...state.map((s) => (s.lockedUntil ? s.lockedUntil.getTime() : 0)));
  if (until > now) throw problems.tooManyAttempts((until - now) / 1000);
}

export async function recordFailure(tx: Executor, email: string, ip: string): Promise<void> {
  const keys = keysFor(email, ip);
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    await recordThrottleFailure(tx, keys[i]!, rule.lockAfter, rule.base, MAX_LOCK_SECONDS);
  }
}

export async function recordSuccess(tx: Executor, email: string, ip: string): Promise<void> {
  const [acctIp, , acct] = keysFor(email, ip);
  await clearThrottle(tx, [acctIp!, acct!]);
}
