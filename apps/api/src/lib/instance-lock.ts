// The embedded database is one process's: the server records itself in DATA_DIR/server.json so that command-line tools
// talk to it over loopback instead of opening the same PGlite directory a second time (which would corrupt it).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type ServerRecord = { pid: number; port: number };

const file = (dataDir: string) => path.join(dataDir, 'server.json');

export function writeServerRecord(dataDir: string, record: ServerRecord): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file(dataDir), JSON.stringify(record), { mode: 0o600 });
}

export function clearServerRecord(dataDir: string): void {
  try {
    const r = JSON.parse(fs.readFileSync(file(dataDir), 'utf8')) as ServerRecord;
    if (r.pid === process.pid) fs.rmSync(file(dataDir), { force: true });
  } catch {
    // nothing recorded
  }
}

/** The running server for this data directory, if its process is alive. */
export function liveServer(dataDir: string): ServerRecord | null {
  try {
    const r = JSON.parse(fs.readFileSync(file(dataDir), 'utf8')) as ServerRecord;
    process.kill(r.pid, 0);
    return r;
  } catch {
    return null;
  }
}

/** The key a local tool presents to the server's internal routes: derived from the signing key, never sent by browsers. */
export function internalKey(signing: Buffer): string {
  return crypto.createHmac('sha256', signing).update('internal:admin-link').digest('base64url');
}

export function internalKeyMatches(signing: Buffer, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(internalKey(signing));
  const b = Buffer.from(given);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** Internal routes answer only a local tool: a loopback peer presenting the internal key (anything else is a 404). */
export function isInternalCaller(remoteAddress: string | undefined, signing: Buffer, given: unknown): boolean {
  const loopback = remoteAddress === '127.0.0.1' || remoteAddress === '::1' || remoteAddress === '::ffff:127.0.0.1';
  return loopback && internalKeyMatches(signing, typeof given === 'string' ? given : undefined);
}
