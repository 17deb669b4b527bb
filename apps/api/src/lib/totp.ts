// TOTP per RFC 6238 (30-second steps, 6 digits, SHA-1 as authenticator apps expect), with the matched time step returned
// so that the caller can refuse a code that was already used.
import { Secret, TOTP } from 'otpauth';

export const TOTP_ISSUER = 'Farmland Platform';

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

export function totpUri(secret: string, account: string): string {
  return new TOTP({ issuer: TOTP_ISSUER, label: account, secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).toString();
}

/** Returns the time step the code belongs to (window ±1 step), or null when it matches none. */
export function matchTotp(secret: string, code: string, now = Date.now()): number | null {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / 30) + delta;
}

export function generateTotp(secret: string, now = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: now });
}
