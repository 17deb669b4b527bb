// npm run db:setup -- --admin-url <owner URL> [--app-user farmland_login] [--app-password secret]
// Prepares a PostgreSQL database for the platform: creates it if missing, applies the migrations (PostGIS, tables,
// row-level security, the farmland_app role), seeds the lookups, and creates a login role that is a member of
// farmland_app (never a superuser, never BYPASSRLS). Prints the DATABASE_URL and DATABASE_ADMIN_URL to use.
import pg from 'pg';
import { runPgMigrations, type Database } from '../db/client.js';
import { seedLookupsIfEmpty } from '../seed/seed-lookups.js';
import { createDatabaseIfMissing } from '../db/pg-admin.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const adminUrl = arg('admin-url') ?? process.env['DATABASE_ADMIN_URL'];
const appUser = arg('app-user') ?? 'farmland_login';
const appPassword = arg('app-password');
if (!adminUrl || !/^[a-z_][a-z0-9_]*$/.test(appUser)) {
  process.stderr.write('Usage: npm run db:setup -- --admin-url postgres://owner@host:5432/farmland [--app-user farmland_login] [--app-password secret]\n');
  process.exit(2);
}

try {
  if (await createDatabaseIfMissing(adminUrl)) process.stdout.write(`created database ${new URL(adminUrl).pathname.slice(1)}\n`);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(2);
}

await runPgMigrations(adminUrl);
const pool = new pg.Pool({ connectionString: adminUrl, max: 1 });
const lookups = await seedLookupsIfEmpty({
  adminQuery: async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[],
} as Database);
if (lookups.seeded) process.stdout.write(`seeded countries, states and cities in ${lookups.ms} ms\n`);
const exists = (await pool.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [appUser])).rowCount !== 0;
const password = appPassword ? ` PASSWORD '${appPassword.replace(/'/g, "''")}'` : '';
await pool.query(`${exists ? 'ALTER' : 'CREATE'} ROLE ${appUser} LOGIN NOSUPERUSER NOBYPASSRLS${password}`);
await pool.query(`GRANT farmland_app TO ${appUser}`);
await pool.end();

const appUrl = new URL(adminUrl);
appUrl.username = appUser;
appUrl.password = appPassword ?? '';
process.stdout.write(`\nReady. Start the platform with:\n  DATABASE_URL=${appUrl.toString()} DATABASE_ADMIN_URL=${adminUrl} npm start\n`);
