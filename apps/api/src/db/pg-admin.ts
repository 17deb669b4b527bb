// PostgreSQL set-up steps shared by the command-line tools (db:setup, db:migrate-embedded).
import pg from 'pg';

/** Creates the URL's database through the server's `postgres` database when it does not exist; true if it was created. */
export async function createDatabaseIfMissing(adminUrl: string): Promise<boolean> {
  const dbName = decodeURIComponent(new URL(adminUrl).pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`Unsupported database name "${dbName}" (use lowercase letters, digits and _)`);
  const maintenance = new URL(adminUrl);
  maintenance.pathname = '/postgres';
  const root = new pg.Client({ connectionString: maintenance.toString() });
  await root.connect();
  try {
    if ((await root.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName])).rowCount !== 0) return false;
    await root.query(`CREATE DATABASE ${dbName}`);
    return true;
  } finally {
    await root.end();
  }
}
