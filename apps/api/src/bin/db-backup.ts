// npm run db:backup -- [--out FILE]: a backup of the configured database.
// Embedded (no DATABASE_URL): PGlite's archive of DATA_DIR/pglite, asked of the running server over loopback when one
// owns the directory, else read at rest. PostgreSQL: pg_dump --format=custom of DATABASE_ADMIN_URL (or DATABASE_URL).
// Default file: DATA_DIR/backups/farmland-<engine>-<time>.(tar.gz|dump).
import fs from 'node:fs';
import path from 'node:path';
import { resolveSecret } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { backupEmbeddedAtRest, backupPostgres } from '../db/backup.js';
import { deriveKeys } from '../lib/crypto.js';
import { internalKey, liveServer } from '../lib/instance-lock.js';

const config = loadConfig();
const outIndex = process.argv.indexOf('--out');
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const engine = config.database.kind;
const out = path.resolve(
  outIndex >= 0 && process.argv[outIndex + 1]
    ? process.argv[outIndex + 1]!
    : path.join(config.dataDir, 'backups', `farmland-${engine}-${stamp}.${engine === 'pglite' ? 'tar.gz' : 'dump'}`),
);

try {
  const t0 = Date.now();
  if (config.database.kind === 'postgres') {
    await backupPostgres(config.database.adminUrl, out);
  } else {
    const running = liveServer(config.dataDir);
    if (running) {
      const res = await fetch(`http://127.0.0.1:${running.port}/api/internal/backup/`, {
        method: 'POST',
        headers: { 'x-internal-key': internalKey(deriveKeys(resolveSecret(config)).signing) },
      });
      if (!res.ok) throw new Error(`The running server answered ${res.status}: ${await res.text()}`);
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(`${out}.partial`, Buffer.from(await res.arrayBuffer()));
      fs.renameSync(`${out}.partial`, out);
    } else {
      await backupEmbeddedAtRest(config.database.dataDir!, out);
    }
  }
  process.stdout.write(`${out}\n`);
  process.stderr.write(
    `backup of the ${engine === 'pglite' ? 'embedded' : 'PostgreSQL'} database: ${(fs.statSync(out).size / 1048576).toFixed(1)} MB in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
  );
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
}
