// A client of the encrypted-body protocol for tests (what the console's lib/payload-crypto.ts does in the browser):
// an ephemeral P-256 key pair sent as X-Client-Key, bodies encrypted to the server's published key with iat, a fresh
// jti and the bearer token's hash (ath) in the protected header, answers decrypted.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { CompactEncrypt, compactDecrypt } from 'jose';

export type PayloadTestClient = {
  kid: string;
  /** The X-Client-Key header value. */
  clientKey: string;
  /** header: protected-header fields to add or override (undefined removes one). */
  encrypt(method: string, path: string, body: unknown, header?: Record<string, unknown>): Promise<string>;
  decrypt(compact: string): Promise<unknown>;
};

/** The ath of a bearer token (base64url SHA-256). */
export const ath = (token: string): string => crypto.createHash('sha256').update(token).digest('base64url');

/**
 * access: the bearer token the bodies will be sent with (read at each encryption, as a caller's token can be renewed),
 * or null for calls without one.
 */
export async function payloadTestClient(app: FastifyInstance, access: (() => string | null) | null = null): Promise<PayloadTestClient> {
  const info = (await app.inject({ method: 'GET', url: '/api/crypto/key' })).json<{ data: { key: { kid: string; jwk: crypto.JsonWebKey } } }>();
  const serverKey = crypto.createPublicKey({ key: info.data.key.jwk, format: 'jwk' });
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  return {
    kid: info.data.key.kid,
    clientKey: Buffer.from(JSON.stringify({ kty, crv, x, y })).toString('base64url'),
    encrypt: (method, path, body, header = {}) => {
      const token = access ? access() : null;
      const merged: Record<string, unknown> = {
        alg: 'ECDH-ES',
        enc: 'A256GCM',
        kid: info.data.key.kid,
        htm: method,
        htu: path,
        iat: Math.floor(Date.now() / 1000),
        jti: crypto.randomBytes(16).toString('base64url'),
        ...(token ? { ath: ath(token) } : {}),
        ...header,
      };
      for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
      return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(body))).setProtectedHeader(merged as { alg: string; enc: string }).encrypt(serverKey);
    },
    decrypt: async (compact) => JSON.parse(new TextDecoder().decode((await compactDecrypt(compact, privateKey)).plaintext)) as unknown,
  };
}
