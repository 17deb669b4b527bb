// Coordinate reference systems of uploaded GIS files (issue 28 §1). A Shapefile's .prj (OGC or ESRI WKT) or a GeoJSON
// "crs" member is resolved to an EPSG code of the registry (srs-registry.ts: PostGIS's spatial_ref_sys): by its authority
// clause when it has one, else by matching the WKT against every registry entry — same ellipsoid, the same projection
// (compared by behaviour: the two definitions must unproject the file's own positions to the same place), then the datum
// name. The positions are then transformed to WGS84 with that code's full definition, its datum transformation
// (towgs84) included. Whatever cannot be resolved to a transformation is a CrsUnsupported naming the CRS or datum; it is
// never read as if it were WGS84. KML is WGS84 by definition and needs none of this.
import proj4 from 'proj4';
import { ellipsoid, shiftToWgs84 } from './datum-shift.js';
import { transformationAt, transformationsOf, type DatumTransformation } from './datum-transformations.js';
import { srsRegistry, type SrsEntry } from './srs-registry.js';

/** A CRS that cannot be resolved, or has no known transformation to WGS84: the message names it and says why. */
export class CrsUnsupported extends Error {
  constructor(
    readonly crs: string,
    message: string,
  ) {
    super(message);
    this.name = 'CrsUnsupported';
  }
}

/** A resolved CRS: its EPSG code and name, and a transformation to WGS84 longitude/latitude (null: already WGS84). */
export type ResolvedCrs = { code: number; name: string; toWgs84: ((p: number[]) => number[]) | null };

type Projection = ReturnType<typeof proj4.Proj>;
type Wkt = { key: string; args: Array<string | number | Wkt> };

const WGS84: ResolvedCrs = { code: 4326, name: 'WGS 84', toWgs84: null };

// ---------- WKT ----------

/** WKT1 or WKT2 text → its tree (keyword, then strings, numbers and nested nodes). Throws on anything else. */
export function parseWktTree(text: string): Wkt {
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n && /\s/.test(text[i]!)) i++;
  };
  const node = (depth: number): Wkt => {
    if (depth > 32) throw new Error('nested too deep');
    ws();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i, i + 64));
    if (!m) throw new Error(`a keyword was expected at character ${i + 1}`);
    i += m[0].length;
    ws();
    const open = text[i];
    if (open !== '[' && open !== '(') return { key: m[0].toUpperCase(), args: [] };
    i++;
    const args: Array<string | number | Wkt> = [];
    for (;;) {
      ws();
      const c = text[i];
      if (c === undefined) throw new Error('the text ends inside a bracket');
      if (c === '"') {
        let s = '';
        i++;
        for (;;) {
          if (i >= n) throw new Error('the text ends inside a string');
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              s += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          s += text[i++];
        }
        args.push(s);
      } else if (/[-+.\d]/.test(c)) {
        const num = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(text.slice(i, i + 64));
        if (!num) throw new Error(`a number was expected at character ${i + 1}`);
        args.push(Number(num[0]));
        i += num[0].length;
      } else args.push(node(depth + 1));
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']' || text[i] === ')') {
        i++;
        return { key: m[0].toUpperCase(), args };
      }
      throw new Error(`"," or "]" was expected at character ${i + 1}`);
    }
  };
  const root = node(0);
  ws();
  if (i < n) throw new Error(`unexpected text after the WKT at character ${i + 1}`);
  return root;
}

const child = (w: Wkt, ...keys: string[]): Wkt | undefined => w.args.find((a): a is Wkt => typeof a === 'object' && keys.includes(a.key));
const nameOf = (w: Wkt | undefined): string => (w && typeof w.args[0] === 'string' ? w.args[0] : '');

/** The horizontal CRS of a WKT (a compound CRS's first part). */
function horizontal(w: Wkt): Wkt {
  if (w.key === 'COMPD_CS' || w.key === 'COMPOUNDCRS') return child(w, 'PROJCS', 'GEOGCS', 'PROJCRS', 'GEOGCRS', 'GEODCRS', 'GEOCCS') ?? w;
  return w;
}

/** The EPSG code a CRS node names itself by (AUTHORITY["EPSG","28992"] in WKT1, ID["EPSG",28992] in WKT2). */
function authorityCode(w: Wkt): number | null {
  const a = child(w, 'AUTHORITY', 'ID');
  if (!a || String(a.args[0]).toUpperCase() !== 'EPSG') return null;
  const code = Number(a.args[1]);
  return Number.isInteger(code) && code > 0 ? code : null;
}

const datumNode = (w: Wkt): Wkt | undefined => {
  const geog = w.key === 'PROJCS' ? child(w, 'GEOGCS') : w.key === 'PROJCRS' ? child(w, 'BASEGEOGCRS', 'BASEGEODCRS') : w;
  return geog ? child(geog, 'DATUM', 'TRF', 'GEODETICDATUM') : undefined;
};

/** Datum names compared as letters and digits (ESRI's "D_ETRS_1989" and EPSG's "ETRS89" spellings folded by ALIASES). */
function normDatum(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/^d_/, '')
    .replace(/[^a-z0-9+]/g, '');
  return ALIASES[s] ?? s;
}

const ALIASES: Record<string, string> = {
  etrs1989: 'europeanterrestrialreferencesystem1989',
  etrs89: 'europeanterrestrialreferencesystem1989',
  rgf1993: 'reseaugeodesiquefrancais1993',
  reseaugeodesiquefrancais1993v1: 'reseaugeodesiquefrancais1993',
  hartebeesthoek1994: 'hartebeesthoek94',
  sirgas2000: 'sistemadereferenciageocentricoparalasamericas2000',
  gda2020: 'geocentricdatumofaustralia2020',
  gda1994: 'geocentricdatumofaustralia1994',
  nzgd2000: 'newzealandgeodeticdatum2000',
  mgi: 'militargeographischeinstitut',
  militargeographischeinstitut: 'militargeographischeinstitut',
  northamerican1983: 'northamericandatum1983',
  northamerican1927: 'northamericandatum1927',
  wgs84: 'wgs1984',
  worldgeodeticsystem1984: 'wgs1984',
  ch1903plus: 'ch1903+',
  // ESRI's D_Provisional_S_American_1956 (else La Canoa / UTM zone 19N, 20N and 21N match PSAD56's grids too).
  provisionalsamerican1956: 'provisionalsouthamericandatum1956',
};

// ---------- the registry, as projections ----------

const projections = new Map<number, Projection | null>();
const ellipsoids = new Map<string, { a: number; es: number } | null>();

/**
 * The definition a registry entry is transformed with: its PROJ.4 projection, with the ellipsoid and the towgs84 of its
 * WKT (EPSG's exact values: the PROJ.4 text rounds some, such as Clarke 1880 (RGS) written "+ellps=clrk80", 0.1 m off).
 * ellipsoidOnly: the ellipsoid without any datum transformation.
 */
export function definitionOf(e: SrsEntry, towgs84: string | null = e.towgs84, ellipsoidOnly = false): string {
  if (/\+datum=WGS84\b|\+nadgrids=/.test(e.proj4) || !(e.a > 0)) return e.proj4;
  const datum = /\+datum=(\S+)/.exec(e.proj4)?.[0];
  const base = e.proj4
    .replace(/\+(ellps|datum|a|b|rf|towgs84)=\S+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!towgs84 && datum && !ellipsoidOnly) return `${base} ${datum}`;
  const ellipsoid = e.rf > 0 ? `+a=${e.a} +rf=${e.rf}` : `+a=${e.a} +b=${e.a}`;
  return `${base} ${ellipsoid}${towgs84 ? ` +towgs84=${towgs84}` : ''}`;
}

// ---------- the datum transformation, chosen per position as PROJ does (datum-transformations.ts) ----------

export { transformationAt, transformationsOf, type DatumTransformation };

function projectionOf(e: SrsEntry): Projection | null {
  if (!projections.has(e.srid)) {
    let p: Projection | null = null;
    try {
      p = proj4.Proj(definitionOf(e));
    } catch {
      p = null;
    }
    projections.set(e.srid, p);
  }
  return projections.get(e.srid) ?? null;
}

/** The ellipsoid of an entry without building its projection (cached per ellipsoid). */
function ellipsoidOf(e: SrsEntry): { a: number; es: number } | null {
  const def = definitionOf(e);
  const a = /\+a=(\S+)/.exec(def)?.[1];
  const b = /\+b=(\S+)/.exec(def)?.[1];
  const rf = /\+rf=(\S+)/.exec(def)?.[1];
  const token = a ? `+a=${a} ${b ? `+b=${b}` : rf ? `+rf=${rf}` : ''}` : (/\+(?:ellps|datum)=\S+/.exec(def)?.[0] ?? '+ellps=WGS84');
  if (!ellipsoids.has(token)) {
    try {
      const p = proj4.Proj(`+proj=longlat ${token} +no_defs`);
      ellipsoids.set(token, { a: p.a as number, es: p.es });
    } catch {
      ellipsoids.set(token, null);
    }
  }
  return ellipsoids.get(token) ?? null;
}

const isGeographic = (def: string) => /\+proj=(longlat|latlong|lonlat|latlon)\b/.test(def);
const GEOCENTRIC_A = 6378137;
const sameEllipsoid = (x: { a: number; es: number }, y: { a: number; es: number }) => Math.abs(x.a - y.a) < 0.01 && Math.abs(x.es - y.es) < 1e-9;

/**
 * How a registry entry reaches WGS84: 'null' (WGS84 itself, a zero towgs84, or a datum on the GRS 1980 / WGS 84
 * ellipsoid with no transformation given: a geocentric, ITRF-aligned datum, which PROJ too moves by nothing), the
 * towgs84 parameters, or null when there is no transformation (a grid the app does not carry, or a local datum
 * without towgs84).
 */
function transformationOf(p: Projection): string | null {
  const d = p.datum as { datum_type: number; datum_params?: Array<number | string> } | undefined;
  const type = d?.datum_type ?? 5;
  const params = (d?.datum_params ?? []).map(Number);
  if (type === 4) return 'null';
  if (type === 1 || type === 2) return params.every((x) => x === 0) ? 'null' : params.join(',');
  if (type === 5 && Math.abs((p.a as number) - GEOCENTRIC_A) < 0.01 && Math.abs(p.es - 0.00669438) < 1e-7) return 'null';
  return null;
}

// ---------- resolving ----------

/** An entry of the registry → the resolved CRS (or CrsUnsupported when it has no transformation to WGS84). */
function resolveEntry(e: SrsEntry, datumLabel?: string): ResolvedCrs {
  if (e.srid === 4326) return WGS84;
  const p = projectionOf(e);
  const datum = datumLabel ?? (e.datum.replace(/_/g, ' ') || e.name);
  if (!p) throw new CrsUnsupported(e.name, `EPSG:${e.srid} (${e.name}) cannot be used for reprojection`);
  const t = transformationOf(p);
  if (t === null) {
    const grid = /\+nadgrids=/.test(e.proj4) ? ' (it needs a correction grid)' : '';
    throw new CrsUnsupported(datum, `the datum ${datum} of EPSG:${e.srid} (${e.name}) has no known transformation to WGS84${grid}`);
  }
  const alternatives = /\+(nadgrids|datum=WGS84)\b/.test(e.proj4) || !(e.a > 0) ? [] : transformationsOf(e.geog, e.srid);
  if (t === 'null' && alternatives.length === 0 && isGeographic(e.proj4) && !/\+pm=/.test(e.proj4)) return { code: e.srid, name: e.name, toWgs84: null };
  const converter = proj4(definitionOf(e), 'WGS84');
  // enforceAxis: a south-orientated grid (+axis=wsu, the Lo grids) counts westing and southing.
  if (alternatives.length === 0) return { code: e.srid, name: e.name, toWgs84: (pt) => converter.forward([pt[0]!, pt[1]!], true) };
  // Several EPSG transformations, each for an area: the one PROJ would apply at each position (found from the position's
  // longitude and latitude on the file's own datum), else the registry's towgs84.
  const ellps = e.rf > 0 ? `+a=${e.a} +rf=${e.rf}` : `+a=${e.a} +b=${e.a}`;
  // No datum on either side: proj4js would otherwise go through WGS 84 and back (~2 mm off).
  const toLonLat = proj4(definitionOf(e, null, true), `+proj=longlat ${ellps} +no_defs`);
  // A Helmert transformation through proj4 (its towgs84); the other kinds (Molodensky-Badekas, a concatenation, an NTv2
  // grid) from the position's longitude and latitude on the file's datum, by datum-shift.ts.
  const viaProj4 = new Map<number, typeof converter>();
  const viaShift = new Map<number, ReturnType<typeof shiftToWgs84>>();
  const apply = (x: DatumTransformation, pt: number[], ll: number[]): number[] => {
    if (x.kind === 'helmert') {
      let c = viaProj4.get(x.code);
      if (!c) viaProj4.set(x.code, (c = proj4(definitionOf(e, x.params), 'WGS84')));
      return c.forward([pt[0]!, pt[1]!], true);
    }
    if (!viaShift.has(x.code)) viaShift.set(x.code, shiftToWgs84(x.kind, x.params, ellipsoid(e.a, e.rf)));
    return viaShift.get(x.code)?.(ll[0]!, ll[1]!) ?? converter.forward([pt[0]!, pt[1]!], true);
  };
  return {
    code: e.srid,
    name: e.name,
    toWgs84: (pt) => {
      const ll = toLonLat.forward([pt[0]!, pt[1]!], true);
      const pick = transformationAt(alternatives, ll[0]!, ll[1]!);
      return pick ? apply(pick, pt, ll) : converter.forward([pt[0]!, pt[1]!], true);
    },
  };
}

/** An EPSG code → the resolved CRS; CrsUnsupported when the registry lacks it or it has no transformation. */
export function resolveEpsg(code: number, label = `EPSG:${code}`): ResolvedCrs {
  if (code === 4326) return WGS84;
  const e = srsRegistry().byCode.get(code);
  if (!e) throw new CrsUnsupported(label, `${label} is not a coordinate system of the EPSG registry`);
  return resolveEntry(e);
}

/**
 * A GeoJSON "crs" member (RFC 7946 dropped it; GDAL and older tools still write it): a named CRS ("EPSG:28992",
 * "urn:ogc:def:crs:EPSG::28992", "http://www.opengis.net/def/crs/EPSG/0/28992", "urn:ogc:def:crs:OGC:1.3:CRS84") or the
 * old {"type":"EPSG","properties":{"code":28992}}. Positions stay in GeoJSON's [x, y] = [easting or longitude, northing or
 * latitude] order, as GDAL reads them.
 */
export function resolveGeoJsonCrs(crs: unknown): ResolvedCrs {
  if (crs === null || crs === undefined) return WGS84;
  const o = typeof crs === 'object' && !Array.isArray(crs) ? (crs as Record<string, unknown>) : null;
  const props = o && typeof o['properties'] === 'object' && o['properties'] !== null ? (o['properties'] as Record<string, unknown>) : null;
  if (o?.['type'] === 'EPSG' && props && (typeof props['code'] === 'number' || typeof props['code'] === 'string')) return resolveEpsg(Number(props['code']));
  const name = typeof props?.['name'] === 'string' ? props['name'].trim() : null;
  if (o?.['type'] !== 'name' || !name)
    throw new CrsUnsupported(JSON.stringify(crs).slice(0, 80), `the "crs" member ${JSON.stringify(crs).slice(0, 80)} is not a named CRS`);
  if (/^(urn:ogc:def:crs:OGC:(1\.3)?:CRS84|OGC:CRS84|CRS84|http:\/\/www\.opengis\.net\/def\/crs\/OGC\/1\.3\/CRS84)$/i.test(name)) return WGS84;
  const m = /^(?:urn:ogc:def:crs:EPSG:[\d.]*:|EPSG:+|https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/[\d.]+\/)(\d+)$/i.exec(name);
  if (!m) throw new CrsUnsupported(name, `the CRS ${JSON.stringify(name.slice(0, 80))} is not an EPSG code`);
  return resolveEpsg(Number(m[1]), name);
}

/** proj4's reading of a WKT (it knows most ESRI and OGC projection names); a south-orientated TM read as TM. */
function readWkt(text: string): { p: Projection; south: boolean } | null {
  const south = /Transverse_Mercator_South_Orientated/i.test(text);
  try {
    return { p: proj4.Proj(south ? text.replace(/Transverse_Mercator_South_Orientated/gi, 'Transverse_Mercator') : text), south };
  } catch {
    return null;
  }
}

/**
 * Whether two projections unproject every sample to the same place, to 1e-7 rad (~0.6 m: one method written two ways,
 * such as Swiss oblique Mercator as ESRI's Hotine azimuth-centre and EPSG's somerc, differs by ~0.1 m in proj4; the
 * parameters of different systems differ by far more). The file is then transformed with the registry's definition.
 */
function sameBehaviour(x: Projection, y: Projection, samples: number[][]): boolean {
  for (const s of samples) {
    let u: { x: number; y: number };
    let v: { x: number; y: number };
    try {
      u = x.inverse({ x: s[0]!, y: s[1]! });
      v = y.inverse({ x: s[0]!, y: s[1]! });
    } catch {
      return false;
    }
    if (!u || !v || !Number.isFinite(u.x) || !Number.isFinite(v.x) || Math.abs(u.x - v.x) > 1e-7 || Math.abs(u.y - v.y) > 1e-7) return false;
  }
  return true;
}

/**
 * A .prj (WKT) → its EPSG code and transformation. samples: a few of the file's own positions (the projection is matched
 * where the data is). Throws CrsUnsupported naming the CRS or datum when no registry entry matches, when matches disagree
 * on the datum transformation, or when the match has no transformation.
 */
export function resolvePrj(text: string, samples: number[][]): ResolvedCrs {
  let tree: Wkt;
  try {
    tree = horizontal(parseWktTree(text.trim()));
  } catch (err) {
    throw new CrsUnsupported('the .prj', `the .prj is not readable WKT (${err instanceof Error ? err.message : 'unknown'})`);
  }
  const crsName = nameOf(tree) || 'unnamed';
  const datumName = nameOf(datumNode(tree));
  const datumLabel = datumName.replace(/^D_/, '').replace(/_/g, ' ') || crsName;
  const code = authorityCode(tree);
  if (code !== null && srsRegistry().byCode.has(code)) return resolveEpsg(code);
  const projected = tree.key === 'PROJCS' || tree.key === 'PROJCRS';
  const read = readWkt(text);
  if (!read) throw new CrsUnsupported(crsName, `the coordinate system ${crsName} of the .prj uses a projection this reader does not know`);
  const { p, south } = read;
  if (
    !projected &&
    (tree.key === 'GEOGCS' || tree.key === 'GEOGCRS' || tree.key === 'GEODCRS') &&
    Math.abs((p.a as number) - GEOCENTRIC_A) < 0.01 &&
    normDatum(datumName) === 'wgs1984'
  )
    return WGS84;
  const ell = { a: p.a as number, es: p.es };
  const pts = samples.filter((s) => Number.isFinite(s[0]) && Number.isFinite(s[1])).slice(0, 4);
  if (projected) {
    try {
      const origin = p.forward({ x: (p as unknown as { long0?: number }).long0 ?? 0, y: (p as unknown as { lat0?: number }).lat0 ?? 0 });
      if (Number.isFinite(origin.x) && Number.isFinite(origin.y)) pts.push([origin.x, origin.y]);
    } catch {
      // no origin sample: the file's positions decide
    }
    const near = pts.slice();
    for (const s of near.slice(0, 1)) pts.push([s[0]! + 5000, s[1]! + 5000], [s[0]! - 5000, s[1]! - 5000]);
  }
  const toMeter = (x: Projection) => Number((x as unknown as { to_meter?: number }).to_meter ?? 1) || 1;
  const pm = (x: Projection) => Number((x as unknown as { from_greenwich?: number }).from_greenwich ?? 0) || 0;
  // A geographic WKT's unit: proj4 reads UNIT["Degree",0.0174532925199433] as to_meter = a·π/180 (metres per degree at
  // the equator), where a registry entry ("+proj=longlat") has none. The registry's geographic systems are in degrees,
  // so a geographic .prj matches them when its unit is the degree; comparing to_meter refused every geographic .prj but
  // WGS 84's (ETRS89, SIRGAS 2000, NAD83, GDA94…: issue 28's rerun of real files).
  if (!projected) {
    const unit = (p as unknown as { to_meter?: number }).to_meter;
    if (unit !== undefined && Math.abs(unit / (((p.a as number) * Math.PI) / 180) - 1) > 1e-9) {
      throw new CrsUnsupported(
        crsName,
        `the coordinate system ${crsName} of the .prj counts its coordinates in a unit other than the degree; export the layer in WGS84 (EPSG:4326)`,
      );
    }
  }
  const matches: SrsEntry[] = [];
  for (const e of srsRegistry().all) {
    if (isGeographic(e.proj4) === projected) continue;
    const ee = ellipsoidOf(e);
    if (!ee || !sameEllipsoid(ee, ell)) continue;
    if (projected && /\+axis=wsu/.test(e.proj4) !== south) continue;
    const q = projectionOf(e);
    if (!q || (projected && Math.abs(toMeter(q) - toMeter(p)) > 1e-9) || Math.abs(pm(q) - pm(p)) > 1e-12) continue;
    if (projected && !sameBehaviour(p, q, pts)) continue;
    matches.push(e);
  }
  if (matches.length === 0) {
    throw new CrsUnsupported(
      crsName,
      `the coordinate system ${crsName} (datum ${datumLabel}) of the .prj matches no coordinate system of the EPSG registry; export the layer in WGS84 (EPSG:4326) or another EPSG system`,
    );
  }
  const wanted = normDatum(datumName);
  const named = matches.filter((e) => normDatum(e.datum) === wanted);
  const pool = named.length > 0 ? named : matches;
  const ways = new Map<string | null, SrsEntry[]>();
  for (const e of pool) {
    const t = transformationOf(projectionOf(e)!);
    ways.set(t, [...(ways.get(t) ?? []), e]);
  }
  if (ways.size > 1) {
    const codes = pool
      .slice(0, 5)
      .map((e) => `EPSG:${e.srid} ${e.name}`)
      .join(', ');
    throw new CrsUnsupported(
      datumLabel,
      `the datum ${datumLabel} of the .prj (${crsName}) is not one the EPSG registry knows by that name, and the systems it could be (${codes}${pool.length > 5 ? ', …' : ''}) reach WGS84 differently; export the layer with an EPSG code (AUTHORITY) or in WGS84`,
    );
  }
  // One transformation, so every candidate places the file alike: the one whose name shares most words with the .prj's
  // ("EUREF_FIN_TM35FIN" → "ETRS89 / TM35FIN(E,N)"), then the lowest code.
  const words = (s: string) =>
    new Set(
      s
        .toLowerCase()
        .split(/[^a-z0-9+]+/)
        .filter(Boolean),
    );
  const mine = words(crsName);
  const score = (e: SrsEntry) => [...words(e.name)].filter((w) => mine.has(w)).length;
  const [group] = ways.values();
  const pick = group!.slice().sort((a, b) => score(b) - score(a) || a.srid - b.srid)[0]!;
  return resolveEntry(pick, datumLabel);
}
