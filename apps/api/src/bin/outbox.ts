// npm run outbox -- <email>: prints the newest outbox mail to that address (subject, then body) as JSON. Without SMTP the
// outbox is the delivery; with the embedded database in use by a running server, the server reads it (over loopback).
import { bootstrap, createLogger, resolveSecret } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { deriveKeys } from '../lib/crypto.js';
import { withScope } from '../db/client.js';
import { internalKey, liveServer } from '../lib/instance-lock.js';
import { latestMailTo } from '../modules/mail/mail.queries.js';

const email = process.argv[2];
if (!email) {
  process.stderr.write('Usage: npm run outbox -- <email>\n');
  process.exit(2);
}
type Mail = { to: string; subject: string; body: string; created_at: string } | null;
const config = loadConfig();
const running = config.database.kind === 'pglite' ? liveServer(config.dataDir) : null;
let mail: Mail;
if (running) {
  const res = await fetch(`http://127.0.0.1:${running.port}/api/internal/outbox/?to=${encodeURIComponent(email)}`, {
    headers: { 'x-internal-key': internalKey(deriveKeys(resolveSecret(config)).signing) },
  });
  const body = (await res.json()) as { data?: Mail; message?: string };
  if (!res.ok) {
    process.stderr.write(`${body.message ?? `The server answered ${res.status}`}\n`);
    process.exit(1);
  }
  mail = body.data ?? null;
} else {
  const { deps, database } = await bootstrap(config, createLogger({ ...config, logLevel: 'warn' }), { seed: false });
  try {
    const row = await withScope(deps.db, { kind: 'system' }, (tx) => latestMailTo(tx, email.toLowerCase()));
    mail = row ? { to: row.toAddress, subject: row.subject, body: row.body, created_at: new Date(row.createdAt).toISOString() } : null;
  } finally {
    await database.close();
  }
}
if (!mail) {
  process.stderr.write(`No mail to ${email} in the outbox\n`);
  process.exit(1);
}
process.stdout.write(`${JSON.stringify(mail)}\n`);
