// The file stores: the S3 driver against a real S3-protocol server (s3rver, started here), the local driver, how each
// failure of the store is named, and the storage variables of the configuration.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStorage } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { startS3Server, type S3TestServer } from '../test/s3-server.js';
import { checkBucket, PART_BYTES, s3Storage } from './storage-s3.js';
import { localStorage, StorageError, type Storage } from './storage.js';

async function failure(p: Promise<unknown>): Promise<StorageError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StorageError);
  return err as StorageError;
}

const BUCKET_OK = 'files-unit';

describe('S3 storage (against s3rver)', () => {
  let s3: S3TestServer;
  let store: Storage;

  beforeAll(async () => {
    s3 = await startS3Server([BUCKET_OK]);
    store = s3Storage(s3.config('files-unit'));
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('puts, gets and removes a file; a missing key reads as null and removes without error', async () => {
    await store.put('t1/avatar/a.png', Buffer.from('png bytes'));
    expect((await store.get('t1/avatar/a.png'))?.toString()).toBe('png bytes');
    await store.put('t1/avatar/a.png', Buffer.from('replaced'));
    expect((await store.get('t1/avatar/a.png'))?.toString()).toBe('replaced');
    await store.remove('t1/avatar/a.png');
    expect(await store.get('t1/avatar/a.png')).toBeNull();
    await store.remove('t1/avatar/a.png');
    expect(await store.get('t1/never/there.csv')).toBeNull();
    await store.put('t1/empty/e.csv', Buffer.alloc(0));
    expect((await store.get('t1/empty/e.csv'))?.length).toBe(0);
  });

  it('writes chunks in order: small ones as one object, large ones as a multipart upload across part boundaries', async () => {
    await store.put('t1/staged/small.ndjson', [Buffer.from('a\n'), new Uint8Array([98, 10]), Buffer.from('c')]);
    expect((await store.get('t1/staged/small.ndjson'))?.toString()).toBe('a\nb\nc');

    // Three parts: chunks that straddle the part size, and one larger than a whole part.
    const chunks = [Buffer.alloc(PART_BYTES - 3, 1), Buffer.alloc(PART_BYTES + 10, 2), Buffer.from('tail')];
    const total = chunks.reduce((n, c) => n + c.length, 0);
    await store.put('t1/staged/large.ndjson', chunks);
    const back = (await store.get('t1/staged/large.ndjson'))!;
    expect(back.length).toBe(total);
    expect(back.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('puts a stream of chunks and reads an object back in pieces by ranges; a failing source leaves no object', async () => {
    await contract(store, 't1/stream');
  });

  it('names each failure of the store: a missing bucket, refused credentials, an unreachable endpoint', async () => {
    const missing = s3Storage(s3.config('no-such-bucket'));
    for (const op of [
      () => missing.put('k/x.csv', Buffer.from('x')),
      () => missing.get('k/x.csv'),
      () => missing.put('k/y.csv', [Buffer.alloc(PART_BYTES + 1)]),
    ]) {
      const err = await failure(op());
      expect(err.failure).toBe('missing_bucket');
      expect(err.detail).toMatch(/no-such-bucket: NoSuchBucket/);
      expect(err.message).toMatch(/bucket does not exist/);
      // The message may reach a user (an analysis's reason): it names neither the bucket nor the endpoint.
      expect(err.message).not.toMatch(/no-such-bucket|127\.0\.0\.1/);
    }
    const denied = s3Storage(s3.config('files-unit', { accessKeyId: 'WRONG', secretAccessKey: 'WRONG' }));
    const d = await failure(denied.get('t1/x.csv'));
    expect(d.failure).toBe('denied');
    expect(d.detail).toMatch(/HTTP 403/);
    expect((await failure(denied.put('t1/x.csv', Buffer.from('x')))).failure).toBe('denied');

    // A port nothing listens on (the server's own, after a stopped server frees it, would race: take a closed one).
    const closed = await startS3Server([]);
    const endpoint = closed.endpoint;
    await closed.close();
    const unreachable = s3Storage({ ...s3.config('files-unit'), endpoint });
    const u = await failure(unreachable.put('t1/x.csv', Buffer.from('x')));
    expect(u.failure).toBe('unreachable');
    expect(u.message).toMatch(/could not be reached/);
    expect((await failure(unreachable.get('t1/x.csv'))).failure).toBe('unreachable');

    expect(await checkBucket(s3.config('files-unit'))).toBeNull();
    expect((await checkBucket(s3.config('no-such-bucket')))?.failure).toBe('missing_bucket');
  });

  it('says at start whether the bucket answers, and keeps going when it does not', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const config = (bucket: string) => loadConfig({ ...s3.env(bucket), DATA_DIR: os.tmpdir() });
    await checkStorage(config(BUCKET_OK), log);
    await checkStorage(config('no-such-bucket'), log);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [30, 'storage: S3 bucket answers'],
      [50, 'storage unavailable at start: Could not read a file: the storage bucket does not exist (bucket no-such-bucket: NotFound, HTTP 404)'],
    ]);
  });

  it('refuses a key that is not the server’s own shape before any request', async () => {
    await expect(store.put('../etc/passwd', Buffer.from('x'))).rejects.toThrow(/Unsafe storage key/);
    await expect(store.get('/abs/key.csv')).rejects.toThrow(/Unsafe storage key/);
    await expect(store.remove('a/b c.csv')).rejects.toThrow(/Unsafe storage key/);
  });
});

/**
 * What both drivers promise for streams: put takes an async source of chunks (several parts' worth), read gives the
 * bytes back in pieces of at most a MB, whole and in order; a missing key reads as null, an empty object as no pieces;
 * a source that fails is rethrown as it is, and nothing appears under the key.
 */
async function contract(store: Storage, prefix: string): Promise<void> {
  const chunks = Array.from({ length: 40 }, (_, i) => Buffer.alloc(512 * 1024 + i, 65 + (i % 26)));
  const whole = Buffer.concat(chunks);
  expect(whole.length).toBeGreaterThan(2 * PART_BYTES);
  async function* source() {
    for (const c of chunks) {
      await new Promise((r) => setImmediate(r));
      yield c;
    }
  }
  await store.put(`${prefix}/big.ndjson`, source());
  const pieces: Buffer[] = [];
  for await (const p of (await store.read(`${prefix}/big.ndjson`))!) pieces.push(p);
  expect(pieces.length).toBeGreaterThan(2);
  expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(1024 * 1024);
  expect(Buffer.concat(pieces).equals(whole)).toBe(true);

  expect(await store.read(`${prefix}/none.ndjson`)).toBeNull();
  await store.put(`${prefix}/empty.ndjson`, (async function* () {})());
  const empty: Buffer[] = [];
  for await (const p of (await store.read(`${prefix}/empty.ndjson`))!) empty.push(p);
  expect(Buffer.concat(empty).length).toBe(0);

  const refused = new Error('the parse refused the file');
  async function* failing() {
    for (let i = 0; i < 20; i++) yield Buffer.alloc(1024 * 1024, 1);
    throw refused;
  }
  await expect(store.put(`${prefix}/failed.ndjson`, failing())).rejects.toBe(refused);
  expect(await store.read(`${prefix}/failed.ndjson`)).toBeNull();
  expect(await store.get(`${prefix}/failed.ndjson`)).toBeNull();
}

describe('local storage', () => {
  it('puts a stream of chunks and reads a file back in pieces; a failing source leaves no file', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-local-'));
    try {
      await contract(localStorage(root), 't1/stream');
      // No temporary file is left next to the objects.
      expect(fs.readdirSync(path.join(root, 't1/stream')).sort()).toEqual(['big.ndjson', 'empty.ndjson']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('stores chunks, reads a missing key as null, and names a failure of the disk', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-local-'));
    try {
      const store = localStorage(root);
      await store.put('t/a/b.ndjson', [Buffer.from('x\n'), Buffer.from('y')]);
      expect((await store.get('t/a/b.ndjson'))?.toString()).toBe('x\ny');
      expect(await store.get('t/a/none.csv')).toBeNull();
      // A file where the key's directory should be: the write fails, as a StorageError, and leaves no temporary file.
      fs.writeFileSync(path.join(root, 'blocked'), 'not a directory');
      const err = await failure(store.put('blocked/k.csv', Buffer.from('x')));
      expect(err.operation).toBe('put');
      expect(err.failure).toBe('failed');
      expect(fs.readdirSync(root).sort()).toEqual(['blocked', 't']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('storage configuration', () => {
  const s3env = { STORAGE_DRIVER: 's3', S3_BUCKET: 'farm-files', S3_ACCESS_KEY_ID: 'AK', S3_SECRET_ACCESS_KEY: 'SK' };

  it('defaults to the data directory, and reads every S3 variable', () => {
    const local = loadConfig({ DATA_DIR: '/tmp/farmland-x' }).storage;
    expect(local).toEqual({ driver: 'local', dir: '/tmp/farmland-x/files' });
    const s3 = loadConfig({ ...s3env, S3_ENDPOINT: 'http://minio:9000', S3_REGION: 'eu-west-1', S3_FORCE_PATH_STYLE: 'true' }).storage;
    expect(s3).toEqual({
      driver: 's3',
      bucket: 'farm-files',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' },
      forcePathStyle: true,
    });
    // No keys: the SDK's default chain (AWS_* variables, an instance role); empty values count as unset.
    const chain = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'farm-files',
      S3_ENDPOINT: '',
      S3_ACCESS_KEY_ID: '',
      S3_SECRET_ACCESS_KEY: '',
    }).storage;
    expect(chain).toMatchObject({ driver: 's3', endpoint: null, region: 'us-east-1', credentials: null, forcePathStyle: false });
  });

  it('stops the boot naming the variable that is wrong', () => {
    const bad = (env: Record<string, string>) => () => loadConfig(env);
    expect(bad({ STORAGE_DRIVER: 'ftp' })).toThrow(/STORAGE_DRIVER/);
    expect(bad({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET: required when STORAGE_DRIVER=s3/);
    expect(bad({ ...s3env, S3_BUCKET: 'Not_A_Bucket' })).toThrow(/S3_BUCKET/);
    expect(bad({ ...s3env, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    expect(bad({ ...s3env, S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(/S3_FORCE_PATH_STYLE/);
    expect(bad({ STORAGE_DRIVER: 's3', S3_BUCKET: 'farm-files', S3_ACCESS_KEY_ID: 'AK' })).toThrow(/S3_SECRET_ACCESS_KEY: set both/);
  });
});
