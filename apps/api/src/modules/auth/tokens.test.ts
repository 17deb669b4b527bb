// Access-token verification (node:crypto HMAC, jose's rules): tokens signed here pass; every other shape, signature,
// algorithm, time, issuer, audience or type is refused. No database: the checks are pure.
import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signAccessToken, verifyAccessToken } from './tokens.js';

const key = new Uint8Array(crypto.randomBytes(32));
const jwt = { issuer: 'farmland-platform', audience: 'farmland-console', accessTtl: 900, refreshTtl: 3600, idleSeconds: 1800, reuseIntervalSeconds: 30 };
const claims = { sub: crypto.randomUUID(), sid: crypto.randomUUID(), role: 'tenant_admin' as const, tid: crypto.randomUUID() };
const now = () => Math.floor(Date.now() / 1000);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** A token with this header and payload, signed with key (or another key). */
const forge = (header: Record<string, unknown>, payload: Record<string, unknown>, with_: Uint8Array = key) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${crypto.createHmac('sha256', with_).update(input).digest('base64url')}`;
};
const good = () => ({
  sid: claims.sid,
  role: claims.role,
  tid: claims.tid,
  typ: 'access',
  sub: claims.sub,
  iss: jwt.issuer,
  aud: jwt.audience,
  iat: now(),
  exp: now() + 60,
});

describe('verifyAccessToken', () => {
  it('accepts what signAccessToken issues (jose), with its claims', async () => {
    const token = await signAccessToken(key, jwt, claims);
    expect(await verifyAccessToken(key, jwt, token)).toEqual(claims);
    expect(await verifyAccessToken(key, jwt, forge({ alg: 'HS256', typ: 'JWT' }, good()))).toEqual(claims);
    // An audience list that holds ours, and no typ header, are valid JWTs.
    expect(await verifyAccessToken(key, jwt, forge({ alg: 'HS256' }, { ...good(), aud: ['other', jwt.audience] }))).toEqual(claims);
  });

  it('refuses a forged, tampered or re-encoded signature', async () => {
    const token = await signAccessToken(key, jwt, claims);
    const [h, p, s] = token.split('.') as [string, string, string];
    const tampered = `${h}.${b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), role: 'super_admin' })}.${s}`;
    const otherKey = forge({ alg: 'HS256', typ: 'JWT' }, good(), new Uint8Array(crypto.randomBytes(32)));
    // Same bytes, padded: not the canonical base64url of the signature.
    const padded = `${h}.${p}.${s}=`;
    const wrongChar = `${h}.${p}.${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`;
    for (const t of [tampered, otherKey, padded, wrongChar, `${h}.${p}.`, `${h}.${p}`, `${token}.x`, '', 'garbage', '..']) {
      expect(await verifyAccessToken(key, jwt, t)).toBeNull();
    }
  });

  it('refuses other algorithms and extra header parameters', async () => {
    for (const header of [
      { alg: 'none' },
      { alg: 'HS512' },
      { alg: 'hs256' },
      { alg: 'HS256', crit: ['exp'] },
      { alg: 'HS256', b64: false },
      { alg: 'HS256', kid: 'x' },
      {},
    ]) {
      expect(await verifyAccessToken(key, jwt, forge(header, good()))).toBeNull();
    }
    const noneAlg = `${b64({ alg: 'none' })}.${b64(good())}.`;
    expect(await verifyAccessToken(key, jwt, noneAlg)).toBeNull();
  });

  it('refuses expired, not-yet-valid, timeless, foreign and wrongly typed tokens', async () => {
    const bad: Array<Record<string, unknown>> = [
      { exp: now() },
      { exp: now() - 10 },
      { exp: undefined },
      { exp: String(now() + 60) },
      { nbf: now() + 30 },
      { nbf: 'soon' },
      { iat: 'today' },
      { iss: 'someone-else' },
      { iss: undefined },
      { aud: 'someone-else' },
      { aud: ['someone-else'] },
      { aud: undefined },
      { typ: 'refresh' },
      { typ: undefined },
      { sub: undefined },
      { sub: 42 },
      { sid: undefined },
      { sid: null },
    ];
    for (const change of bad) {
      expect(await verifyAccessToken(key, jwt, forge({ alg: 'HS256', typ: 'JWT' }, { ...good(), ...change })), JSON.stringify(change)).toBeNull();
    }
    // Not an object at all.
    const input = `${b64({ alg: 'HS256' })}.${Buffer.from('[1,2]').toString('base64url')}`;
    expect(await verifyAccessToken(key, jwt, `${input}.${crypto.createHmac('sha256', key).update(input).digest('base64url')}`)).toBeNull();
    // jose agrees on the valid shape: a token jose signs with a past expiry is refused here too.
    const expired = await new SignJWT(good())
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(now() - 1)
      .sign(key);
    expect(await verifyAccessToken(key, jwt, expired)).toBeNull();
  });
});
