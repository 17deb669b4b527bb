// npm run db:backup / db:restore (issue 17 §5): a backup round-trips on the engine under test, and a file that is not
// a backup changes nothing.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import { LEAKPROOF_FUNCTIONS } from './leakproof.js';
import { withDatabase } from '../test/engine.js';
import { testEnv, type TestEnv } from '../test/harness.js';
import { BackupError, backupPostgres, dumpEmbedded, restoreEmbedded, restorePostgres, restorePostgresInto } from './backup.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-backup-'));
const COUNTS = sql`SELECT (SELECT count(*) FROM farms)::int AS farms, (SELECT count(*) FROM farmers)::int AS farmers, (SELECT count(*) FROM users)::int AS users`;

describe('backup and restore', () => {
  it('round-trips the embedded database, keeping the previous one aside', async () => {
    if (env.engine !== 'pglite') return;
    const dir = tmp();
    try {
      const before = (await env.sql<{ farms: number; farmers: number; users: number }>(COUNTS))[0]!;
      expect(before.farms).toBeGreaterThan(0);
      const file = path.join(dir, 'backup.tar.gz');
      expect(await dumpEmbedded(() => env.database.dumpDataDir!(), file)).toBeGreaterThan(0);
      const target = path.join(dir, 'pglite');
      fs.mkdirSync(target);
      fs.writeFileSync(path.join(target, 'marker'), 'the database before the restore');
      const { previous } = await restoreEmbedded(target, file);
      expect(fs.readFileSync(path.join(previous!, 'marker'), 'utf8')).toBe('the database before the restore');
      const restored = await openDatabase({ kind: 'pglite', dataDir: target });
      try {
        const [after] = await restored.adminQuery<{ farms: number; farmers: number; users: number }>(
          'SELECT (SELECT count(*) FROM farms)::int AS farms, (SELECT count(*) FROM farmers)::int AS farmers, (SELECT count(*) FROM users)::int AS users',
        );
        expect(after).toEqual(before);
      } finally {
        await restored.close();
      }
      // A file that is not a backup is refused before anything moves.
      const junk = path.join(dir, 'junk.tar.gz');
      fs.writeFileSync(junk, crypto.randomBytes(4096));
      await expect(restoreEmbedded(target, junk)).rejects.toBeInstanceOf(BackupError);
      expect(fs.existsSync(path.join(target, 'PG_VERSION'))).toBe(true);
      expect(fs.readdirSync(dir).filter((f) => f.includes('restoring'))).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('round-trips a PostgreSQL database with pg_dump and pg_restore', async () => {
    if (env.engine !== 'postgres') return;
    const dir = tmp();
    const url = process.env['TEST_DATABASE_URL']!;
    const name = `farmland_restore_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const before = (await env.sql<{ farms: number; farmers: number; users: number }>(COUNTS))[0]!;
      const file = path.join(dir, 'backup.dump');
      await backupPostgres(env.adminUrl!, file);
      await admin.query(`CREATE DATABASE ${name}`);
      await restorePostgresInto(withDatabase(url, name), file);
      const copy = new pg.Client({ connectionString: withDatabase(url, name) });
      await copy.connect();
      try {
        const after = (await copy.query(COUNTS_TEXT)).rows[0] as unknown;
        expect(after).toEqual(before);
        // Row-level security came back with the tables.
        const rls = await copy.query(`SELECT relforcerowsecurity FROM pg_class WHERE relname = 'farms'`);
        expect(rls.rows[0].relforcerowsecurity).toBe(true);
        // So did the LEAKPROOF marks that let RLS-scoped searches and spatial queries use their indexes (pg_dump drops them).
        const marks = await copy.query(`SELECT p.oid::regprocedure::text AS f, p.proleakproof FROM pg_proc p WHERE p.oid = ANY($1::regprocedure[])`, [
          [...LEAKPROOF_FUNCTIONS],
        ]);
        expect(marks.rows.map((r: { f: string; proleakproof: boolean }) => [r.f, r.proleakproof]).sort()).toEqual(
          [...LEAKPROOF_FUNCTIONS].map((f) => [f.replace(', ', ','), true]).sort(),
        );
        expect((await copy.query(`UPDATE tenants SET name = name || ' (changed)'`)).rowCount).toBeGreaterThan(0);
      } finally {
        await copy.end();
      }
      // Over an existing database: the backup goes in beside it, then takes its name; the changed one is kept aside.
      const { previous } = await restorePostgres(withDatabase(url, name), file);
      const back = new pg.Client({ connectionString: withDatabase(url, name) });
      await back.connect();
      expect((await back.query(`SELECT count(*)::int AS n FROM tenants WHERE name LIKE '%(changed)'`)).rows[0].n).toBe(0);
      expect((await back.query(COUNTS_TEXT)).rows[0]).toEqual(before);
      await back.end();
      await admin.query(`DROP DATABASE IF EXISTS ${previous} WITH (FORCE)`);
      await expect(restorePostgres(withDatabase(url, name), path.join(dir, 'missing.dump'))).rejects.toBeInstanceOf(BackupError);
      // With a connection open to it, the database is not swapped, and the staging copy is dropped.
      const holder = new pg.Client({ connectionString: withDatabase(url, name) });
      await holder.connect();
      await expect(restorePostgres(withDatabase(url, name), file)).rejects.toThrow(/stop the API/);
      await holder.end();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

const COUNTS_TEXT =
  'SELECT (SELECT count(*) FROM farms)::int AS farms, (SELECT count(*) FROM farmers)::int AS farmers, (SELECT count(*) FROM users)::int AS users';
