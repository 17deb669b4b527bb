// Idempotency-Key on the capture API's create routes (issue 31): replay, another body, concurrent duplicates, the key's
// format, refused requests freeing the key, pruning after 24 hours, and tenants (and agents) kept apart.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSpot, multipart, PNG_BYTES, square, tenantGeo, type TenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type Caller, type TestEnv } from '../../test/harness.js';
import { queryRows, withScope } from '../../db/client.js';
import { sha256 } from '../../lib/crypto.js';
import { pruneAllKeys } from './idempotency.queries.js';

let env: TestEnv;
let geoA: TenantGeo;
let geoB: TenantGeo;
let agentB: Caller;

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
  geoB = await tenantGeo(env, env.fx.tenantB);
  agentB = await env.sessionFor(env.fx.agentB);
});

const newKey = () => `cap-${crypto.randomUUID()}`;
const farmsNamed = async (name: string) => (await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farms WHERE name = ${name}`))[0]!.n;
const farmersNamed = async (last: string) => (await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farmers WHERE last_name = ${last}`))[0]!.n;
const captureBody = (name: string, farmerId = geoA.farmerId) => ({
  farmer_id: farmerId,
  name,
  coordinates: square(...freshSpot(), 80),
  time_taken_to_map: '00:12:30',
  gps_device_id: 'GPS-IK-1',
});

describe('Idempotency-Key on POST /api/farms/', () => {
  it('replays the first answer for the same key and body: same status and body, Idempotent-Replayed, one farm', async () => {
    const key = newKey();
    const name = `IK replay ${key}`;
    const body = captureBody(name);
    const first = await env.as('agentA').post('/api/farms/', body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const second = await env.as('agentA').post('/api/farms/', reordered, { 'idempotency-key': key });
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await farmsNamed(name)).toBe(1);
  });

  it('answers 409 idempotency_key_reused for the same key with another body, and makes no farm', async () => {
    const key = newKey();
    const name = `IK reuse ${key}`;
    const first = await env.as('agentA').post('/api/farms/', captureBody(name), { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const other = await env.as('agentA').post('/api/farms/', captureBody(`${name} other`), { 'idempotency-key': key });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(other.body.errors['Idempotency-Key'][0]).toMatch(/different/);
    expect(await farmsNamed(`${name} other`)).toBe(0);
    // The same key on another create route is another request too.
    const farmer = await env.as('agentA').post('/api/farmers/', { first_name: 'Ik', last_name: `Reuse ${key}` }, { 'idempotency-key': key });
    expect(farmer.status).toBe(409);
    expect(farmer.body.code).toBe('idempotency_key_reused');
    expect(await farmersNamed(`Reuse ${key}`)).toBe(0);
  });

  it('makes exactly one farm from 10 concurrent requests with one key; the others replay it or answer 409 in progress', async () => {
    const key = newKey();
    const name = `IK concurrent ${key}`;
    const body = captureBody(name);
    const answers = await Promise.all(Array.from({ length: 10 }, () => env.as('agentA').post('/api/farms/', body, { 'idempotency-key': key })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.body.data.id)).size).toBe(1);
    expect(created.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body.code).toBe('idempotency_key_in_progress');
      expect(a.headers['retry-after']).toBe('1');
    }
    expect(await farmsNamed(name)).toBe(1);
    expect(env.serverLog.filter((l) => l.msg === 'unhandled error')).toEqual([]);
    // Once the first has finished, a retry replays it.
    const after = await env.as('agentA').post('/api/farms/', body, { 'idempotency-key': key });
    expect(after.status).toBe(201);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(after.body.data.id).toBe(created[0]!.body.data.id);
  });

  it("keeps tenants apart: tenant B with the same key value gets its own answer, never tenant A's", async () => {
    const key = newKey();
    const a = await env.as('agentA').post('/api/farms/', captureBody(`IK tenant A ${key}`), { 'idempotency-key': key });
    expect(a.status).toBe(201);
    const b = await agentB.post('/api/farms/', captureBody(`IK tenant B ${key}`, geoB.farmerId), { 'idempotency-key': key });
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.data.id).not.toBe(a.body.data.id);
    expect(b.body.data.tenant_id).toBe(env.fx.tenantB);
    // Tenant B's replay is its own farm.
    const bAgain = await agentB.post('/api/farms/', captureBody(`IK tenant B ${key}`, geoB.farmerId), { 'idempotency-key': key });
    expect([bAgain.status, bAgain.body.code]).toEqual([409, 'idempotency_key_reused']); // another ring (fresh spot): another body
    const rows = await env.sql<{ tenant_id: string; n: number }>(
      sql`SELECT tenant_id, count(*)::int AS n FROM idempotency_keys WHERE key = ${key} GROUP BY tenant_id ORDER BY tenant_id`,
    );
    expect(rows.map((r) => r.n)).toEqual([1, 1]);
    // Row-level security: in tenant B's scope, tenant A's row is not there.
    const seen = await withScope(env.deps.db, { kind: 'tenant', tenantId: env.fx.tenantB }, (tx) =>
      queryRows<{ tenant_id: string }>(tx, sql`SELECT tenant_id FROM idempotency_keys WHERE key = ${key}`),
    );
    expect(seen.map((r) => r.tenant_id)).toEqual([env.fx.tenantB]);
  });

  it('refuses a malformed key with a 400 naming Idempotency-Key, and makes no farm', async () => {
    for (const bad of ['', 'x'.repeat(256), 'has space', 'tab\tkey', 'é-accent']) {
      const name = `IK bad ${crypto.randomUUID()}`;
      const res = await env.as('agentA').request({ method: 'POST', url: '/api/farms/', payload: captureBody(name), headers: { 'idempotency-key': bad } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.errors['Idempotency-Key'][0]).toMatch(/visible ASCII/);
      expect(await farmsNamed(name)).toBe(0);
    }
    const ok = await env.as('agentA').post('/api/farms/', captureBody(`IK long ${crypto.randomUUID()}`), { 'idempotency-key': '~'.repeat(255) + '' });
    expect(ok.status).toBe(201);
  });

  it('frees the key of a refused request: the fixed body goes through with the same key', async () => {
    const key = newKey();
    const name = `IK refused ${key}`;
    const [a, b, c, d] = square(...freshSpot(), 50);
    const bowTie = await env.as('agentA').post('/api/farms/', { ...captureBody(name), coordinates: [a, c, b, d] }, { 'idempotency-key': key });
    expect(bowTie.status).toBe(400);
    expect(bowTie.body.errors.coordinates[0]).toMatch(/Self-intersection/);
    const fixed = await env.as('agentA').post('/api/farms/', captureBody(name), { 'idempotency-key': key });
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(await farmsNamed(name)).toBe(1);
  });

  it('hashes multipart bodies with their files: the same form replays, another snapshot is another body', async () => {
    const key = newKey();
    const name = `IK multipart ${key}`;
    const body = captureBody(name);
    const fields = { ...body, coordinates: JSON.stringify(body.coordinates) };
    const form = (bytes: Buffer) => multipart(fields, [{ field: 'snapshots', filename: 'a.png', type: 'image/png', content: bytes }]);
    const send = (bytes: Buffer) => {
      const m = form(bytes);
      return env.as('agentA').request({ method: 'POST', url: '/api/farms/', payload: m.payload, headers: { ...m.headers, 'idempotency-key': key } });
    };
    const first = await send(PNG_BYTES);
    expect(first.status).toBe(201);
    const again = await send(PNG_BYTES);
    expect([again.status, again.headers['idempotent-replayed']]).toEqual([201, 'true']);
    const otherImage = await send(Buffer.concat([PNG_BYTES, Buffer.from([0])]));
    expect([otherImage.status, otherImage.body.code]).toEqual([409, 'idempotency_key_reused']);
    expect(await farmsNamed(name)).toBe(1);
  });

  it('keeps an answer 24 hours: an older row is pruned, and the key is new again', async () => {
    const key = newKey();
    const name = `IK pruned ${key}`;
    const body = captureBody(name);
    expect((await env.as('agentA').post('/api/farms/', body, { 'idempotency-key': key })).status).toBe(201);
    await env.sql(sql`UPDATE idempotency_keys SET created_at = now() - interval '23 hours' WHERE key = ${key}`);
    expect((await pruneAllKeys(env.deps.db)) >= 0).toBe(true);
    const within = await env.as('agentA').post('/api/farms/', body, { 'idempotency-key': key });
    expect(within.headers['idempotent-replayed']).toBe('true');
    await env.sql(sql`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = ${key}`);
    expect(await pruneAllKeys(env.deps.db)).toBeGreaterThanOrEqual(1);
    expect(await env.sql(sql`SELECT 1 FROM idempotency_keys WHERE key = ${key}`)).toEqual([]);
  });
});

describe('Idempotency-Key with an SDK license key', () => {
  it("keeps the answer per license: a replay with the key, and the license's key never meets an agent's", async () => {
    // Keys are stored hashed, so the test gives tenant B an older SDK license whose key it knows (as farms.capture.test.ts).
    const licenseKey = `SDK-ik-${crypto.randomUUID()}`;
    await env.sql(sql`INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, key_hash, key_hint, is_revoked)
                      VALUES (${env.fx.tenantB}, 'SDK', '2021-01-01', '2099-01-01', ${sha256(licenseKey)}, ${licenseKey.slice(0, 10)}, false)`);
    const key = newKey();
    const name = `IK sdk ${key}`;
    const body = captureBody(name, geoB.farmerId);
    const send = () => env.as('anonymous').post('/api/farms/', body, { 'x-license-key': licenseKey, 'idempotency-key': key });
    const first = await send();
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await send();
    expect([again.status, again.headers['idempotent-replayed'], again.body.data.id]).toEqual([201, 'true', first.body.data.id]);
    expect(await farmsNamed(name)).toBe(1);
    // Tenant B's agent with the same key value: its own request, not the license's answer.
    const agent = await agentB.post('/api/farms/', body, { 'idempotency-key': key });
    expect(agent.status).toBe(201);
    expect(agent.headers['idempotent-replayed']).toBeUndefined();
    expect(await farmsNamed(name)).toBe(2);
    const actors = await env.sql<{ actor: string }>(sql`SELECT actor FROM idempotency_keys WHERE key = ${key} ORDER BY actor`);
    expect(actors.map((a) => a.actor.split(':')[0])).toEqual(['license', 'user']);
  });
});

describe('Idempotency-Key on POST /api/farmers/', () => {
  it('replays a farmer, refuses another body, and makes one farmer from concurrent duplicates', async () => {
    const key = newKey();
    const last = `Ik${crypto.randomUUID().slice(0, 8)}`;
    const body = { first_name: 'Ada', last_name: last, gender: 'Female', phone_number: '+2348012345678' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => env.as('agentA').post('/api/farmers/', body, { 'idempotency-key': key })));
    expect(answers.every((a) => a.status === 201 || (a.status === 409 && a.body.code === 'idempotency_key_in_progress'))).toBe(true);
    expect(await farmersNamed(last)).toBe(1);
    const again = await env.as('agentA').post('/api/farmers/', body, { 'idempotency-key': key });
    expect([again.status, again.headers['idempotent-replayed']]).toEqual([201, 'true']);
    const other = await env.as('agentA').post('/api/farmers/', { ...body, first_name: 'Bola' }, { 'idempotency-key': key });
    expect([other.status, other.body.code]).toEqual([409, 'idempotency_key_reused']);
    expect(await farmersNamed(last)).toBe(1);
  });

  it("keeps agents of one tenant apart: another agent's same key is its own", async () => {
    const key = newKey();
    const last = `Ik${crypto.randomUUID().slice(0, 8)}`;
    const admin = await env.as('adminA').post('/api/farmers/', { first_name: 'Adm', last_name: last }, { 'idempotency-key': key });
    const agent = await env.as('agentA').post('/api/farmers/', { first_name: 'Adm', last_name: last }, { 'idempotency-key': key });
    expect([admin.status, agent.status]).toEqual([201, 201]);
    expect(agent.headers['idempotent-replayed']).toBeUndefined();
    expect(await farmersNamed(last)).toBe(2);
  });
});
