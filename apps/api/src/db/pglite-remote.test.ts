// The embedded database in its worker thread, seen through RemotePglite: statements, transactions (commit, rollback,
// exclusive while open, statements sent before BEGIN answered, a prologue), batches, types both ways, the
// prepared-statement cache, PostgreSQL error fields across the thread, the data-directory dump, and a crash of the thread.
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemotePglite } from './pglite-remote.js';
import { MAX_PREPARED } from './pglite-settings.js';

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

  it('runs a transaction’s statements in the order sent, after BEGIN and its prologue, though sent before BEGIN answered', async () => {
    await db.exec('CREATE TABLE ordered (n int)');
    const seen = await db.transaction(
      async (tx) => {
        // Not awaited one by one: every statement is on its way before the first answer.
        const writes = Array.from({ length: 20 }, (_, i) => tx.query('INSERT INTO ordered VALUES ($1)', [i]));
        const scope = tx.query<{ s: string }>(`SELECT current_setting('app.probe', true) AS s`);
        await Promise.all(writes);
        return (await scope).rows[0]!.s;
      },
      [{ text: `SELECT set_config('app.probe', $1, true)`, params: ['from the prologue'] }],
    );
    expect(seen).toBe('from the prologue');
    const rows = await db.query<{ n: number }>('SELECT n FROM ordered');
    expect(rows.rows.map((r) => r.n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // The prologue's setting was local to that transaction.
    expect((await db.query<{ s: string | null }>(`SELECT current_setting('app.probe', true) AS s`)).rows[0]!.s ?? '').toBe('');
  });

  it('fails every statement of a transaction whose prologue fails, and leaves the connection usable', async () => {
    const err = await db
      .transaction(async (tx) => tx.query('INSERT INTO t (id) VALUES (500)'), [{ text: 'SELECT 1 / $1::int', params: [0] }])
      .catch((e: unknown) => e as Error & { code?: string });
    expect(err).toMatchObject({ code: '22012' });
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = 500')).rows[0]!.n).toBe(0);
  });

  it('runs a batch as one implicit transaction: its settings reach the next statement, and an error undoes it all', async () => {
    const [, probe] = await db.batch([
      { text: `SELECT set_config('app.probe', $1, true)`, params: ['batch'] },
      { text: `SELECT current_setting('app.probe', true) AS s`, params: [] },
    ]);
    expect(probe!.rows).toEqual([{ s: 'batch' }]);
    expect((await db.query<{ s: string | null }>(`SELECT current_setting('app.probe', true) AS s`)).rows[0]!.s ?? '').toBe('');
    await expect(
      db.batch([
        { text: 'INSERT INTO t (id) VALUES ($1)', params: [600] },
        { text: 'INSERT INTO t (id) VALUES ($1)', params: [1] },
      ]),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = 600')).rows[0]!.n).toBe(0);
  });

  it('keeps PGlite’s types both ways: json, arrays, bytea, booleans, dates and nulls', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const r = await db.query<Record<string, unknown>>(
      `SELECT $1::jsonb AS j, $2::int[] AS a, $3::bytea AS b, $4::boolean AS t, $5::timestamptz AS at, $6::text AS n, ARRAY['x', NULL] AS texts, 2.5::float8 AS f`,
      [JSON.stringify({ k: [1, 'two'] }), [1, 2, 3], new Uint8Array([0, 255]), true, at, null],
    );
    expect(r.rows[0]).toEqual({ j: { k: [1, 'two'] }, a: [1, 2, 3], b: new Uint8Array([0, 255]), t: true, at, n: null, texts: ['x', null], f: 2.5 });
    expect(r.fields.map((f) => f.name)).toEqual(['j', 'a', 'b', 't', 'at', 'n', 'texts', 'f']);
  });

  it('answers correctly past the prepared-statement cap, and after a table under a prepared statement changes', async () => {
    for (let i = 0; i < MAX_PREPARED + 30; i++) {
      expect((await db.query<{ v: number }>(`SELECT $1::int + ${i} AS v`, [1])).rows[0]!.v).toBe(i + 1);
    }
    // Early ones were closed to make room; they are prepared again.
    expect((await db.query<{ v: number }>('SELECT $1::int + 0 AS v', [5])).rows[0]!.v).toBe(5);
    await db.exec('CREATE TABLE reshaped (a int); INSERT INTO reshaped VALUES (1)');
    expect((await db.query('SELECT * FROM reshaped')).rows).toEqual([{ a: 1 }]);
    await db.exec('ALTER TABLE reshaped ADD COLUMN b int DEFAULT 2');
    // PostgreSQL refuses a prepared plan whose result type changed (0A000) at most once; the statement is then prepared anew.
    const again = await db.query('SELECT * FROM reshaped').catch((e: { code?: string }) => e);
    if ('code' in again) expect(again.code).toBe('0A000');
    expect((await db.query('SELECT * FROM reshaped')).rows).toEqual([{ a: 1, b: 2 }]);
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
