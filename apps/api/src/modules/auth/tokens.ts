// Access tokens: HS256 JWTs with a 15-minute-or-less life; verification pins the algorithm, issuer and audience.
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { RoleName } from '@farmland/contracts';
import type { Config } from '../../config.js';

export type AccessClaims = { sub: string; sid: string; role: RoleName; tid: string | null };

const ALGORITHMS = ['HS256'];

export async function signAccessToken(key: Uint8Array, jwt: Config['jwt'], claims: AccessClaims): Promise<string> {
  return new SignJWT({ sid: claims.sid, role: claims.role, tid: claims.tid, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(jwt.issuer)
    .setAudience(jwt.audience)
    .setIssuedAt()
    .setExpirationTime(`${jwt.accessTtl}s`)
    .sign(key);
}

/** Returns the claims, or null for any token that is malformed, forged, expired, for another audience or of another type. */
export async function verifyAccessToken(key: Uint8Array, jwt: Config['jwt'], token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ALGORITHMS,
      issuer: jwt.issuer,
      audience: jwt.audience,
      requiredClaims: ['exp', 'sub', 'sid'],
    });
    if (payload['typ'] !== 'access' || typeof payload.sub !== 'string' || typeof payload['sid'] !== 'string') return null;
    return { sub: payload.sub, sid: payload['sid'], role: payload['role'] as RoleName, tid: (payload['tid'] as string | null) ?? null };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}
