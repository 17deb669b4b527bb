// Writes apps/api/src/ingest/datum-transformations.json: every EPSG transformation from a geographic 2D CRS to WGS 84
// (EPSG:4326) that PROJ would consider (not deprecated, not superseded by another transformation between the same two
// CRS) and the reader can apply: the Helmert methods (3- and 7-parameter), Molodensky-Badekas (EPSG methods 9636 and
// 1063; the geocentric-domain 1034/1061 have no row from a geographic 2D CRS to WGS 84 in proj.db), concatenations of
// these, and NTv2 grids the app carries (GRIDS below); with its accuracy and area of use, and the area of use of each
// source CRS (PROJ measures a transformation's area within it when it sorts them). The CRS reader picks among them per position the way PROJ does
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

// Helmert methods: 9603 geocentric translations, 9606 position vector, 9607 coordinate frame; Molodensky-Badekas:
// 1063 position vector, 9636 coordinate frame (geog2D domain).
const METHODS = "'9603', '9606', '9607', '1063', '9636'";
const COORDINATE_FRAME = new Set([9607, 9636]);
// The parameters of a Helmert or Molodensky-Badekas row, in the units of their unit_of_measure rows.
const PARAMS = `h.method_code AS method, h.tx, h.ty, h.tz, h.rx, h.ry, h.rz, h.scale_difference AS ds, h.px, h.py, h.pz,
  (SELECT conv_factor FROM unit_of_measure u WHERE u.auth_name = h.pivot_uom_auth_name AND u.code = h.pivot_uom_code) AS p_factor,
  (SELECT conv_factor FROM unit_of_measure u WHERE u.auth_name = h.rotation_uom_auth_name AND u.code = h.rotation_uom_code) AS rot_factor,
  (SELECT conv_factor FROM unit_of_measure u WHERE u.auth_name = h.scale_difference_uom_auth_name AND u.code = h.scale_difference_uom_code) AS scale_factor,
  (SELECT conv_factor FROM unit_of_measure u WHERE u.auth_name = h.translation_uom_auth_name AND u.code = h.translation_uom_code) AS t_factor`;
// Not superseded by another operation of the same table between the same two CRSs (PROJ keeps ED50 to WGS 84 (21), a
// concatenation superseded by a Helmert transformation, in its list).
const notSuperseded = (table, alias) => `NOT EXISTS (
    SELECT 1 FROM supersession ss
    JOIN ${table} r ON r.auth_name = ss.replacement_auth_name AND r.code = ss.replacement_code AND r.deprecated = 0
    WHERE ss.superseded_table_name = '${table}' AND ss.superseded_auth_name = ${alias}.auth_name
      AND ss.superseded_code = ${alias}.code AND ss.replacement_table_name = '${table}' AND ss.same_source_target_crs = 1)`;
// An operation from a geographic 2D CRS to WGS 84, with its area of use.
const toWgs84 = (table, alias) => `
JOIN geodetic_crs g ON g.auth_name = ${alias}.source_crs_auth_name AND g.code = ${alias}.source_crs_code AND g.type = 'geographic 2D'
JOIN usage us ON us.object_table_name = '${table}' AND us.object_auth_name = ${alias}.auth_name AND us.object_code = ${alias}.code
JOIN extent e ON e.auth_name = us.extent_auth_name AND e.code = us.extent_code
WHERE ${alias}.auth_name = 'EPSG' AND ${alias}.source_crs_auth_name = 'EPSG' AND ${alias}.target_crs_auth_name = 'EPSG'
  AND ${alias}.target_crs_code = '4326' AND ${alias}.deprecated = 0 AND ${notSuperseded(table, alias)}`;
const AREA = `e.west_lon AS w, e.south_lat AS s, e.east_lon AS e, e.north_lat AS n, e.description AS area`;
const query = (sql) => JSON.parse(execFileSync('sqlite3', ['-json', '-readonly', db, sql], { maxBuffer: 64 << 20 }).toString('utf8') || '[]');

const helmert = query(`
SELECT h.code, h.name, CAST(h.source_crs_code AS INTEGER) AS source, h.accuracy, ${PARAMS}, ${AREA}
FROM helmert_transformation h ${toWgs84('helmert_transformation', 'h')} AND h.method_code IN (${METHODS})`);
// Concatenations of these methods, each step forward (its source the previous step's target), e.g. Indian 1960 to
// WGS 84 (1): Indian 1960 to WGS 72BE (1) then WGS 72BE to WGS 84 (1).
const concatenated = query(`
SELECT c.code, c.name, CAST(c.source_crs_code AS INTEGER) AS source, c.accuracy, ${AREA}
FROM concatenated_operation c ${toWgs84('concatenated_operation', 'c')}`);
const steps = query(`
SELECT s.operation_code AS op, s.step_number AS k, h.source_crs_code AS step_source, h.target_crs_code AS step_target, ${PARAMS}
FROM concatenated_operation_step s
LEFT JOIN helmert_transformation h ON h.auth_name = s.step_auth_name AND h.code = s.step_code AND h.method_code IN (${METHODS})
WHERE s.operation_auth_name = 'EPSG' ORDER BY s.operation_code, s.step_number`);
// NTv2 grids the app carries (apps/api/src/ingest/grids/): DHDN to WGS 84 (4) (BETA2007), which PROJ uses in all of
// Germany when proj-data is installed.
const GRIDS = ['BETA2007.gsb'];
const grid = query(`
SELECT h.code, h.name, CAST(h.source_crs_code AS INTEGER) AS source, h.accuracy, h.grid_name AS params, ${AREA}
FROM grid_transformation h ${toWgs84('grid_transformation', 'h')} AND h.method_code = '9615'
  AND h.grid_name IN (${GRIDS.map((g) => `'${g}'`).join(',')})`);

const ARCSEC = Math.PI / 180 / 3600;
const num = (x) => Number(x.toPrecision(12));
/** towgs84 (position vector, arc-seconds, ppm), and for Molodensky-Badekas the evaluation point (m) after it. */
function paramsOf(r) {
  const t = [r.tx, r.ty, r.tz].map((x) => num(x * (r.t_factor ?? 1)));
  const method = Number(r.method);
  if (method === 9603) return t;
  // proj4's towgs84 is the position-vector convention in arc-seconds and ppm; a coordinate-frame rotation changes sign.
  const sign = COORDINATE_FRAME.has(method) ? -1 : 1;
  const rot = [r.rx, r.ry, r.rz].map((x) => num((sign * x * r.rot_factor) / ARCSEC));
  const p = method === 1063 || method === 9636 ? [r.px, r.py, r.pz].map((x) => num(x * (r.p_factor ?? 1))) : [];
  return [...t, ...rot, num((r.ds * r.scale_factor) / 1e-6), ...p];
}
const stepsOf = new Map();
for (const s of steps) stepsOf.set(String(s.op), [...(stepsOf.get(String(s.op)) ?? []), s]);
const chained = (r) => {
  const list = stepsOf.get(String(r.code)) ?? [];
  let from = String(r.source);
  for (const s of list) {
    if (s.method === null || String(s.step_source) !== from) return null;
    from = String(s.step_target);
  }
  return list.length >= 2 && from === '4326' ? list.map((s) => paramsOf(s).join(',')).join(';') : null;
};
const rows = [
  ...helmert.map((r) => ({
    ...r,
    kind: Number(r.method) === 1063 || Number(r.method) === 9636 ? 'molodensky-badekas' : 'helmert',
    params: paramsOf(r).join(','),
  })),
  ...concatenated.map((r) => ({ ...r, kind: 'concatenated', params: chained(r) })).filter((r) => r.params !== null),
  ...grid.map((r) => ({ ...r, kind: 'ntv2' })),
].sort((a, b) => a.source - b.source || Number(a.code) - Number(b.code));
const lines = rows.map((r) => {
  // PROJ's test (proj_create_crs_to_crs, 4D_api.cpp): the area's description, as proj_get_area_of_use gives it,
  // contains "- offshore" ("Norway - offshore north of 62°N. Also Svalbard - onshore and offshore." is offshore).
  const offshore = (r.area ?? '').includes('- offshore') ? 1 : 0;
  const kind = r.kind === 'helmert' ? '' : `, ${JSON.stringify(r.kind)}`;
  return `  [${r.source}, ${Number(r.code)}, ${JSON.stringify(r.name)}, ${r.accuracy ?? -1}, ${JSON.stringify(r.params)}, ${r.w}, ${r.s}, ${r.e}, ${r.n}, ${offshore}${kind}]`;
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
const crsRows = query(crsSql);
// One area per CRS (each has a single usage in the EPSG dataset; the first is kept otherwise).
const crsAreas = new Map();
for (const r of crsRows) if (!crsAreas.has(r.code)) crsAreas.set(r.code, `    "${r.code}": [${r.w}, ${r.s}, ${r.e}, ${r.n}]`);
// The grids, read from the .gsb files beside proj.db (Debian's proj-data) into datum-grids.json: one NTv2 subgrid each,
// its south latitude and east longitude (arc-seconds, longitude positive west as NTv2 counts it), increments, size and
// the latitude and longitude shifts of every node (arc-seconds, float32 little-endian pairs, base64), in the file's
// order: rows from south to north, each from east to west.
// Licence: BETA2007.gsb (DHDN to ETRS89, Germany) comes from the AdV (Arbeitsgemeinschaft der Vermessungsverwaltungen der
// Länder), published through the BKG; PROJ-data's de_adv_README.txt records its licence as "Free redistribution is
// allowed and welcome". A grid added to GRIDS needs its licence checked and written here and in decision 0097.
const grids = {};
for (const name of GRIDS) {
  const b = fs.readFileSync(path.join(path.dirname(db), name));
  if (b.readInt32LE(8) !== 11 || b.readInt32LE(40) !== 1) throw new Error(`${name}: not a little-endian NTv2 file with one subgrid`);
  const field = (k) => b.readDoubleLE(176 + k * 16 + 8);
  const [s, n, e, w, dlat, dlon] = [4, 5, 6, 7, 8, 9].map(field);
  const count = b.readInt32LE(176 + 10 * 16 + 8);
  const rows = Math.round((n - s) / dlat) + 1;
  const cols = Math.round((w - e) / dlon) + 1;
  if (rows * cols !== count) throw new Error(`${name}: ${count} nodes for ${rows} × ${cols}`);
  const shifts = Buffer.alloc(count * 8);
  for (let i = 0; i < count; i++) {
    shifts.writeFloatLE(b.readFloatLE(352 + i * 16), i * 8);
    shifts.writeFloatLE(b.readFloatLE(352 + i * 16 + 4), i * 8 + 4);
  }
  grids[name] = { s, e, dlat, dlon, rows, cols, shifts: shifts.toString('base64') };
}
const version = execFileSync('sqlite3', ['-readonly', db, "SELECT value FROM metadata WHERE key = 'EPSG.VERSION'"]).toString('utf8').trim();
// Data, not code: JSON (one row per line, for readable diffs), typed and documented by datum-transformations.ts.
fs.writeFileSync(
  out,
  `{\n  "source": "PROJ's proj.db, EPSG dataset ${version}; generated by scripts/build-datum-transformations.mjs, do not edit",\n  "rows": [\n${lines.join(',\n')}\n  ],\n  "crsAreas": {\n${[...crsAreas.values()].join(',\n')}\n  }\n}\n`,
);
fs.writeFileSync(
  path.join(root, 'apps/api/src/ingest/datum-grids.json'),
  `${JSON.stringify({ source: `PROJ's proj-data (${GRIDS.join(', ')}: AdV, free redistribution allowed); generated by scripts/build-datum-transformations.mjs, do not edit`, grids }, null, 1)}\n`,
);
console.log(`${rows.length} transformations written to ${path.relative(root, out)} (EPSG ${version})`);
