// npm run db:migrate-embedded (issue 15 §5): an embedded installation copied into PostgreSQL keeps every row and every
// geometry, byte for byte; a target that already holds data is refused with nothing written. Runs in the PostgreSQL
// suite (it needs a PostgreSQL server as the target); the source is a new embedded database with the demo data.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, runPgMigrations, type Database } from './client.js';
import { seedDemoIfEmpty } from '../seed/seed-demo.js';
import { seedLookupsIfEmpty } from '../seed/seed-lookups.js';
import { withDatabase } from '../test/engine.js';
import { copyEmbeddedToPostgres, MigrateRefusal } from './migrate-embedded.js';
import { createDatabaseIfMissing } from './pg-admin.js';

const url = process.env['TEST_DATABASE_URL'];
const dbName = `farmland_me_${crypto.randomBytes(4).toString('hex')}`;
const targetUrl = url ? withDatabase(url, dbName) : '';
let source: Database;

/** Every farm's id and exact geometry (EWKB), every farmer's id and names, and the row count of every public table. */
const FINGERPRINT = `
  SELECT (SELECT md5(string_agg(id::text || ':' || encode(ST_AsEWKB(geom), 'hex'), ',' ORDER BY id)) FROM farms) AS farms,
         (SELECT md5(string_agg(id::text || ':' || encode(ST_AsEWKB(geom), 'hex'), ',' ORDER BY id)) FROM operational_areas) AS areas,
         (SELECT md5(string_agg(id::text || ':' || first_name || '|' || last_name, ',' ORDER BY id)) FROM farmers) AS farmers,
         (SELECT count(*)::int FROM farms) AS farm_count`;
const TABLES = `SELECT c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'spatial_ref_sys' ORDER BY 1`;

describe.runIf(url)('copy an embedded installation into PostgreSQL', () => {
  beforeAll(async () => {
    source = await openDatabase({ kind: 'pglite', dataDir: null });
    await seedLookupsIfEmpty(source);
    await seedDemoIfEmpty(source);
    // Values that a text round trip could bend: quotes, commas, braces, backslashes and non-ASCII in array elements.
    await source.adminExec(`UPDATE farmers SET first_name = 'O''Brien, "Jr" {x} \\ ü' WHERE id = (SELECT id FROM farmers ORDER BY id LIMIT 1)`);
    await createDatabaseIfMissing(targetUrl);
    await runPgMigrations(targetUrl);
  }, 300_000);

  afterAll(async () => {
    await source?.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  });

  it('copies every table, and the farms, areas and farmers are identical afterwards', async () => {
    const lines: string[] = [];
    const report = await copyEmbeddedToPostgres(source, targetUrl, (l) => lines.push(l));
    const target = new pg.Client({ connectionString: targetUrl });
    await target.connect();
    try {
      const [mine] = await source.adminQuery<Record<string, unknown>>(FINGERPRINT);
      const theirs = (await target.query(FINGERPRINT)).rows[0];
      expect(mine!['farm_count']).toBeGreaterThan(100);
      expect(theirs).toEqual(mine);
      const tables = (await source.adminQuery<{ t: string }>(TABLES)).map((r) => r.t);
      expect(report.tables.map((r) => r.table)).toEqual(tables);
      for (const { table, rows } of report.tables) {
        const [{ n }] = (await target.query(`SELECT count(*)::int AS n FROM public."${table}"`)).rows as [{ n: number }];
        const [s] = await source.adminQuery<{ n: number }>(`SELECT count(*)::int AS n FROM public."${table}"`);
        expect([table, n]).toEqual([table, s!.n]);
        expect(rows).toBe(s!.n);
      }
      expect(lines.length).toBe(tables.length);
    } finally {
      await target.end();
    }
  }, 300_000);

  it('refuses a target that already holds tenants, and writes nothing', async () => {
    const target = new pg.Client({ connectionString: targetUrl });
    await target.connect();
    try {
      const before = (await target.query('SELECT count(*)::int AS n FROM farms')).rows[0];
      await source.adminExec(`UPDATE farms SET name = name || ' (changed)' WHERE id = (SELECT id FROM farms ORDER BY id LIMIT 1)`);
      await expect(copyEmbeddedToPostgres(source, targetUrl, () => undefined)).rejects.toBeInstanceOf(MigrateRefusal);
      expect((await target.query('SELECT count(*)::int AS n FROM farms')).rows[0]).toEqual(before);
      const changed = (await target.query(`SELECT count(*)::int AS n FROM farms WHERE name LIKE '% (changed)'`)).rows[0];
      expect(changed).toEqual({ n: 0 });
    } finally {
      await target.end();
    }
  }, 120_000);
});
