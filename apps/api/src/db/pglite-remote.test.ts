// The embedded database in its worker thread, seen through RemotePglite: statements, transactions (commit, rollback,
// exclusive while open), PostgreSQL error fields across the thread, the data-directory dump, and a crash of the thread.
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemotePglite } from './pglite-remote.js';

// PGlite-only: the PostgreSQL run of the suite skips it.
describe.skipIf(Boolean(process.env['TEST_DATABASE_URL']))('RemotePglite', () => {
  let db: RemotePglite;

  beforeAll(async () => {
    db = await RemotePglite.create({ dataDir: null });
    await db.exec('CREATE TABLE t (id int PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())');
  });
  afterAll(async () => {
    await db.close();
  });

  it('runs statements with parameters, in object and array row modes, keeping drizzle’s text types as text', async () => {
    await db.query('INSERT INTO t (id) VALUES ($1), ($2)', [1, 2]);
    const objects = await db.query<{ id: number; at: Date }>('SELECT id, at FROM t ORDER BY id');
    expect(objects.rows.map((r) => r.id)).toEqual([1, 2]);
    expect(objects.rows[0]!.at).toBeInstanceOf(Date);
    const arrays = await db.query<unknown[]>('SELECT id, at FROM t WHERE id = $1', [1], { rowMode: 'array', parsers: { 1184: (v: string) => v } });
    expect(arrays.rows[0]![0]).toBe(1);
    expect(typeof arrays.rows[0]![1]).toBe('string');
    await expect(db.query('SELECT 1', [], { parsers: { 1184: () => 'changed' } })).rejects.toThrow(/text-preserving/);
  });

  it('commits a transaction, rolls one back when its body throws, and keeps other statements out while one is open', async () => {
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES (10)');
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (11)');
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    const order: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inTx = db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES (12)');
      order.push('tx wrote');
      await held;
      order.push('tx ends');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = db.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id >= 10').then((r) => {
      order.push('outside read');
      return r.rows[0]!.n;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await inTx;
    expect(await outside).toBe(2);
    expect(order).toEqual(['tx wrote', 'tx ends', 'outside read']);
  });

  it('carries PostgreSQL error fields (code, constraint, detail) to the caller', async () => {
    const err = await db.query('INSERT INTO t (id) VALUES (1)').catch((e: unknown) => e as Error & { code?: string; constraint?: string });
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', constraint: 't_pkey' });
    expect((err as Error).message).toMatch(/duplicate key/);
  });

  it('dumps its data directory and opens a copy from it', async () => {
    const dump = await db.dumpDataDir();
    expect(dump.size).toBeGreaterThan(1000);
    const copy = await RemotePglite.create({ dataDir: null, loadDataDir: dump });
    try {
      // 1, 2, 10 and 12 (11 was rolled back).
      expect((await copy.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]!.n).toBe(4);
    } finally {
      await copy.close();
    }
  });

  it('reports a crash of its thread once, and fails later statements instead of hanging', async () => {
    const crashes: Error[] = [];
    const doomed = await RemotePglite.create({ dataDir: null, onCrash: (e) => crashes.push(e) });
    await (doomed as unknown as { worker: Worker }).worker.terminate();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(crashes).toHaveLength(1);
    await expect(doomed.query('SELECT 1')).rejects.toThrow(/stopped/);
    expect(doomed.closed).toBe(true);
    // A fresh embedded database starts in ~11 s on an idle machine; far longer while the other test worker is busy.
  }, 120_000);
});
