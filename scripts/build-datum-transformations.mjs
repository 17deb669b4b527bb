// Writes apps/api/src/ingest/datum-transformations.json: every EPSG Helmert transformation from a geographic 2D
// CRS to WGS 84 (EPSG:4326) that PROJ would consider (not deprecated, not superseded by another transformation between
// the same two CRS), with its accuracy and area of use, and the area of use of each source CRS (PROJ measures a
// transformation's area within it when it sorts them). The CRS reader picks among them per position the way PROJ does
// (docs/decisions/0037-crs-registry-from-postgis-spatial-ref-sys.md).
// Source: PROJ's proj.db (EPSG dataset), read with the sqlite3 command. Run: node scripts/build-datum-transformations.mjs
// [path/to/proj.db] (default /usr/share/proj/proj.db, Debian's proj-data).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const db = process.argv[2] ?? '/usr/share/proj/proj.db';
const out = path.join(root, 'apps/api/src/ingest/datum-transformations.json');

const sql = `
SELECT h.code, h.name, h.method_code AS method, CAST(h.source_crs_code AS INTEGER) AS source, h.accuracy,
  h.tx, h.ty, h.tz, h.rx, h.ry, h.rz, h.scale_difference AS ds,
  (SELECT conv_factor FROM unit_of_measure u WHERE u.auth_name = h.rotation_uom_auth_name AND u.code = h.rotation_uom_code) AS rot_factor,
  (SELECT conv_factor FROM unit_of_measure u WHERE u.auth_name = h.scale_difference_uom_auth_name AND u.code = h.scale_difference_uom_code) AS scale_factor,
  (SELECT conv_factor FROM unit_of_measure u WHERE u.auth_name = h.translation_uom_auth_name AND u.code = h.translation_uom_code) AS t_factor,
  e.west_lon AS w, e.south_lat AS s, e.east_lon AS e, e.north_lat AS n, e.description AS area
FROM helmert_transformation h
JOIN geodetic_crs g ON g.auth_name = h.source_crs_auth_name AND g.code = h.source_crs_code AND g.type = 'geographic 2D'
JOIN usage us ON us.object_table_name = 'helmert_transformation' AND us.object_auth_name = h.auth_name AND us.object_code = h.code
JOIN extent e ON e.auth_name = us.extent_auth_name AND e.code = us.extent_code
WHERE h.auth_name = 'EPSG' AND h.source_crs_auth_name = 'EPSG' AND h.target_crs_auth_name = 'EPSG' AND h.target_crs_code = '4326'
  AND h.deprecated = 0
  AND h.method_code IN ('9603', '9606', '9607')
  AND NOT EXISTS (
    SELECT 1 FROM supersession ss
    JOIN helmert_transformation r ON r.auth_name = ss.replacement_auth_name AND r.code = ss.replacement_code AND r.deprecated = 0
    WHERE ss.superseded_table_name = 'helmert_transformation' AND ss.superseded_auth_name = h.auth_name
      AND ss.superseded_code = h.code AND ss.replacement_table_name = 'helmert_transformation' AND ss.same_source_target_crs = 1)
ORDER BY CAST(h.source_crs_code AS INTEGER), CAST(h.code AS INTEGER)`;

const rows = JSON.parse(execFileSync('sqlite3', ['-json', '-readonly', db, sql], { maxBuffer: 64 << 20 }).toString('utf8') || '[]');
const ARCSEC = Math.PI / 180 / 3600;
const num = (x) => Number(x.toPrecision(12));
const lines = rows.map((r) => {
  const t = [r.tx, r.ty, r.tz].map((x) => num(x * (r.t_factor ?? 1)));
  let towgs84 = t;
  if (Number(r.method) !== 9603) {
    // proj4's towgs84 is the position-vector convention in arc-seconds and ppm; a coordinate-frame rotation changes sign.
    const sign = Number(r.method) === 9607 ? -1 : 1;
    const rot = [r.rx, r.ry, r.rz].map((x) => num((sign * x * r.rot_factor) / ARCSEC));
    towgs84 = [...t, ...rot, num((r.ds * r.scale_factor) / 1e-6)];
  }
  // PROJ's test (proj_create_crs_to_crs, 4D_api.cpp): the area's description, as proj_get_area_of_use gives it,
  // contains "- offshore" ("Norway - offshore north of 62°N. Also Svalbard - onshore and offshore." is offshore).
  const offshore = (r.area ?? '').includes('- offshore') ? 1 : 0;
  return `  [${r.source}, ${Number(r.code)}, ${JSON.stringify(r.name)}, ${r.accuracy ?? -1}, ${JSON.stringify(towgs84.join(','))}, ${r.w}, ${r.s}, ${r.e}, ${r.n}, ${offshore}]`;
});
const sources = [...new Set(rows.map((r) => `'${r.source}'`))].join(',') || "''";
// The geographic CRSs and the projected CRSs on them: PROJ intersects with the area of the CRS the file is in.
const crsSql = `
SELECT CAST(c.code AS INTEGER) AS code, e.west_lon AS w, e.south_lat AS s, e.east_lon AS e, e.north_lat AS n
FROM (SELECT auth_name, code, 'geodetic_crs' AS t FROM geodetic_crs WHERE auth_name = 'EPSG' AND code IN (${sources})
  UNION ALL SELECT auth_name, code, 'projected_crs' FROM projected_crs
  WHERE auth_name = 'EPSG' AND geodetic_crs_auth_name = 'EPSG' AND geodetic_crs_code IN (${sources})) c
JOIN usage us ON us.object_table_name = c.t AND us.object_auth_name = c.auth_name AND us.object_code = c.code
JOIN extent e ON e.auth_name = us.extent_auth_name AND e.code = us.extent_code
WHERE e.west_lon IS NOT NULL AND e.south_lat IS NOT NULL AND e.east_lon IS NOT NULL AND e.north_lat IS NOT NULL
ORDER BY CAST(c.code AS INTEGER), e.code`;
const crsRows = JSON.parse(execFileSync('sqlite3', ['-json', '-readonly', db, crsSql], { maxBuffer: 64 << 20 }).toString('utf8') || '[]');
// One area per CRS (each has a single usage in the EPSG dataset; the first is kept otherwise).
const crsAreas = new Map();
for (const r of crsRows) if (!crsAreas.has(r.code)) crsAreas.set(r.code, `    "${r.code}": [${r.w}, ${r.s}, ${r.e}, ${r.n}]`);
const version = execFileSync('sqlite3', ['-readonly', db, "SELECT value FROM metadata WHERE key = 'EPSG.VERSION'"]).toString('utf8').trim();
// Data, not code: JSON (one row per line, for readable diffs), typed and documented by datum-transformations.ts.
fs.writeFileSync(
  out,
  `{\n  "source": "PROJ's proj.db, EPSG dataset ${version}; generated by scripts/build-datum-transformations.mjs, do not edit",\n  "rows": [\n${lines.join(',\n')}\n  ],\n  "crsAreas": {\n${[...crsAreas.values()].join(',\n')}\n  }\n}\n`,
);
console.log(`${rows.length} transformations written to ${path.relative(root, out)} (EPSG ${version})`);
