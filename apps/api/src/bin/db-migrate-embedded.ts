// npm run db:migrate-embedded -- --to postgres://owner@host:5432/farmland
// Copies the embedded installation (DATA_DIR/pglite, the server stopped) into a PostgreSQL database: creates the database
// if missing, applies the migrations, copies every table and checks each one's row count and checksum before it commits
// (db/migrate-embedded.ts). Then run db:setup on the same URL for the login role, and start in PostgreSQL mode.
import { loadConfig } from '../config.js';
import { openDatabase, runPgMigrations } from '../db/client.js';
import { liveServer } from '../lib/instance-lock.js';
import { copyEmbeddedToPostgres, MigrateRefusal } from '../db/migrate-embedded.js';
import { createDatabaseIfMissing } from '../db/pg-admin.js';

const i = process.argv.indexOf('--to');
const to = i >= 0 ? process.argv[i + 1] : undefined;
if (!to || !/^postgres(ql)?:\/\//.test(to)) {
  process.stderr.write(
    'Usage: npm run db:migrate-embedded -- --to postgres://owner@host:5432/farmland   (a superuser URL; DATA_DIR names the embedded data)\n',
  );
  process.exit(2);
}

const config = loadConfig();
if (config.database.kind !== 'pglite' || !config.database.dataDir) {
  process.stderr.write(
    'DATABASE_URL is set: this command copies the embedded database (DATA_DIR/pglite). Unset DATABASE_URL and point DATA_DIR at the embedded installation.\n',
  );
  process.exit(2);
}
const running = liveServer(config.dataDir);
if (running) {
  process.stderr.write(
    `The embedded server (pid ${running.pid}, port ${running.port}) is running on ${config.dataDir}. Stop it first: the copy must see data that does not change.\n`,
  );
  process.exit(2);
}

const t0 = Date.now();
try {
  if (await createDatabaseIfMissing(to)) process.stdout.write(`created database ${new URL(to).pathname.slice(1)}\n`);
  await runPgMigrations(to);
  const source = await openDatabase({ kind: 'pglite', dataDir: config.database.dataDir });
  try {
    process.stdout.write(`copying ${config.database.dataDir} into ${new URL(to).host}${new URL(to).pathname}\n`);
    const report = await copyEmbeddedToPostgres(source, to, (line) => process.stdout.write(`${line}\n`));
    process.stdout.write(
      `\ncopied ${report.totalRows.toLocaleString('en-US')} rows of ${report.tables.length} tables in ${((Date.now() - t0) / 1000).toFixed(1)} s; every table's row count and checksum match.\n` +
        `Next:\n  npm run db:setup -- --admin-url ${to}   (creates the login role; migrations and lookups are already there)\n` +
        `  then start with the DATABASE_URL it prints, DATABASE_ADMIN_URL=${to} and the same DATA_DIR=${config.dataDir} (uploaded files stay in DATA_DIR/files).\n`,
    );
  } finally {
    await source.close();
  }
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(err instanceof MigrateRefusal ? 2 : 1);
}
