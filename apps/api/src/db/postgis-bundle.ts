// The embedded database loads PostGIS from a tarball that PGlite unpacks into its in-memory file system, and PGlite
// compiles and instantiates every shared library in it at start. The published bundle (90 MB unpacked) also carries
// postgis_raster, postgis_topology, the tiger geocoder and ~150 upgrade scripts, none of which the app uses; loaded whole
// they cost about 570 MB of the process's memory (docs/decisions/0012-embedded-footprint.md). This builds, once, a bundle
// with only what the app needs (postgis-3.so, its control file, the install script, PROJ's data) and caches it on disk.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { gunzipSync, gzipSync } from 'fflate';

const BLOCK = 512;

/** The entries PostGIS needs in this app: the library, CREATE EXTENSION's files, and PROJ's database (ST_Transform). */
export function keepEntry(name: string): boolean {
  const n = name.replace(/^\.\//, '');
  if (n === 'lib/postgresql/postgis-3.so') return true;
  if (n === 'share/postgresql/extension/postgis.control') return true;
  // The install script of the bundled version (postgis--3.6.2.sql); never the upgrade paths (postgis--A--B.sql).
  if (/^share\/postgresql\/extension\/postgis--\d+(\.\d+)*\.sql$/.test(n)) return true;
  if (n.startsWith('share/proj/')) return true;
  // Directories of what is kept, so that PGlite creates them before the files.
  return n === 'lib/' || n === 'lib/postgresql/' || n === 'share/' || n === 'share/postgresql/' || n === 'share/postgresql/extension/';
}

function readString(b: Uint8Array, at: number, len: number): string {
  let end = at;
  while (end < at + len && b[end] !== 0) end++;
  return Buffer.from(b.subarray(at, end)).toString('utf8');
}

/**
 * Keeps the tar entries whose name passes keep(). Header blocks of extended names (pax 'x', GNU 'L') travel with the
 * entry they describe. Works on the uncompressed tar; returns a new uncompressed tar.
 */
export function filterTar(tar: Uint8Array, keep: (name: string) => boolean): Uint8Array {
  const parts: Uint8Array[] = [];
  let pending: Uint8Array[] = [];
  let longName: string | null = null;
  let at = 0;
  while (at + BLOCK <= tar.length) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((x) => x === 0)) break;
    const size = parseInt(readString(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const span = BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    const whole = tar.subarray(at, at + span);
    at += span;
    if (type === 'x' || type === 'L' || type === 'g') {
      if (type === 'L') longName = readString(tar, at - span + BLOCK, size);
      if (type === 'x') {
        const m = /\d+ path=([^\n]*)\n/.exec(Buffer.from(tar.subarray(at - span + BLOCK, at - span + BLOCK + size)).toString('utf8'));
        if (m) longName = m[1] ?? null;
      }
      pending.push(whole);
      continue;
    }
    const prefix = readString(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${readString(header, 0, 100)}` : readString(header, 0, 100));
    if (keep(name)) parts.push(...pending, whole);
    pending = [];
    longName = null;
  }
  parts.push(new Uint8Array(BLOCK * 2));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Where the published PostGIS bundle lives (inside @electric-sql/pglite-postgis). */
export function publishedBundle(): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve('@electric-sql/pglite-postgis');
  return path.join(path.dirname(main), 'postgis.tar.gz');
}

/**
 * The path of the trimmed bundle, built on first use from the published one and cached (keyed by the published file's
 * size and mtime, so an upgrade of the package builds a new one). Building takes about a second, once.
 */
export function trimmedPostgisBundle(cacheDir = path.join(os.tmpdir(), 'farmland-pglite')): string {
  const source = publishedBundle();
  const st = fs.statSync(source);
  const key = crypto.createHash('sha256').update(`${source}:${st.size}:${st.mtimeMs}`).digest('hex').slice(0, 16);
  const target = path.join(cacheDir, `postgis-min-${key}.tar.gz`);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(cacheDir, { recursive: true });
  const trimmed = filterTar(gunzipSync(fs.readFileSync(source)), keepEntry);
  const tmp = `${target}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(tmp, gzipSync(trimmed, { level: 6 }));
  fs.renameSync(tmp, target);
  return target;
}
