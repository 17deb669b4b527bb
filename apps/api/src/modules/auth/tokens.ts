// Access tokens: HS256 JWTs with a 15-minute-or-less life; verification pins the algorithm, issuer and audience.
import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import type { RoleName } from '@farmland/contracts';
import type { Config } from '../../config.js';

export type AccessClaims = { sub: string; sid: string; role: RoleName; tid: string | null };

export async function signAccessToken(key: Uint8Array, jwt: Pick<Config['jwt'], 'issuer' | 'audience' | 'accessTtl'>, claims: AccessClaims): Promise<string> {
  return new SignJWT({ sid: claims.sid, role: claims.role, tid: claims.tid, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(jwt.issuer)
    .setAudience(jwt.audience)
    .setIssuedAt()
    .setExpirationTime(`${jwt.accessTtl}s`)
    .sign(key);
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** A base64url segment as a JSON object, or null. */
function jsonSegment(segment: string): Record<string, unknown> | null {
  if (!SEGMENT.test(segment)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Returns the claims, or null for any token that is malformed, forged, expired, not yet valid, for another issuer or
 * audience, or of another type. Every authenticated request verifies one, so this checks the compact HS256 JWS with
 * node:crypto's HMAC at once instead of jose's WebCrypto job on the thread pool (~10% of the API thread's time per
 * request under load; docs/decisions/0018-fewer-round-trips-per-request.md). The rules are jose's jwtVerify with the
 * options it had (algorithms ['HS256'], issuer, audience, required exp/sub/sid, no clock tolerance), stricter where
 * jose is lenient: the header may hold only alg and typ, and the signature must be the canonical base64url.
 */
export async function verifyAccessToken(key: Uint8Array, jwt: Pick<Config['jwt'], 'issuer' | 'audience'>, token: string): Promise<AccessClaims | null> {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [head, body, signature] = parts as [string, string, string];
  const header = jsonSegment(head);
  if (!header || header['alg'] !== 'HS256' || Object.keys(header).some((k) => k !== 'alg' && k !== 'typ')) return null;
  if (!SEGMENT.test(signature)) return null;
  const expected = Buffer.from(crypto.createHmac('sha256', key).update(`${head}.${body}`).digest('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  const payload = jsonSegment(body);
  if (!payload) return null;
  const now = Math.floor(Date.now() / 1000);
  const { exp, nbf, iat, iss, aud, sub, sid } = payload;
  if (typeof exp !== 'number' || exp <= now) return null;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now)) return null;
  if (iat !== undefined && typeof iat !== 'number') return null;
  if (iss !== jwt.issuer) return null;
  if (!(aud === jwt.audience || (Array.isArray(aud) && aud.includes(jwt.audience)))) return null;
  if (payload['typ'] !== 'access' || typeof sub !== 'string' || typeof sid !== 'string') return null;
  return { sub, sid, role: payload['role'] as RoleName, tid: (payload['tid'] as string | null) ?? null };
}
