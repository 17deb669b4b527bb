// npm run db:restore -- FILE: puts a backup of npm run db:backup back.
// The server (and, on PostgreSQL, the workers) must be stopped. Embedded: the archive is opened in a new directory
// first, then replaces DATA_DIR/pglite, whose previous content is kept beside it (pglite.before-restore-<time>).
// PostgreSQL: pg_restore into a new database first, then the current one (DATABASE_ADMIN_URL's) is renamed
// <name>_before_<time> and the new one takes its name. A failure changes nothing.
import { loadConfig } from '../config.js';
import { restoreEmbedded, restorePostgres } from '../db/backup.js';
import { liveServer } from '../lib/instance-lock.js';

const file = process.argv[2];
if (!file) {
  process.stderr.write('Usage: npm run db:restore -- <backup file>\n');
  process.exit(2);
}
const config = loadConfig();
try {
  const t0 = Date.now();
  if (config.database.kind === 'postgres') {
    const { previous } = await restorePostgres(config.database.adminUrl, file);
    process.stdout.write(`restored ${file} in ${((Date.now() - t0) / 1000).toFixed(1)} s; the previous database is kept as ${previous}\n`);
  } else {
    const running = liveServer(config.dataDir);
    if (running) throw new Error(`A server (pid ${running.pid}) is using ${config.dataDir}: stop it, then restore.`);
    const { previous } = await restoreEmbedded(config.database.dataDir!, file);
    process.stdout.write(`restored ${file} in ${((Date.now() - t0) / 1000).toFixed(1)} s${previous ? `; the previous database is kept in ${previous}` : ''}\n`);
  }
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
}
