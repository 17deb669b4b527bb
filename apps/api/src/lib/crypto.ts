// Secrets at rest and random tokens: keys derived from APP_SECRET, opaque tokens stored only as SHA-256 hashes.
import crypto from 'node:crypto';
import { payloadKeyring, type PayloadKeyring } from './payload-crypto.js';

/** refresh: the key of refresh-token successors (successorToken); a label of its own, so no other MAC can collide with one. */
export type Keys = { jwt: Uint8Array; encryption: Buffer; signing: Buffer; refresh: Buffer; payload: PayloadKeyring };

/** Every key of the process, from APP_SECRET; payloadKeyVersion picks the body-encryption key pair (PAYLOAD_KEY_VERSION). */
export function deriveKeys(secret: string, payloadKeyVersion = 1): Keys {
  const derive = (label: string) => Buffer.from(crypto.hkdfSync('sha256', secret, 'farmland-platform', label, 32));
  return {
    jwt: new Uint8Array(derive('jwt')),
    encryption: derive('encryption'),
    signing: derive('signing'),
    refresh: derive('refresh-successor'),
    payload: payloadKeyring(secret, payloadKeyVersion),
  };
}

export const randomToken = (bytes = 32): string => crypto.randomBytes(bytes).toString('base64url');
export const sha256 = (value: string | Buffer): string => crypto.createHash('sha256').update(value).digest('hex');

/**
 * The refresh token that follows `token` in its family: HMAC-SHA256 of the token under the refresh key. Deterministic,
 * so that a token presented again within the reuse interval gets the same successor without the successor being stored
 * anywhere but as its hash (docs/decisions/0047-refresh-token-reuse-interval.md); unguessable without APP_SECRET.
 */
export const successorToken = (key: Buffer, token: string): string => crypto.createHmac('sha256', key).update(`refresh-successor:${token}`).digest('base64url');

/** AES-256-GCM: iv.tag.ciphertext, base64url. */
export function encrypt(key: Buffer, plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

export function decrypt(key: Buffer, boxed: string): string {
  const [iv, tag, data] = boxed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !tag || !data) throw new Error('Malformed ciphertext');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

/** A compact signed value: base64url(payload).base64url(hmac). */
export function sign(key: Buffer, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const mac = crypto.createHmac('sha256', key).update(body).digest('base64url');
  return `${body}.${mac}`;
}

export function verifySigned(key: Buffer, value: string): unknown {
  const [body, mac] = value.split('.');
  if (!body || !mac) return null;
  const expected = crypto.createHmac('sha256', key).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
  } catch {
    return null;
  }
}
