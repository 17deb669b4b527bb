// GET /internal/outbox/: the newest mail to an address, for `npm run outbox` over loopback with the internal key only.
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { internalKey } from '../../lib/instance-lock.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

describe('GET /internal/outbox/', () => {
  it('answers the newest mail to the address, with the internal key', async () => {
    const to = `outbox-${Date.now()}@test.example`;
    await env.sql(
      sql`INSERT INTO outbox_emails (to_address, subject, body, created_at) VALUES (${to}, 'first', 'one', now() - interval '1 minute'), (${to}, 'second', 'two https://x.example/onboarding?signed_key=k', now())`,
    );
    const res = await env.app.inject({
      method: 'GET',
      url: `/api/internal/outbox/?to=${encodeURIComponent(to.toUpperCase())}`,
      headers: { 'x-internal-key': internalKey(env.deps.keys.signing) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ to, subject: 'second', body: 'two https://x.example/onboarding?signed_key=k' });
    const none = await env.app.inject({
      method: 'GET',
      url: '/api/internal/outbox/?to=nobody@test.example',
      headers: { 'x-internal-key': internalKey(env.deps.keys.signing) },
    });
    expect(none.json().data).toBeNull();
  });

  it('is a 404 without the key, with a wrong key, or from a session', async () => {
    const url = '/api/internal/outbox/?to=superadmin@farmland.local';
    expect((await env.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await env.app.inject({ method: 'GET', url, headers: { 'x-internal-key': 'wrong' } })).statusCode).toBe(404);
    expect((await env.as('super').get(url)).status).toBe(404);
  });
});
