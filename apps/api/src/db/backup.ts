// Backups (npm run db:backup / db:restore). The embedded database is dumped as PGlite's own data-directory archive
// (a gzipped tar of the cluster, consistent because PGlite is one process and dumps between statements); PostgreSQL with
// pg_dump's custom format, restored by pg_restore. A restore of the embedded database is checked by opening it (and
// applying any newer migrations) before it replaces the current one, which is kept beside it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { leakproofStatements } from './leakproof.js';
import { openDatabase } from './client.js';

export class BackupError extends Error {}

/** Runs a PostgreSQL client tool; its stderr becomes the error. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.on('error', (err) =>
      reject(new BackupError(`${command} could not start (${err.message}): install the PostgreSQL client tools of the server's version`)),
    );
    child.on('close', (code) => (code === 0 ? resolve() : reject(new BackupError(`${command} failed (exit ${code}): ${stderr.trim().slice(0, 2000)}`))));
  });
}

/** pg_dump --format=custom of the owner's URL (tables, row-level security, grants to farmland_app, the queue). */
export async function backupPostgres(ownerUrl: string, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await run('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, `--dbname=${ownerUrl}`]);
}

/**
 * pg_restore into an empty database, in one transaction (a failure leaves it empty), then the LEAKPROOF marks that
 * pg_dump does not carry (db/leakproof.ts). Without a superuser they are left out with a warning, as the migrations do.
 */
export async function restorePostgresInto(url: string, file: string, warn: (message: string) => void = (m) => process.stderr.write(`${m}\n`)): Promise<void> {
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist`);
  await run('pg_restore', ['--single-transaction', '--no-owner', '--exit-on-error', `--dbname=${url}`, file]);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of leakproofStatements()) {
      await client.query(statement).catch((err: { code?: string; message?: string }) => {
        if (err.code !== '42501') throw err;
        warn(
          `Could not run "${statement}" (needs a superuser): searches and spatial queries under row-level security will not use their indexes until a superuser runs it.`,
        );
      });
    }
  } finally {
    await client.end();
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Restores over the database of ownerUrl, as the embedded restore does: the backup goes into a new database first (a
 * damaged file fails there and nothing changes), then, with nothing connected to the current database (stop the API and
 * the workers), the current one is renamed aside and the new one takes its name. pg_restore --clean is not used: it
 * cannot drop the queue's partitioned tables. The owner needs CREATEDB.
 */
export async function restorePostgres(ownerUrl: string, file: string): Promise<{ previous: string }> {
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist`);
  const target = new URL(ownerUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const staging = `${name.slice(0, 40)}_restoring_${stamp}`;
  const previous = `${name.slice(0, 40)}_before_${stamp}`;
  const maintenance = new URL(ownerUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${quoteIdent(staging)}`);
    const stagingUrl = new URL(ownerUrl);
    stagingUrl.pathname = `/${encodeURIComponent(staging)}`;
    try {
      await restorePostgresInto(stagingUrl.toString(), file);
    } catch (err) {
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(staging)}`);
      throw err;
    }
    const busy = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
    if ((busy.rows[0]?.n ?? 0) > 0) {
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(staging)}`);
      throw new BackupError(`${busy.rows[0]!.n} connection(s) are open to ${name}: stop the API and the workers, then restore.`);
    }
    await client.query(`ALTER DATABASE ${quoteIdent(name)} RENAME TO ${quoteIdent(previous)}`);
    await client.query(`ALTER DATABASE ${quoteIdent(staging)} RENAME TO ${quoteIdent(name)}`);
    return { previous };
  } finally {
    await client.end();
  }
}

/** The embedded database's archive, from a database this process has open. */
export async function dumpEmbedded(dump: () => Promise<Blob>, file: string): Promise<number> {
  const bytes = Buffer.from(await (await dump()).arrayBuffer());
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.partial`, bytes);
  fs.renameSync(`${file}.partial`, file);
  return bytes.length;
}

/** Opens the embedded database at rest (no server running), dumps it, closes it. */
export async function backupEmbeddedAtRest(pgliteDir: string, file: string): Promise<number> {
  if (!fs.existsSync(pgliteDir)) throw new BackupError(`There is no embedded database at ${pgliteDir}`);
  const database = await openDatabase({ kind: 'pglite', dataDir: pgliteDir });
  try {
    return await dumpEmbedded(() => database.dumpDataDir!(), file);
  } finally {
    await database.close();
  }
}

/**
 * Checks that a file is a PGlite data-directory archive (a gzipped tar holding a cluster's PG_VERSION) before PGlite
 * reads it: PGlite fails on a damaged archive inside its worker, where the error cannot be caught.
 */
export function checkEmbeddedArchive(file: string): Buffer {
  const bytes = fs.readFileSync(file);
  let tar: Buffer;
  try {
    if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) throw new Error('not gzip');
    tar = zlib.gunzipSync(bytes);
  } catch {
    throw new BackupError(`${file} is not a backup of the embedded database (not a gzipped archive)`);
  }
  // Walk the tar headers (512-byte blocks: name at 0, size in octal at 124) looking for the cluster's PG_VERSION.
  let found = false;
  for (let at = 0; at + 512 <= tar.length && !found;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) break;
    if (/(^|\/)PG_VERSION$/.test(name)) found = true;
    at += 512 + Math.ceil(size / 512) * 512;
  }
  if (!found) throw new BackupError(`${file} is not a backup of the embedded database (no PostgreSQL cluster in the archive)`);
  return bytes;
}

/**
 * Restores an archive into pgliteDir: it is loaded into a new directory and opened there first (a damaged or foreign
 * file fails here, and nothing changes); then the current directory moves aside (returned) and the new one takes its
 * place.
 */
export async function restoreEmbedded(pgliteDir: string, file: string): Promise<{ previous: string | null }> {
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist`);
  const archive = checkEmbeddedArchive(file);
  const staging = `${pgliteDir}.restoring-${Date.now()}`;
  try {
    const database = await openDatabase({ kind: 'pglite', dataDir: staging, loadDataDir: new Blob([archive]) });
    await database.adminQuery('SELECT count(*) FROM tenants');
    await database.close();
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new BackupError(`${file} is not a backup of this platform's embedded database: ${(err as Error).message}`);
  }
  let previous: string | null = null;
  if (fs.existsSync(pgliteDir)) {
    previous = `${pgliteDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(pgliteDir, previous);
  }
  fs.renameSync(staging, pgliteDir);
  return { previous };
}
