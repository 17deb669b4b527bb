// Encrypted request and response bodies (issue 17 §4): round trip, tampering, a wrong kid, a body replayed on another
// route, key rotation, and the three modes; a body replayed on the same route, under another session or outside the
// replay window (issue 33).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { deriveKeys } from '../lib/crypto.js';
import { PAYLOAD_REPLAY_WINDOW_SECONDS } from '../lib/payload-crypto.js';
import { multipart } from '../test/analysis-fixtures.js';
import { testEnv, type TestEnv } from '../test/harness.js';
import { payloadTestClient } from '../test/payload-client.js';

async function appWith(env: TestEnv, payload: Config['payload']): Promise<FastifyInstance> {
  const app = await buildApp({ ...env.deps, config: { ...env.deps.config, payload }, keys: deriveKeys(env.config.secret, payload.keyVersion) });
  await app.ready();
  return app;
}

/** Changes one character in the middle of a compact JWE's n-th segment (0 header … 4 tag). */
function tamper(compact: string, segment: number): string {
  const parts = compact.split('.');
  const s = parts[segment]!;
  const i = Math.floor(s.length / 2);
  parts[segment] = s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  return parts.join('.');
}

const JOSE = { 'content-type': 'application/jose' };
// Regions made here are the tenant's own country's and sort last, so that fixtures picking a tenant's first region by
// name keep the demo's.
const NIGERIA = '1e7050d0-9e8f-5e82-9ca3-884850256d74';

// The shared environment is made once per worker (slow on a busy machine): in a hook, not in the first test.
beforeAll(async () => void (await testEnv()));

describe('encrypted bodies', () => {
  it('publishes the mode and the current key', async () => {
    const env = await testEnv();
    const res = await env.as('anonymous').get('/api/crypto/key');
    expect(res.status).toBe(200);
    expect(res.body.data.mode).toBe('optional');
    expect(res.body.data.key).toMatchObject({ alg: 'ECDH-ES', enc: 'A256GCM', jwk: { kty: 'EC', crv: 'P-256' } });
    expect(res.body.data.key.kid).toMatch(/^p256-v1-/);
    expect(res.body.data.key.jwk.d).toBeUndefined();
  });

  it('decrypts a request body and encrypts the answer to the client key (round trip)', async () => {
    const env = await testEnv();
    const client = await payloadTestClient(env.app, () => env.as('adminA').token);
    const country = NIGERIA;
    const body = await client.encrypt('POST', '/api/base/regions/', { country_id: country, name: 'Zz Encrypted Region' });
    expect(body).not.toContain('Zz Encrypted Region');
    const res = await env
      .as('adminA')
      .request({ method: 'POST', url: '/api/base/regions/', payload: body, headers: { ...JOSE, 'x-client-key': client.clientKey } });
    expect(res.headers['content-type']).toMatch(/^application\/jose/);
    expect(res.raw).not.toContain('Zz Encrypted Region');
    expect(res.status).toBe(201);
    const answer = (await client.decrypt(res.raw)) as { data: { name: string } };
    expect(answer.data.name).toBe('Zz Encrypted Region');
    // Without X-Client-Key the same API answers in plain JSON (optional mode: SDKs and curl keep working).
    const plain = await env.as('adminA').get('/api/base/regions/');
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.raw).toContain('Zz Encrypted Region');
  });

  it('refuses a changed tag or ciphertext, a wrong kid, and a body made for another route, with 400s', async () => {
    const env = await testEnv();
    const client = await payloadTestClient(env.app, () => env.as('adminA').token);
    const country = NIGERIA;
    const send = (payload: string, url = '/api/base/regions/') => env.as('adminA').request({ method: 'POST', url, payload, headers: JOSE });
    const good = await client.encrypt('POST', '/api/base/regions/', { country_id: country, name: 'Zz Tamper Region' });
    for (const segment of [3, 4]) {
      const res = await send(tamper(good, segment));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('payload_undecryptable');
    }
    const wrongKid = await send(await client.encrypt('POST', '/api/base/regions/', { country_id: country, name: 'Zz X' }, { kid: 'p256-v1-notourkey0' }));
    expect(wrongKid.status).toBe(400);
    expect(wrongKid.body.code).toBe('payload_key_unknown');
    const elsewhere = await send(await client.encrypt('POST', '/api/operational-areas/', { name: 'Zz X' }));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.code).toBe('payload_misdirected');
    const notJwe = await send('hello');
    expect(notJwe.status).toBe(400);
    expect(notJwe.body.code).toBe('payload_undecryptable');
    // A decrypted body is still JSON checked like any other (prototype keys refused, schema applied).
    const poisoned = await send(await client.encrypt('POST', '/api/base/regions/', JSON.parse('{"__proto__":{"x":1},"name":"P"}')));
    expect(poisoned.status).toBe(400);
    const invalid = await send(await client.encrypt('POST', '/api/base/regions/', { country_id: 'nope', name: 'Zz Y' }));
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.errors)[0]).toBe('country_id');
    const regions = await env.as('adminA').get('/api/base/regions/');
    expect(regions.raw).not.toContain('Zz Tamper Region');
  });

  it('takes a body once: a replay, even from another API process, is a 409, and nothing is stored twice', async () => {
    const env = await testEnv();
    const client = await payloadTestClient(env.app, () => env.as('adminA').token);
    const name = `Zz Replay ${Date.now()}`;
    const body = await client.encrypt('POST', '/api/base/regions/', { country_id: NIGERIA, name });
    const send = (app: FastifyInstance) =>
      app.inject({ method: 'POST', url: '/api/base/regions/', payload: body, headers: { ...JOSE, authorization: `Bearer ${env.as('adminA').token}` } });
    expect((await send(env.app)).statusCode).toBe(201);
    const again = await send(env.app);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('payload_replayed');
    // A second API process on the same database (the jti store is a table, not memory).
    const other = await appWith(env, { mode: 'optional', keyVersion: 1 });
    try {
      const elsewhere = await send(other);
      expect(elsewhere.statusCode).toBe(409);
      expect(elsewhere.json().code).toBe('payload_replayed');
    } finally {
      await other.close();
    }
    const rows = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM regions WHERE name = ${name}`);
    expect(rows[0]!.n).toBe(1);
    const [kept] = await env.sql<{ ttl: number }>(
      sql`SELECT extract(epoch FROM expires_at - now())::int AS ttl FROM payload_jtis ORDER BY expires_at DESC LIMIT 1`,
    );
    expect(kept!.ttl).toBeGreaterThan(PAYLOAD_REPLAY_WINDOW_SECONDS - 60);
    expect(kept!.ttl).toBeLessThanOrEqual(PAYLOAD_REPLAY_WINDOW_SECONDS + 1);
  });

  it("refuses a body under another user's token or without the token it was made for, and one outside the window", async () => {
    const env = await testEnv();
    const client = await payloadTestClient(env.app, () => env.as('adminA').token);
    const name = `Zz Bound ${Date.now()}`;
    const post = (payload: string, token: string | null) =>
      env.app.inject({ method: 'POST', url: '/api/base/regions/', payload, headers: { ...JOSE, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    // Captured from tenant A's admin, sent with tenant B's admin's token: refused before it is read.
    const captured = await client.encrypt('POST', '/api/base/regions/', { country_id: NIGERIA, name });
    const foreign = await post(captured, env.as('adminB').token);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().code).toBe('payload_session_mismatch');
    // Without a token this route answers 401 before it reads a body; on a public route a body made for a session is
    // refused the same way.
    expect((await post(captured, null)).statusCode).toBe(401);
    const reset = await client.encrypt('POST', '/api/auth/password/reset/', { email: 'nobody@test.example' });
    const anon = await env.app.inject({ method: 'POST', url: '/api/auth/password/reset/', payload: reset, headers: JOSE });
    expect(anon.statusCode).toBe(400);
    expect(anon.json().code).toBe('payload_session_mismatch');
    // A body made without a session cannot be sent with one.
    const sessionless = await client.encrypt('POST', '/api/base/regions/', { country_id: NIGERIA, name }, { ath: undefined });
    expect((await post(sessionless, env.as('adminA').token)).json().code).toBe('payload_session_mismatch');
    // iat outside the window, either way, and a body without iat or jti.
    const now = Math.floor(Date.now() / 1000);
    for (const iat of [now - PAYLOAD_REPLAY_WINDOW_SECONDS - 30, now + PAYLOAD_REPLAY_WINDOW_SECONDS + 30]) {
      const res = await post(await client.encrypt('POST', '/api/base/regions/', { country_id: NIGERIA, name }, { iat }), env.as('adminA').token);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('payload_stale');
    }
    for (const header of [{ iat: undefined }, { jti: undefined }, { jti: 'short' }, { iat: 'now' }]) {
      const res = await post(await client.encrypt('POST', '/api/base/regions/', { country_id: NIGERIA, name }, header), env.as('adminA').token);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('payload_unbound');
    }
    // The captured body still works for the session it was made for (none of the refusals took its jti).
    expect((await post(captured, env.as('adminA').token)).statusCode).toBe(201);
    const rows = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM regions WHERE name = ${name}`);
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses a client key that is not a P-256 point, naming the header', async () => {
    const env = await testEnv();
    for (const key of [
      'not-base64!',
      Buffer.from('{"kty":"EC","crv":"P-256","x":"AAAA","y":"AAAA"}').toString('base64url'),
      Buffer.from('{"kty":"oct","k":"AAAA"}').toString('base64url'),
    ]) {
      const res = await env.as('adminA').get('/api/farms/', { 'x-client-key': key });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)[0]).toBe('X-Client-Key');
    }
  });

  it('encrypts error answers too, once the client key is known (a 401 included)', async () => {
    const env = await testEnv();
    const client = await payloadTestClient(env.app);
    const res = await env.as('anonymous').get('/api/farms/', { 'x-client-key': client.clientKey });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/jose/);
    expect(((await client.decrypt(res.raw)) as { code: string }).code).toBe('not_authenticated');
  });

  it('rotates keys: the new key is published, the previous one still decrypts, older ones do not', async () => {
    const env = await testEnv();
    const v1 = await payloadTestClient(env.app, () => env.as('adminA').token);
    const country = NIGERIA;
    const v2app = await appWith(env, { mode: 'optional', keyVersion: 2 });
    const v3app = await appWith(env, { mode: 'optional', keyVersion: 3 });
    try {
      const v2 = await payloadTestClient(v2app, () => env.as('adminA').token);
      expect(v2.kid).toMatch(/^p256-v2-/);
      const headers = { ...JOSE, authorization: `Bearer ${env.as('adminA').token}` };
      const oldBody = await v1.encrypt('POST', '/api/base/regions/', { country_id: country, name: 'Zz Rotation Old Key' });
      expect((await v2app.inject({ method: 'POST', url: '/api/base/regions/', payload: oldBody, headers })).statusCode).toBe(201);
      const newBody = await v2.encrypt('POST', '/api/base/regions/', { country_id: country, name: 'Zz Rotation New Key' });
      expect((await v2app.inject({ method: 'POST', url: '/api/base/regions/', payload: newBody, headers })).statusCode).toBe(201);
      const tooOld = await v1.encrypt('POST', '/api/base/regions/', { country_id: country, name: 'Zz Rotation Too Old' });
      const refused = await v3app.inject({ method: 'POST', url: '/api/base/regions/', payload: tooOld, headers });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('payload_key_unknown');
    } finally {
      await v2app.close();
      await v3app.close();
    }
  });

  it('required mode: refuses plain JSON and calls without a client key; public GETs and file uploads pass', async () => {
    const env = await testEnv();
    const app = await appWith(env, { mode: 'required', keyVersion: 1 });
    try {
      const client = await payloadTestClient(app);
      const auth = { authorization: `Bearer ${env.as('adminA').token}` };
      const plain = await app.inject({
        method: 'POST',
        url: '/api/base/regions/',
        payload: { name: 'Plain' },
        headers: { ...auth, 'x-client-key': client.clientKey },
      });
      expect(plain.statusCode).toBe(400);
      expect(((await client.decrypt(plain.body)) as { code: string }).code).toBe('payload_encryption_required');
      const keyless = await app.inject({ method: 'GET', url: '/api/farms/', headers: auth });
      expect(keyless.statusCode).toBe(400);
      expect(keyless.json().code).toBe('payload_client_key_required');
      const signIn = await app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email: 'a@example.com', password: 'x' } });
      expect(signIn.json().code).toBe('payload_encryption_required');
      for (const url of ['/api/health', '/api/config', '/api/crypto/key']) expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
      const list = await app.inject({ method: 'GET', url: '/api/farms/', headers: { ...auth, 'x-client-key': client.clientKey } });
      expect(list.statusCode).toBe(200);
      expect(((await client.decrypt(list.body)) as { data: { count: number } }).data.count).toBeGreaterThan(0);
      // A file upload is excepted from body encryption (docs/requirements.md §7); its JSON answer is still encrypted.
      const form = multipart({}, 'farmers.csv', Buffer.from('first_name,last_name\n'), 'text/csv');
      const upload = await app.inject({
        method: 'POST',
        url: '/api/farmers/bulk-upload/',
        payload: form.payload,
        headers: { ...form.headers, ...auth, 'x-client-key': client.clientKey },
      });
      expect(upload.headers['content-type']).toMatch(/^application\/jose/);
      expect(['payload_encryption_required', 'payload_client_key_required']).not.toContain(((await client.decrypt(upload.body)) as { code?: string }).code);
    } finally {
      await app.close();
    }
  });

  it('off: no key is published and an encrypted body is an unsupported type', async () => {
    const env = await testEnv();
    const app = await appWith(env, { mode: 'off', keyVersion: 1 });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/crypto/key' })).json().data).toEqual({ mode: 'off', key: null });
      const res = await app.inject({
        method: 'POST',
        url: '/api/base/regions/',
        payload: 'a.b.c.d.e',
        headers: { ...JOSE, authorization: `Bearer ${env.as('adminA').token}` },
      });
      expect(res.statusCode).toBe(415);
    } finally {
      await app.close();
    }
  });
});
