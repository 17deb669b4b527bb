// Encrypted request and response bodies (docs/requirements.md §7; docs/design-rules.md; docs/decisions/0009-hardening.md, "Encrypted bodies").
// JWE compact serialisation, ECDH-ES key agreement on P-256, A256GCM content encryption:
// - the server's key pair is derived from APP_SECRET and PAYLOAD_KEY_VERSION (rotation: raise the version; the
//   previous version's key still decrypts, so that a console opened before the rotation keeps working);
// - a request body is encrypted to the server's public key, with the method and path in its protected header, and
//   iat, jti and (with a bearer token) ath, so that it is taken once, within the replay window, and only with the
//   session it was made for (docs/decisions/0045-encrypted-body-replay.md);
// - a response is encrypted to the client's ephemeral public key, which the client sends in X-Client-Key.
import crypto from 'node:crypto';
import { CompactEncrypt, compactDecrypt, decodeProtectedHeader, type CompactJWEHeaderParameters } from 'jose';
import { problems } from './problems.js';

export const PAYLOAD_MEDIA_TYPE = 'application/jose';
export const CLIENT_KEY_HEADER = 'x-client-key';
export const PAYLOAD_ALG = 'ECDH-ES' as const;
export const PAYLOAD_ENC = 'A256GCM' as const;

// The order n of P-256's base point: a private scalar is in [1, n-1].
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

export type PublicEcJwk = { kty: 'EC'; crv: 'P-256'; x: string; y: string };
export type PayloadKey = { kid: string; version: number; privateKey: crypto.KeyObject; publicJwk: PublicEcJwk };
/** The current key (published) and every key that still decrypts (current and previous version). */
export type PayloadKeyring = { current: PayloadKey; accepted: ReadonlyMap<string, PayloadKey> };

/** One version's key pair, derived (HKDF-SHA256, 48 bytes reduced mod n-1, plus 1) so that every process agrees. */
export function derivePayloadKey(secret: string, version: number): PayloadKey {
  const okm = Buffer.from(crypto.hkdfSync('sha256', secret, 'farmland-platform', `payload-ecdh-p256-v${version}`, 48));
  const d = (BigInt(`0x${okm.toString('hex')}`) % (P256_ORDER - 1n)) + 1n;
  const dBytes = Buffer.from(d.toString(16).padStart(64, '0'), 'hex');
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.setPrivateKey(dBytes);
  const point = ecdh.getPublicKey(); // 0x04 || x || y
  const publicJwk: PublicEcJwk = { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') };
  const privateKey = crypto.createPrivateKey({ key: { ...publicJwk, d: dBytes.toString('base64url') }, format: 'jwk' });
  // The kid names the version and the key itself, so a kid from another deployment (another secret) is unknown here.
  const fingerprint = crypto.createHash('sha256').update(point).digest('base64url').slice(0, 10);
  return { kid: `p256-v${version}-${fingerprint}`, version, privateKey, publicJwk };
}

export function payloadKeyring(secret: string, version: number): PayloadKeyring {
  const current = derivePayloadKey(secret, version);
  const accepted = new Map<string, PayloadKey>([[current.kid, current]]);
  if (version > 1) {
    const previous = derivePayloadKey(secret, version - 1);
    accepted.set(previous.kid, previous);
  }
  return { current, accepted };
}

const CLIENT_KEY_MAX = 512;
const clientKeys = new Map<string, crypto.KeyObject>();

/**
 * The client's public key from its X-Client-Key header (base64url of a P-256 public JWK), checked to be a point on
 * the curve. Parsed keys are remembered (a console sends the same key with every call), at most 1,000 of them.
 */
export function parseClientKey(header: string): crypto.KeyObject {
  const known = clientKeys.get(header);
  if (known) return known;
  const invalid = () => problems.field('X-Client-Key', 'Must be a base64url-encoded P-256 public key (JWK)');
  if (header.length > CLIENT_KEY_MAX || !/^[A-Za-z0-9_-]+$/.test(header)) throw invalid();
  let jwk: unknown;
  try {
    jwk = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const j = jwk as Partial<PublicEcJwk> & { d?: unknown };
  if (!jwk || typeof jwk !== 'object' || j.kty !== 'EC' || j.crv !== 'P-256' || typeof j.x !== 'string' || typeof j.y !== 'string' || j.d !== undefined)
    throw invalid();
  let key: crypto.KeyObject;
  try {
    // Node refuses a point that is not on the curve here (invalid-curve attacks on ECDH need one).
    key = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: j.x, y: j.y }, format: 'jwk' });
  } catch {
    throw invalid();
  }
  if (clientKeys.size >= 1000) clientKeys.delete(clientKeys.keys().next().value!);
  clientKeys.set(header, key);
  return key;
}

/**
 * What a body is bound to: the request's method and path, and its bearer token (null without one). remember() records
 * a jti until the given time (epoch seconds) and answers false when it was already recorded (a replay).
 */
export type RequestBinding = { method: string; path: string; bearer: string | null; remember: (jti: string, untilSeconds: number) => Promise<boolean> };

/**
 * How far a body's iat may be from the server's clock, either way (seconds): a replayed body older than this is
 * refused by its iat, a newer one by its jti (kept this long). A client whose clock is off reads the server's Date on
 * a payload_stale answer and encrypts again (apps/web/src/lib/payload-crypto.ts).
 */
export const PAYLOAD_REPLAY_WINDOW_SECONDS = 300;
const JTI = /^[A-Za-z0-9_-]{16,64}$/;

/** The ath of a bearer token: base64url of its SHA-256 (as in DPoP, RFC 9449 §4.2). */
export const accessTokenHash = (token: string): string => crypto.createHash('sha256').update(token).digest('base64url');

/** The bearer token of an Authorization header, or null: read as plugins/auth.ts reads it. */
export function bearerOf(header: string | undefined): string | null {
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
  return token ? token : null;
}

/** The path a body is bound to: the URL without its query. */
export const bindingPath = (url: string): string => url.split('?', 1)[0]!;

/**
 * Decrypts a request body. The protected header must name a key this server holds (kid), the agreed algorithms, the
 * request's own method and path (htm, htu), so that a body captured on one call cannot be replayed on another; an iat
 * within the replay window and a jti not seen before, so that it cannot be replayed on the same call; and, when the
 * request carries a bearer token, that token's hash (ath), so that it cannot be replayed under another session (and a
 * body made without a session cannot be sent with one, nor the other way round).
 */
export async function decryptRequestBody(keyring: PayloadKeyring, compact: string, binding: RequestBinding): Promise<string> {
  let header: CompactJWEHeaderParameters;
  try {
    header = decodeProtectedHeader(compact.trim()) as CompactJWEHeaderParameters;
  } catch {
    throw problems.badRequest('payload_undecryptable', 'The encrypted body is not a compact JWE.');
  }
  if (header.alg !== PAYLOAD_ALG || header.enc !== PAYLOAD_ENC) {
    throw problems.badRequest('payload_undecryptable', `The encrypted body must use alg ${PAYLOAD_ALG} and enc ${PAYLOAD_ENC}.`);
  }
  const key = typeof header.kid === 'string' ? keyring.accepted.get(header.kid) : undefined;
  if (!key)
    throw problems.badRequest('payload_key_unknown', 'The body was encrypted to a key this server does not hold. Fetch GET /api/crypto/key and encrypt again.');
  if (header['htm'] !== binding.method || header['htu'] !== binding.path) {
    throw problems.badRequest('payload_misdirected', 'The encrypted body was made for another request (htm and htu must name this method and path).');
  }
  const { iat, jti, ath } = header as { iat?: unknown; jti?: unknown; ath?: unknown };
  if (typeof iat !== 'number' || !Number.isFinite(iat) || typeof jti !== 'string' || !JTI.test(jti)) throw problems.payloadUnbound();
  const now = Date.now() / 1000;
  if (Math.abs(now - iat) > PAYLOAD_REPLAY_WINDOW_SECONDS) throw problems.payloadStale(PAYLOAD_REPLAY_WINDOW_SECONDS);
  const expected = binding.bearer === null ? undefined : accessTokenHash(binding.bearer);
  if (ath !== expected) throw problems.payloadSessionMismatch();
  let text: string;
  try {
    const { plaintext } = await compactDecrypt(compact.trim(), key.privateKey, {
      keyManagementAlgorithms: [PAYLOAD_ALG],
      contentEncryptionAlgorithms: [PAYLOAD_ENC],
    });
    text = new TextDecoder('utf-8', { fatal: true }).decode(plaintext);
  } catch {
    throw problems.badRequest('payload_undecryptable', 'The encrypted body could not be decrypted (a changed byte, or a wrong key).');
  }
  // Only an authentic header reaches the store (the protected header is the ciphertext's associated data).
  if (!(await binding.remember(jti, Math.ceil(iat) + PAYLOAD_REPLAY_WINDOW_SECONDS))) throw problems.payloadReplayed();
  return text;
}

/** Encrypts a response body to the client's key. */
export async function encryptResponseBody(clientKey: crypto.KeyObject, body: string | Buffer): Promise<string> {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body);
  return new CompactEncrypt(bytes).setProtectedHeader({ alg: PAYLOAD_ALG, enc: PAYLOAD_ENC, cty: 'json' }).encrypt(clientKey);
}
