// npm run admin-link -- <email>: prints a one-time admin sign-in link (valid 5 minutes) for the given account.
// With the embedded database in use by a running server, the link is made by that server (over loopback).
import { bootstrap, createLogger, resolveSecret } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { deriveKeys } from '../lib/crypto.js';
import { internalKey, liveServer } from '../lib/instance-lock.js';
import { createAdminLink } from '../modules/auth/auth.service.js';

const email = process.argv[2];
if (!email) {
  process.stderr.write('Usage: npm run admin-link -- <email>\n');
  process.exit(2);
}
const config = loadConfig();
const running = config.database.kind === 'pglite' ? liveServer(config.dataDir) : null;
if (running) {
  const res = await fetch(`http://127.0.0.1:${running.port}/api/internal/admin-links/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-key': internalKey(deriveKeys(resolveSecret(config)).signing) },
    body: JSON.stringify({ email }),
  });
  const body = (await res.json()) as { data?: { url: string }; message?: string };
  if (!res.ok || !body.data) {
    process.stderr.write(`${body.message ?? `The server answered ${res.status}`}\n`);
    process.exit(1);
  }
  process.stdout.write(`${body.data.url}\n`);
} else {
  const { deps, database } = await bootstrap(config, createLogger({ ...config, logLevel: 'warn' }), { seed: false });
  try {
    process.stdout.write(`${await createAdminLink(deps, email)}\n`);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}
