// Vitest global setup: prepares the database template once per run, so that each worker starts in seconds.
// PGlite: a dumped data directory (migrated, lookups seeded) cached under .test-data/ by a hash of the migrations and seed code.
// PostgreSQL (TEST_DATABASE_URL): a template database and a non-superuser login role that is a member of farmland_app.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrationsFolder, openDatabase, runPgMigrations, type Database } from '../db/client.js';
import { seedLookupsIfEmpty } from '../seed/seed-lookups.js';
import { pgTemplateName, PG_TEST_ROLE, pgliteTemplatePath, withDatabase } from './engine.js';

function fingerprint(): string {
  const h = crypto.createHash('sha256');
  for (const f of fs.readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const p = path.join(migrationsFolder, f);
    if (fs.statSync(p).isFile()) h.update(f).update(fs.readFileSync(p));
  }
  for (const f of ['../seed/lookups-data.ts', '../seed/seed-lookups.ts', '../seed/lookups.worker.ts', '../seed/uuid-v5.ts'])
    h.update(fs.readFileSync(path.resolve(import.meta.dirname, f)));
  return h.digest('hex').slice(0, 16);
}

async function preparePglite(fp: string): Promise<void> {
  const file = pgliteTemplatePath(fp);
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  await seedLookupsIfEmpty(database);
  const dump = await database.dumpDataDir!();
  fs.writeFileSync(`${file}.tmp`, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(`${file}.tmp`, file);
  await database.close();
}

async function preparePostgres(url: string, fp: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const tpl = pgTemplateName(fp);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [tpl]);
    if (exists.rowCount === 0) {
      const build = `${tpl}_build`;
      await admin.query(`DROP DATABASE IF EXISTS ${build}`);
      await admin.query(`CREATE DATABASE ${build}`);
      await runPgMigrations(withDatabase(url, build));
      const pool = new pg.Pool({ connectionString: withDatabase(url, build), max: 1 });
      // The lookup seeder needs only adminQuery: run it with the owner's connection.
      await seedLookupsIfEmpty({ adminQuery: async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[] } as Database);
      await pool.end();
      await admin.query(`ALTER DATABASE ${build} RENAME TO ${tpl}`);
    }
    const role = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [PG_TEST_ROLE]);
    if (role.rowCount === 0) await admin.query(`CREATE ROLE ${PG_TEST_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE farmland_app`);
  } finally {
    await admin.end();
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  const fp = fingerprint();
  process.env['FARMLAND_TEST_FP'] = fp;
  const run = crypto.randomBytes(4).toString('hex');
  process.env['FARMLAND_TEST_RUN'] = run;
  const url = process.env['TEST_DATABASE_URL'];
  if (url) await preparePostgres(url, fp);
  else await preparePglite(fp);
  return async () => {
    if (!url) return;
    // Each worker cloned its own database from the template; drop them all at the end of the run.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const dbs = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`farmland\\_t\\_${run}\\_%`]);
    for (const { datname } of dbs.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  };
}
