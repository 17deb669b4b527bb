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

// ---------- the second step (one-time codes) ----------
// Wrong codes count per account and per (account, address), across challenges: a fresh password sign-in starts a new
// challenge but never clears them; only a right code does. The pair locks after 5 wrong codes (30 s, doubling), the
// account after 10 (60 s, doubling, at most 15 minutes), so 100 guesses take well over an hour (auth.test.ts).
const codeRules = [
  { lockAfter: 5, base: 30 },
  { lockAfter: 10, base: 60 },
] as const;
/** Wrong codes of an account at which its second step starts slowing down (and the activity log says so). */
export const CODE_SLOWDOWN_AFTER = codeRules[1].lockAfter;

const codeKeys = (userId: string, ip: string) => [`code-acct-ip:${userId}|${ip}`, `code-acct:${userId}`];

export async function assertCodeAttemptAllowed(tx: Executor, userId: string, ip: string): Promise<void> {
  const state = await throttleState(tx, codeKeys(userId, ip));
  const now = Date.now();
  const until = Math.max(0, ...state.map((s) => (s.lockedUntil ? s.lockedUntil.getTime() : 0)));
  if (until > now) throw problems.tooManyAttempts((until - now) / 1000);
}

/** Counts a wrong code; returns the account's wrong codes so far. */
export async function recordWrongCode(tx: Executor, userId: string, ip: string): Promise<number> {
  const keys = codeKeys(userId, ip);
  let accountFailures = 0;
  for (let i = 0; i < codeRules.length; i++) {
    const failures = await recordThrottleFailure(tx, keys[i]!, codeRules[i]!.lockAfter, codeRules[i]!.base, MAX_LOCK_SECONDS);
    if (i === codeRules.length - 1) accountFailures = failures;
  }
  return accountFailures;
}

export async function recordRightCode(tx: Executor, userId: string, ip: string): Promise<void> {
  await clearThrottle(tx, codeKeys(userId, ip));
}

// ---------- per address: password reset requests and admin-link failures ----------
// A reset request costs a mail and an admin-link guess costs nothing, so both are counted per source address (the
// forwarded one behind TRUST_PROXY): resets after 10 requests, admin-link failures after 10, each lock 60 s and doubling.
const addressRules = { reset: { lockAfter: 10, base: 60 }, 'admin-link': { lockAfter: 10, base: 60 } } as const;
export type AddressAction = keyof typeof addressRules;

export async function assertAddressAllowed(tx: Executor, action: AddressAction, ip: string): Promise<void> {
  const [state] = await throttleState(tx, [`${action}-ip:${ip}`]);
  const until = state?.lockedUntil ? state.lockedUntil.getTime() : 0;
  if (until > Date.now()) throw problems.tooManyAttempts((until - Date.now()) / 1000);
}

export async function countAddress(tx: Executor, action: AddressAction, ip: string): Promise<void> {
  const rule = addressRules[action];
  await recordThrottleFailure(tx, `${action}-ip:${ip}`, rule.lockAfter, rule.base, MAX_LOCK_SECONDS);
}

export async function recordSuccess(tx: Executor, email: string, ip: string): Promise<void> {
  const [acctIp, , acct] = keysFor(email, ip);
  await clearThrottle(tx, [acctIp!, acct!]);
}
