// Encrypted bodies, as the API's PAYLOAD_ENCRYPTION asks (the algorithm of apps/api/src/lib/payload-crypto.ts, written
// here for the SDK): a JSON request body is a compact JWE (ECDH-ES on P-256, A256GCM) to the server's published key
// (GET /api/crypto/key), bound to the call's method and path (htm, htu), made once (iat, a random jti) and, with a
// bearer token, for its session (ath: base64url SHA-256 of the token); the answer comes back encrypted to this client's
// ephemeral key, sent in X-Client-Key. With mode 'required' the server refuses plain bodies; with 'optional' the SDK
// encrypts only when asked (encryption: 'always').
import { CompactEncrypt, compactDecrypt, exportJWK, generateKeyPair, importJWK } from 'jose';

export const PAYLOAD_MEDIA_TYPE = 'application/jose';

type KeyInfo = { mode: 'required' | 'optional' | 'off'; key: { kid: string; jwk: Record<string, unknown> } | null };

const b64url = (bytes: Uint8Array): string => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

export type PayloadSession = {
  mode: KeyInfo['mode'];
  /** X-Client-Key: base64url of this client's public JWK. */
  clientKey: string;
  encrypt(method: string, path: string, body: string, bearer: string | null): Promise<string>;
  decrypt(compact: string): Promise<string>;
};

/** Loads the server's key and makes this client's ephemeral key pair (its private half never leaves this process). */
export async function payloadSession(baseUrl: string, fetchImpl: typeof fetch): Promise<PayloadSession> {
  const res = await fetchImpl(new Request(`${baseUrl}/api/crypto/key`, { headers: { accept: 'application/json' } }));
  if (!res.ok) throw new Error(`The encryption key could not be loaded (${res.status})`);
  const info = ((await res.json()) as { data: KeyInfo }).data;
  const pair = await generateKeyPair('ECDH-ES', { crv: 'P-256' });
  const { kty, crv, x, y } = await exportJWK(pair.publicKey);
  const clientKey = b64url(new TextEncoder().encode(JSON.stringify({ kty, crv, x, y })));
  const serverKey = info.key ? await importJWK(info.key.jwk, 'ECDH-ES') : null;
  return {
    mode: info.mode,
    clientKey,
    encrypt: async (method, path, body, bearer) => {
      if (!serverKey || !info.key) throw new Error('The server publishes no encryption key (PAYLOAD_ENCRYPTION=off)');
      const jti = b64url(crypto.getRandomValues(new Uint8Array(16)));
      const ath = bearer ? b64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(bearer)))) : null;
      return new CompactEncrypt(new TextEncoder().encode(body))
        .setProtectedHeader({
          alg: 'ECDH-ES',
          enc: 'A256GCM',
          kid: info.key.kid,
          htm: method,
          htu: path,
          iat: Math.floor(Date.now() / 1000),
          jti,
          ...(ath ? { ath } : {}),
        })
        .encrypt(serverKey);
    },
    decrypt: async (compact) => {
      const { plaintext } = await compactDecrypt(compact.trim(), pair.privateKey, {
        keyManagementAlgorithms: ['ECDH-ES'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      return new TextDecoder().decode(plaintext);
    },
  };
}
