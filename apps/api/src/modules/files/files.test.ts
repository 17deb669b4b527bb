// GET /files/{id}: a stored file is streamed from the store (local disk and a real S3-protocol server, s3rver), over a
// real socket: whole and with its length, never read whole (get is never called); a missing object is a 404, a store
// that fails before the first byte a 503 with a log line, one that fails midway a cut response with a log line; and a
// client that goes away mid-download leaves no reader (and no file handle) open.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withScope } from '../../db/client.js';
import { s3Storage } from '../../lib/storage-s3.js';
import { localStorage, StorageError, type Storage } from '../../lib/storage.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { startS3Server, type S3TestServer } from '../../test/s3-server.js';
import { fileUrl, storeFile } from './files.service.js';

const BUCKET = 'files-download';
const SIZE = 6 * 1024 * 1024 + 12_345;

/** The store, with its readers counted (open until their iterator is finished or returned), and get forbidden. */
function tracked(store: Storage) {
  const state = { open: 0, gets: 0, pieces: 0 };
  const wrapped: Storage = {
    put: (key, data) => store.put(key, data),
    remove: (key) => store.remove(key),
    get: (key) => {
      state.gets++;
      return store.get(key);
    },
    async read(key) {
      const inner = await store.read(key);
      if (!inner) return null;
      return {
        async *[Symbol.asyncIterator]() {
          state.open++;
          try {
            for await (const piece of inner) {
              state.pieces++;
              yield piece;
            }
          } finally {
            state.open--;
          }
        },
      };
    },
  };
  return { store: wrapped, state };
}

type Got = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; error: Error | null };

/** A GET over a real socket; the body as far as it came, and the error that cut it (if any). */
function download(url: string): Promise<Got> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), error: null }));
        res.on('error', (error) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), error }));
        res.on('aborted', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), error: new Error('aborted') }));
      })
      .on('error', reject);
  });
}

async function until(what: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('GET /files/{id} streams the stored file', () => {
  let env: TestEnv;
  let s3: S3TestServer;
  let original: Storage;
  let base: string;
  const data = crypto.randomBytes(SIZE);

  beforeAll(async () => {
    env = await testEnv();
    s3 = await startS3Server([BUCKET]);
    original = env.deps.storage;
    await new Promise<void>((resolve) => env.app.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(env.app.server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    env.deps.storage = original;
  });
  afterAll(async () => {
    if (env) {
      env.deps.storage = original;
      await new Promise((resolve) => env.app.server.close(resolve));
    }
    await s3?.close();
  });

  /** Stores a file through the service (bytes in the store, row in the table) and returns its signed URL (local path). */
  async function stored(bytes: Buffer, contentType = 'image/png') {
    const id = await withScope(env.deps.db, { kind: 'system' }, (tx) =>
      storeFile(tx, env.deps, { tenantId: env.fx.tenantA, kind: 'snapshot', data: bytes, contentType, extension: 'png', createdBy: env.fx.adminA }),
    );
    const [row] = await env.sql<{ storage_key: string }>(sql`SELECT storage_key FROM files WHERE id = ${id}`);
    const url = new URL(fileUrl(env.deps, id)!);
    return { id, key: row!.storage_key, url: `${base}${url.pathname}${url.search}`, path: `${url.pathname}${url.search}` };
  }

  const stores: Array<[string, () => Storage]> = [
    ['the local disk', () => localStorage(path.join(env.config.dataDir, 'files'))],
    ['S3 (s3rver)', () => s3Storage(s3.config(BUCKET))],
  ];

  for (const [name, make] of stores) {
    describe(name, () => {
      it('sends a file of several MB whole, with its length and headers, in pieces from the store', async () => {
        const t = tracked(make());
        env.deps.storage = t.store;
        const f = await stored(data);
        const got = await download(f.url);
        expect(got.status).toBe(200);
        expect(got.error).toBeNull();
        expect(got.headers['content-length']).toBe(String(SIZE));
        expect(got.headers['content-type']).toBe('image/png');
        expect(got.headers['cache-control']).toBe('private, max-age=3600');
        expect(got.headers['content-security-policy']).toBe("default-src 'none'");
        expect(got.body.length).toBe(SIZE);
        expect(got.body.equals(data)).toBe(true);
        expect(t.state.gets).toBe(0);
        expect(t.state.pieces).toBeGreaterThan(5);
        await until(() => t.state.open === 0);

        // HEAD: the same headers, and the file is not read.
        const pieces = t.state.pieces;
        const head = await env.app.inject({ method: 'HEAD', url: f.path });
        expect(head.statusCode).toBe(200);
        expect(head.headers['content-length']).toBe(String(SIZE));
        expect(head.rawPayload.length).toBe(0);
        await until(() => t.state.open === 0);
        expect(t.state.pieces - pieces).toBeLessThanOrEqual(1);

        // An empty file: 200 with length 0.
        const empty = await stored(Buffer.alloc(0));
        const e = await download(empty.url);
        expect([e.status, e.headers['content-length'], e.body.length]).toEqual([200, '0', 0]);
      });

      it('answers 404 when the object is missing from the store, and the signed-URL checks still hold', async () => {
        env.deps.storage = make();
        const f = await stored(Buffer.from('gone soon'));
        await env.deps.storage.remove(f.key);
        const res = await env.app.inject({ method: 'GET', url: f.path });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'not_found' });
        const kept = await stored(Buffer.from('kept'));
        const forged = await env.app.inject({ method: 'GET', url: kept.path.replace(/sig=[^&]+/, 'sig=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA') });
        expect(forged.statusCode).toBe(404);
      });

      it('closes the store’s reader when the client goes away mid-download', async () => {
        const t = tracked(make());
        env.deps.storage = t.store;
        const f = await stored(data);
        const fdsBefore = openFiles(f.key);
        await new Promise<void>((resolve, reject) => {
          const req = http.get(f.url, (res) => {
            res.once('data', () => {
              // The first bytes arrived: hang up.
              req.destroy();
              resolve();
            });
          });
          req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
        });
        await until(() => t.state.open === 0);
        // Not read to the end (S3 fetches 8 MiB ranges, so there the one range was fetched whole).
        if (name === 'the local disk') expect(t.state.pieces).toBeLessThan(SIZE / (1024 * 1024));
        // No file handle on the stored file is left open (local disk; Linux's /proc).
        await until(() => openFiles(f.key) <= fdsBefore);
      });
    });
  }

  it('answers 503 with a log line when the store fails before the first byte, and cuts the response when it fails midway', async () => {
    const failing = (after: number): Storage => ({
      ...original,
      async read(key) {
        const inner = await original.read(key);
        if (!inner) return null;
        return {
          async *[Symbol.asyncIterator]() {
            let n = 0;
            for await (const piece of inner) {
              if (n++ === after) throw new StorageError('get', key, 'unreachable', 'bucket test: ECONNRESET');
              yield piece;
            }
          },
        };
      },
    });
    env.deps.storage = original;
    const f = await stored(data);

    env.deps.storage = failing(0);
    const logged = env.serverLog.length;
    const res = await env.app.inject({ method: 'GET', url: f.path });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'storage_unavailable' });
    expect(env.serverLog.slice(logged).some((l) => l.level === 50 && /storage unavailable.*ECONNRESET/.test(l.msg))).toBe(true);

    env.deps.storage = failing(2);
    const before = env.serverLog.length;
    const got = await download(f.url);
    expect(got.status).toBe(200);
    expect(got.error).not.toBeNull();
    expect(got.body.length).toBeLessThan(SIZE);
    await until(() =>
      env.serverLog.slice(before).some((l) => l.level === 50 && /file download ended early: .*could not be reached \(bucket test: ECONNRESET\)/.test(l.msg)),
    );
  });
});

/** Open file descriptors of this process on the stored file (Linux; 0 elsewhere). */
function openFiles(key: string): number {
  try {
    return fs.readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`).endsWith(key);
      } catch {
        return false;
      }
    }).length;
  } catch {
    return 0;
  }
}
