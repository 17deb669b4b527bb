// Custom analyses with files on S3-compatible storage (a real s3rver, started here): an upload, its run and its source
// file go through the bucket; and each failure of the store ends cleanly: an upload that cannot be stored answers
// 503 storage_unavailable and leaves no row and no staged file, and a run that cannot read its rows fails with the reason.
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { s3Client, s3Storage } from '../../lib/storage-s3.js';
import type { Storage } from '../../lib/storage.js';
import { arrangeTenant, multipart, outcome, rect, settled, square } from '../../test/analysis-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { startS3Server, type S3TestServer } from '../../test/s3-server.js';

const BUCKET = 'analyses-files';

describe('custom analysis on S3 storage', () => {
  let env: TestEnv;
  let s3: S3TestServer;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;
  let good: Storage;
  let missingBucket: Storage;
  let denied: Storage;
  let original: Storage;

  const keys = async (prefix: string) =>
    ((await s3Client(s3.config(BUCKET)).send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? []).map((o) => o.Key!);
  /** Real stores on both sides: each operation goes to the one pick names (to fail one step and not the others). */
  const routed = (pick: (op: 'put' | 'get' | 'remove', key: string) => Storage): Storage => ({
    put: (key, data) => pick('put', key).put(key, data),
    get: (key) => pick('get', key).get(key),
    read: (key) => pick('get', key).read(key),
    remove: (key) => pick('remove', key).remove(key),
  });
  const csv = (name: string) => Buffer.from(['farm_name,farm_coordinates', `${name},"${JSON.stringify(square(20.01, 20.01)).replace(/"/g, '""')}"`].join('\n'));
  const upload = (name: string) =>
    t.caller.request({ method: 'POST', url: '/api/custom-analysis/', ...multipart({ name, operational_areas: t.areaIds }, `${name}.csv`, csv(name)) });
  const analysesNamed = (name: string) => env.sql<{ id: string }>(sql`SELECT id FROM custom_analyses WHERE tenant_id = ${t.tenantId} AND name = ${name}`);

  beforeAll(async () => {
    env = await testEnv();
    s3 = await startS3Server([BUCKET]);
    t = await arrangeTenant(env, [{ name: 'S3 block', ring: rect(20.0, 20.0, 20.1, 20.1) }]);
    good = s3Storage(s3.config(BUCKET));
    missingBucket = s3Storage(s3.config('no-such-bucket'));
    denied = s3Storage(s3.config(BUCKET, { accessKeyId: 'WRONG', secretAccessKey: 'WRONG' }));
    original = env.deps.storage;
  });
  afterEach(() => {
    env.deps.storage = original;
  });
  afterAll(async () => {
    if (env) env.deps.storage = original;
    await s3?.close();
  });

  it('stores the upload and the staged rows in the bucket, runs the analysis from it, and serves the source file', async () => {
    env.deps.storage = good;
    const res = await upload('On S3');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { detail, rows } = await outcome(t.caller, res.body.data.id);
    expect(detail.status).toBe('completed');
    expect(rows.get(1)!.category).toBe('within');
    // The source file stays; the staged rows were removed when the run completed.
    expect(await keys(`${t.tenantId}/analysis_source/`)).toHaveLength(1);
    expect(await keys(`${t.tenantId}/analysis_staged/`)).toHaveLength(0);

    const url = new URL(res.body.data.file as string);
    const file = await env.as('anonymous').get(`${url.pathname}${url.search}`);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(csv('On S3'))).toBe(true);

    // The store gone: reading the file answers 503 (not the client's fault), logged with the reason.
    env.deps.storage = missingBucket;
    const down = await env.as('anonymous').get(`${url.pathname}${url.search}`);
    expect(down.status).toBe(503);
    expect(down.body.code).toBe('storage_unavailable');
    expect(down.headers['retry-after']).toBe('30');
    expect(JSON.stringify(down.body)).not.toMatch(/no-such-bucket|NoSuchBucket/);
    expect(
      env.serverLog.some((l) =>
        /storage unavailable: Could not read a file: the storage bucket does not exist \(bucket no-such-bucket: NoSuchBucket/.test(l.msg),
      ),
    ).toBe(true);

    env.deps.storage = good;
    expect((await t.caller.delete(`/api/custom-analysis/${res.body.data.id}/`)).status).toBe(200);
    expect(await keys(`${t.tenantId}/`)).toHaveLength(0);
  });

  it('answers 503 to an upload the store refuses (missing bucket, refused credentials), and keeps nothing', async () => {
    for (const [store, failure] of [
      [missingBucket, 'the storage bucket does not exist'],
      [denied, 'the storage refused access'],
    ] as const) {
      env.deps.storage = store;
      const name = `Refused ${failure}`;
      const res = await upload(name);
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body.code).toBe('storage_unavailable');
      expect(res.body.message).toMatch(/Nothing was saved/);
      expect(await analysesNamed(name)).toHaveLength(0);
      expect(env.serverLog.some((l) => l.msg.startsWith(`storage unavailable: Could not store a file: ${failure}`))).toBe(true);
    }
    const files = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM files WHERE tenant_id = ${t.tenantId}`);
    expect(files[0]!.n).toBe(0);
  });

  it('removes the staged rows when the source file cannot be stored after them, and writes no row', async () => {
    env.deps.storage = routed((_op, key) => (key.includes('/analysis_source/') ? denied : good));
    const res = await upload('Source refused');
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(await analysesNamed('Source refused')).toHaveLength(0);
    expect(await keys(`${t.tenantId}/analysis_staged/`)).toHaveLength(0);
    expect(await keys(`${t.tenantId}/analysis_source/`)).toHaveLength(0);
  });

  it('removes the source copy made while the rows were staged when staging refuses the csv', async () => {
    env.deps.storage = good;
    // A csv's source is copied to the bucket while its rows are staged; a refusal found while reading (a missing column
    // here, the row cap or bad bytes alike) must not leave that copy behind.
    const bad = Buffer.from(['farm_name,coordinates', ...Array.from({ length: 2000 }, (_, i) => `Farm ${i},"[[1,1],[1,2],[2,2]]"`)].join('\n'));
    const res = await t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ name: 'Refused csv', operational_areas: t.areaIds }, 'refused.csv', bad),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe('missing_columns');
    expect(await analysesNamed('Refused csv')).toHaveLength(0);
    expect(await keys(`${t.tenantId}/analysis_source/`)).toHaveLength(0);
    expect(await keys(`${t.tenantId}/analysis_staged/`)).toHaveLength(0);
  });

  it('fails an analysis whose staged rows cannot be read, with the reason, and leaves no rows', async () => {
    env.deps.storage = routed((op) => (op === 'get' ? missingBucket : good));
    const res = await upload('Unreadable staging');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // pg-boss tries it three times (two retries, seconds apart) before the analysis is failed.
    const detail = await settled(t.caller, res.body.data.id, 40_000);
    expect(detail.status).toBe('failed');
    expect(detail.failure_reason).toMatch(/^The analysis failed: Could not read a file: the storage bucket does not exist/);
    expect(detail.failure_reason).not.toMatch(/no-such-bucket/);
    const left = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM custom_analysis_rows WHERE analysis_id = ${res.body.data.id}`);
    expect(left[0]!.n).toBe(0);
  }, 60_000);
});
