// The API beside the page, for tests that arrange data or compare the screen with the API: the page's own cookies
// (page.request), a fresh access token from its refresh cookie, and bodies encrypted as the console encrypts them, iat,
// jti and ath included (the suite runs the server with PAYLOAD_ENCRYPTION=required, so plain JSON would be refused).
import crypto from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { CompactEncrypt, compactDecrypt } from 'jose';

export type ApiAnswer<T = any> = { status: number; body: T; contentType: string };

export type ConsoleApi = {
  /** A fresh access token through the page's refresh cookie (the console keeps its own). */
  token(): Promise<string>;
  /** A call with the session's token, or (auth: false) without it, e.g. with an SDK license key in headers. */
  call<T = any>(method: string, path: string, body?: unknown, opts?: { auth?: boolean; headers?: Record<string, string> }): Promise<ApiAnswer<T>>;
  /** GET with a fresh token; returns the envelope's data. */
  get<T = any>(path: string): Promise<T>;
};

export async function consoleApi(page: Page): Promise<ConsoleApi> {
  const info = (await (await page.request.get('/api/crypto/key')).json()) as { data: { mode: string; key: { kid: string; jwk: crypto.JsonWebKey } | null } };
  const serverKey = info.data.key ? crypto.createPublicKey({ key: info.data.key.jwk, format: 'jwk' }) : null;
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const clientKey = Buffer.from(JSON.stringify({ kty, crv, x, y })).toString('base64url');
  let access: string | null = null;

  const call = async <T>(method: string, path: string, body?: unknown, auth = true, extra: Record<string, string> = {}): Promise<ApiAnswer<T>> => {
    // Without the session it is a field app's call (an SDK license key in extra): no console platform header.
    const headers: Record<string, string> = { ...(auth ? { 'x-platform': 'web' } : {}), accept: 'application/json', ...extra };
    if (info.data.mode !== 'off') headers['x-client-key'] = clientKey;
    if (auth && access) headers['authorization'] = `Bearer ${access}`;
    let data: string | undefined;
    if (body !== undefined) {
      if (serverKey && info.data.key) {
        headers['content-type'] = 'application/jose';
        data = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(body)))
          .setProtectedHeader({
            alg: 'ECDH-ES',
            enc: 'A256GCM',
            kid: info.data.key.kid,
            htm: method,
            htu: path.split('?', 1)[0]!,
            // Taken once, within the replay window, and only with the token it is sent with (as the console does).
            iat: Math.floor(Date.now() / 1000),
            jti: crypto.randomBytes(16).toString('base64url'),
            ...(headers['authorization']
              ? { ath: crypto.createHash('sha256').update(headers['authorization'].slice('Bearer '.length)).digest('base64url') }
              : {}),
          })
          .encrypt(serverKey);
      } else {
        headers['content-type'] = 'application/json';
        data = JSON.stringify(body);
      }
    }
    const res = await page.request.fetch(path, { method, headers, ...(data !== undefined ? { data } : {}) });
    const contentType = res.headers()['content-type'] ?? '';
    const text = await res.text();
    let parsed: unknown = text;
    if (contentType.startsWith('application/jose')) parsed = JSON.parse(new TextDecoder().decode((await compactDecrypt(text, privateKey)).plaintext));
    else if (contentType.includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status(), body: parsed as T, contentType };
  };

  const api: ConsoleApi = {
    async token() {
      const res = await call<{ data: { access: string } }>('POST', '/api/auth/token/refresh/', {}, false);
      if (res.status !== 200) throw new Error(`token refresh answered ${res.status}`);
      access = res.body.data.access;
      return access;
    },
    async call(method, path, body, opts = {}) {
      if (opts.auth !== false) access ??= await api.token();
      return call(method, path, body, opts.auth !== false, opts.headers ?? {});
    },
    async get(path) {
      await api.token();
      const res = await call<{ data: any }>('GET', path);
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
      return res.body.data;
    },
  };
  return api;
}

/**
 * The JSON body the console sent, read back as the server reads it: the suite knows the server's APP_SECRET, and the
 * server's key pair is derived from it (apps/api/src/lib/payload-crypto.ts, the built copy), so a test can check what
 * went over the wire inside the JWE.
 */
export async function sentBody(postData: string | null, appSecret: string): Promise<any> {
  if (!postData) return null;
  if (!postData.startsWith('eyJ')) return JSON.parse(postData);
  const built = path.resolve(import.meta.dirname, '../../apps/api/dist/lib/payload-crypto.js');
  const { derivePayloadKey } = (await import(built)) as { derivePayloadKey: (secret: string, version: number) => { privateKey: crypto.KeyObject } };
  const { plaintext } = await compactDecrypt(postData, derivePayloadKey(appSecret, 1).privateKey);
  return JSON.parse(new TextDecoder().decode(plaintext));
}
