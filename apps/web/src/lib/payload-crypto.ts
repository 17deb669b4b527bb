// Encrypted bodies (docs/requirements.md §7; the server side is apps/api/src/plugins/payload-encryption.ts):
// every JSON body the console sends is a compact JWE (ECDH-ES on P-256, A256GCM) to the server's published key,
// bound to the call's method and path, made once (iat, a fresh jti) and for this session (ath: the access token's
// hash), and every JSON answer comes back encrypted to this page's own ephemeral key,
// whose private half never leaves WebCrypto (non-extractable). File uploads are sent as they are.
import type { PayloadKeyInfo } from '@farmland/contracts';
import type * as JoseModule from 'jose';

type Jose = typeof JoseModule;
type Session = {
  jose: Jose;
  mode: PayloadKeyInfo['mode'];
  kid: string | null;
  serverKey: CryptoKey | null;
  clientPrivate: CryptoKey;
  /** The X-Client-Key header: base64url of the public JWK. */
  clientHeader: string;
};

export const PAYLOAD_MEDIA_TYPE = 'application/jose';

let session: Promise<Session> | null = null;
let settled: Session | null = null;
let clientPair: Promise<{ privateKey: CryptoKey; header: string }> | null = null;

const base64url = (text: string): string =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

async function load(fresh: boolean): Promise<Session> {
  const [jose, res] = await Promise.all([
    import('jose'),
    fetch('/api/crypto/key', { headers: { Accept: 'application/json' }, cache: fresh ? 'no-cache' : 'default', credentials: 'same-origin' }),
  ]);
  if (!res.ok) throw new Error(`The encryption key could not be loaded (${res.status})`);
  const info = ((await res.json()) as { data: PayloadKeyInfo }).data;
  // One key pair per page load: a reload makes a new one.
  clientPair ??= (async () => {
    const pair = await jose.generateKeyPair('ECDH-ES', { crv: 'P-256' });
    const { kty, crv, x, y } = await jose.exportJWK(pair.publicKey);
    return { privateKey: pair.privateKey, header: base64url(JSON.stringify({ kty, crv, x, y })) };
  })();
  const pair = await clientPair;
  // An EC public JWK imports as a CryptoKey (a Uint8Array is only for symmetric keys).
  const imported: unknown = info.key ? await jose.importJWK({ ...info.key.jwk }, 'ECDH-ES') : null;
  const serverKey = imported as CryptoKey | null;
  const s: Session = { jose, mode: info.mode, kid: info.key?.kid ?? null, serverKey, clientPrivate: pair.privateKey, clientHeader: pair.header };
  settled = s;
  return s;
}

/** The key material, loaded once (a failure is not kept: the next call tries again). */
export function payloadSession(fresh = false): Promise<Session> {
  if (fresh) session = null;
  session ??= load(fresh).catch((err: unknown) => {
    session = null;
    throw err;
  });
  return session;
}

/** After the server said it no longer holds our key (a rotation while the page was open): fetch the key anew. */
export function forgetServerKey(): void {
  session = null;
}

/** The X-Client-Key header once the key material is loaded (the map's tile requests read it synchronously). */
export function clientKeyHeader(): string | null {
  return settled && settled.mode !== 'off' ? settled.clientHeader : null;
}

/** How far the server's clock is ahead of this one (ms), learnt from a payload_stale answer's Date header. */
let clockOffsetMs = 0;

/** After a payload_stale answer: this page's clock is off, so iat follows the server's clock from now on. */
export function noteServerClock(res: Response): boolean {
  const date = Date.parse(res.headers.get('date') ?? '');
  if (Number.isNaN(date)) return false;
  clockOffsetMs = date - Date.now();
  return true;
}

/** base64url of bytes. */
const bytesToBase64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/**
 * The JWE of a JSON body for this method and path, made once (iat, a random jti) and, with an access token, for its
 * session (ath), or null when encryption is off. The server checks all of them.
 */
export async function encryptBody(s: Session, method: string, path: string, body: unknown, access: string | null): Promise<string | null> {
  if (!s.serverKey || !s.kid) return null;
  const jti = bytesToBase64url(crypto.getRandomValues(new Uint8Array(16)));
  const iat = Math.floor((Date.now() + clockOffsetMs) / 1000);
  const ath = access ? bytesToBase64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(access)))) : null;
  return new s.jose.CompactEncrypt(new TextEncoder().encode(JSON.stringify(body)))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM', kid: s.kid, htm: method, htu: path, iat, jti, ...(ath ? { ath } : {}) })
    .encrypt(s.serverKey);
}

/** A JSON answer: decrypted when it came encrypted (application/jose), parsed as it is otherwise. */
export async function readJsonBody(res: Response): Promise<unknown> {
  const type = res.headers.get('content-type') ?? '';
  if (!type.startsWith(PAYLOAD_MEDIA_TYPE)) return res.json();
  const s = await payloadSession();
  const { plaintext } = await s.jose.compactDecrypt((await res.text()).trim(), s.clientPrivate, {
    keyManagementAlgorithms: ['ECDH-ES'],
    contentEncryptionAlgorithms: ['A256GCM'],
  });
  return JSON.parse(new TextDecoder().decode(plaintext)) as unknown;
}

/** Whether a response carries a JSON body, encrypted or not. */
export const isJsonResponse = (res: Response): boolean => {
  const type = res.headers.get('content-type') ?? '';
  return type.includes('json') || type.startsWith(PAYLOAD_MEDIA_TYPE);
};
