// A client of the encrypted-body protocol for tests (what the console's lib/payload-crypto.ts does in the browser):
// an ephemeral P-256 key pair sent as X-Client-Key, bodies encrypted to the server's published key, answers decrypted.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { CompactEncrypt, compactDecrypt } from 'jose';

export type PayloadTestClient = {
  kid: string;
  /** The X-Client-Key header value. */
  clientKey: string;
  encrypt(method: string, path: string, body: unknown, header?: Record<string, unknown>): Promise<string>;
  decrypt(compact: string): Promise<unknown>;
};

export async function payloadTestClient(app: FastifyInstance): Promise<PayloadTestClient> {
  const info = (await app.inject({ method: 'GET', url: '/api/crypto/key' })).json() as { data: { key: { kid: string; jwk: crypto.JsonWebKey } } };
  const serverKey = crypto.createPublicKey({ key: info.data.key.jwk, format: 'jwk' });
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  return {
    kid: info.data.key.kid,
    clientKey: Buffer.from(JSON.stringify({ kty, crv, x, y })).toString('base64url'),
    encrypt: (method, path, body, header = {}) =>
      new CompactEncrypt(new TextEncoder().encode(JSON.stringify(body)))
        .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM', kid: info.data.key.kid, htm: method, htu: path, ...header })
        .encrypt(serverKey),
    decrypt: async (compact) => JSON.parse(new TextDecoder().decode((await compactDecrypt(compact, privateKey)).plaintext)) as unknown,
  };
}
