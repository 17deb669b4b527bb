// The EPSG registry the file readers resolve coordinate systems against: the rows of PostGIS's spatial_ref_sys, read
// from the install script of the PostGIS bundle the project ships (@electric-sql/pglite-postgis). Both engines use
// this one copy, so a file is placed the same way on PGlite and on PostgreSQL whatever PostGIS version the server has
// (docs/decisions/0037-crs-registry-from-postgis-spatial-ref-sys.md). Read once per process, in the thread that needs it,
// and cached on disk as JSON (about 2 MB) beside the trimmed PostGIS bundle.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { publishedBundle } from '../db/postgis-bundle.js';

/**
 * One coordinate system (projected or geographic): its code, authority, name, datum name, the ellipsoid's semi-major axis
 * and inverse flattening and the TOWGS84 parameters as its WKT (srtext) gives them (EPSG's exact values), and its PROJ.4
 * definition (whose +ellps / +datum names can be rounder than the WKT: "+ellps=clrk80" stands for Clarke 1880 (RGS)).
 */
export type SrsEntry = {
  srid: number;
  auth: string;
  name: string;
  datum: string;
  a: number;
  rf: number;
  towgs84: string | null;
  proj4: string;
  geog: number | null;
};

/** The EPSG code of a WKT1's geographic CRS (itself, or a PROJCS's GEOGCS): the last AUTHORITY inside that node. */
export function geographicCode(srtext: string): number | null {
  const start = srtext.indexOf('GEOGCS[');
  if (start < 0) return null;
  let depth = 0;
  let end = start;
  for (let i = start + 6; i < srtext.length; i++) {
    const c = srtext[i];
    if (c === '[') depth++;
    else if (c === ']' && --depth === 0) {
      end = i;
      break;
    }
  }
  const own = /AUTHORITY\["EPSG","(\d+)"\]\]$/.exec(srtext.slice(start, end + 1));
  return own ? Number(own[1]) : null;
}

const BLOCK = 512;

function tarString(b: Uint8Array, at: number, len: number): string {
  let end = at;
  while (end < at + len && b[end] !== 0) end++;
  return Buffer.from(b.subarray(at, end)).toString('utf8');
}

/** The PostGIS install script (postgis--X.Y.Z.sql) out of the uncompressed bundle tar. */
function installScript(tar: Uint8Array): string {
  let at = 0;
  let longName: string | null = null;
  while (at + BLOCK <= tar.length) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((x) => x === 0)) break;
    const size = parseInt(tarString(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const body = at + BLOCK;
    at = body + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'L') {
      longName = tarString(tar, body, size);
      continue;
    }
    if (type === 'x') {
      const m = /\d+ path=([^\n]*)\n/.exec(Buffer.from(tar.subarray(body, body + size)).toString('utf8'));
      if (m) longName = m[1] ?? null;
      continue;
    }
    const prefix = tarString(header, 345, 155);
    const name = (longName ?? (prefix ? `${prefix}/${tarString(header, 0, 100)}` : tarString(header, 0, 100))).replace(/^\.\//, '');
    longName = null;
    if (/^share\/postgresql\/extension\/postgis--\d+(\.\d+)*\.sql$/.test(name)) return Buffer.from(tar.subarray(body, body + size)).toString('utf8');
  }
  throw new Error('the PostGIS bundle has no install script');
}

/** spatial_ref_sys rows out of the install script's INSERT (one tuple per line: srid, auth, auth_srid, srtext, proj4text). */
export function parseSpatialRefSys(sql: string): SrsEntry[] {
  const start = sql.indexOf('INSERT INTO "spatial_ref_sys"');
  if (start < 0) throw new Error('the PostGIS install script has no spatial_ref_sys rows');
  const tuple = /^\((\d+), '([^']*)', (\d+), '((?:[^']|'')*)', '((?:[^']|'')*)'\)/gm;
  tuple.lastIndex = start;
  const out: SrsEntry[] = [];
  for (let m = tuple.exec(sql); m; m = tuple.exec(sql)) {
    const srtext = m[4]!.replace(/''/g, "'");
    // Projected and geographic systems only (compound, geocentric and vertical ones are no file's horizontal CRS).
    if (!/^(PROJCS|GEOGCS)\[/.test(srtext)) continue;
    const spheroid = /SPHEROID\["[^"]*",\s*([-+\d.eE]+),\s*([-+\d.eE]+)/.exec(srtext);
    out.push({
      srid: Number(m[1]),
      auth: m[2]!,
      name: /^[A-Z_]+\["([^"]*)"/.exec(srtext)?.[1] ?? '',
      datum: /DATUM\["([^"]*)"/.exec(srtext)?.[1] ?? '',
      a: spheroid ? Number(spheroid[1]) : 0,
      rf: spheroid ? Number(spheroid[2]) : 0,
      towgs84: /TOWGS84\[([^\]]*)\]/.exec(srtext)?.[1]?.replace(/\s+/g, '') ?? null,
      proj4: m[5]!.replace(/''/g, "'").trim(),
      geog: geographicCode(srtext),
    });
  }
  return out;
}

let loaded: { byCode: Map<number, SrsEntry>; all: SrsEntry[] } | null = null;

/** The registry (EPSG codes only; PostGIS's ESRI and other rows are left out), loaded on first use. */
export function srsRegistry(cacheDir = path.join(os.tmpdir(), 'farmland-pglite')): { byCode: Map<number, SrsEntry>; all: SrsEntry[] } {
  if (loaded) return loaded;
  const source = publishedBundle();
  const st = fs.statSync(source);
  const key = crypto.createHash('sha256').update(`${source}:${st.size}:${st.mtimeMs}`).digest('hex').slice(0, 16);
  const target = path.join(cacheDir, `spatial-ref-sys-v3-${key}.json`);
  let entries: SrsEntry[] | null = null;
  try {
    entries = JSON.parse(fs.readFileSync(target, 'utf8')) as SrsEntry[];
  } catch {
    entries = null;
  }
  if (!entries) {
    entries = parseSpatialRefSys(installScript(gunzipSync(fs.readFileSync(source))));
    fs.mkdirSync(cacheDir, { recursive: true });
    const tmp = `${target}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, JSON.stringify(entries));
    fs.renameSync(tmp, target);
  }
  const all = entries.filter((e) => e.auth === 'EPSG');
  loaded = { all, byCode: new Map(all.map((e) => [e.srid, e])) };
  return loaded;
}
