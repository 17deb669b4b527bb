// The streaming GeoJSON reader (geojson-stream.ts) against the whole-file reader it replaces for uploads
// (readGeoJson): random FeatureCollections, lists and single Features, written as raw JSON text (white space, key
// order, escaped keys, duplicate keys, 1e999, lone surrogates, NUL escapes, points, antimeridian rings, non-features),
// cut into random pieces, give the same rows and the same staged lines both ways, and cut-off texts the same refusal.
// Files on disk (BOM, Latin-1, NUL bytes, UTF-8 split across pieces, over the row cap) go through readAnalysisFile
// and parseFile; hostile texts (a huge feature, deep nesting, a top level that is no FeatureCollection) end as a 4xx.
// Uploads through the API are tested in geojson-upload.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { stageRows } from '../modules/analyses/analyses.rows.js';
import { GeoJsonRows, MAX_DEPTH, MAX_FEATURE_CHARS } from './geojson-stream.js';
import { readGeoJson, type Limits } from './gis-files.js';
import { ParseError } from './limits.js';
import { parseFile, readAnalysisFile } from './read.js';

type Row = Record<string, unknown>;
const limitsOf = (maxRows: number): Limits => ({ maxRows, fail: (status, code, message) => new ParseError(status, code, message) });
const AREA = '3f1c2b8e-0d55-4a47-9a0e-3a4f1f0b7c11';

/** What a reader says: its rows, or its refusal's status and code. */
function outcome(read: () => Row[]): { rows: Row[] } | { status: number; code: string; message: string } {
  try {
    return { rows: read() };
  } catch (err) {
    if (err instanceof ParseError) return { status: err.status, code: err.code, message: err.message };
    throw err;
  }
}

/** The stream reader fed the text cut at the given points. */
function streamRows(text: string, cuts: number[], nameField: string | undefined, maxRows = 10_000): Row[] {
  const rows: Row[] = [];
  const reader = new GeoJsonRows(nameField, limitsOf(maxRows), (r) => void rows.push(r));
  let at = 0;
  for (const c of [...new Set(cuts.map((x) => Math.min(text.length, x)))].sort((a, b) => a - b)) {
    reader.push(text.slice(at, c));
    at = c;
  }
  reader.push(text.slice(at));
  reader.end();
  expect(reader.rows).toBe(rows.length);
  return rows;
}

/**
 * A top-level object with a "features" list whose type is not FeatureCollection (a Feature or a geometry carrying a
 * features member: not GeoJSON). The whole-file reader read it as one Feature or geometry; the stream has read the
 * list by the time it meets the type, so it refuses the file (400) instead: the one place they differ by design.
 */
function listNotCollection(text: string): boolean {
  try {
    const doc = JSON.parse(text) as unknown;
    return (
      doc !== null && typeof doc === 'object' && !Array.isArray(doc) && Array.isArray((doc as Row)['features']) && (doc as Row)['type'] !== 'FeatureCollection'
    );
  } catch {
    return false;
  }
}

/** Both readers agree: the same rows (values, key order, staged lines), or the same refusal (status and code). */
function agree(text: string, cuts: number[], nameField?: string): void {
  const whole = outcome(() => readGeoJson(text, nameField, limitsOf(10_000)));
  const stream = outcome(() => streamRows(text, cuts, nameField));
  if (listNotCollection(text)) {
    expect(stream).toMatchObject({ status: 400, code: 'file_unreadable' });
    return;
  }
  if ('rows' in whole) {
    expect(stream).toStrictEqual(whole);
    const rows = (stream as { rows: Row[] }).rows;
    // Key order and -0 matter downstream (row_data, staging): the staged lines are the proof.
    expect(rows.map((r) => Object.keys(r))).toEqual(whole.rows.map((r) => Object.keys(r)));
    const ids = new Set([AREA]);
    expect(stageRows(rows, 0, rows.length, 1, ids, new Map())).toBe(stageRows(whole.rows, 0, whole.rows.length, 1, ids, new Map()));
  } else {
    expect('status' in stream ? { status: stream.status, code: stream.code } : stream, `${whole.message}\n${text.slice(0, 400)}`).toEqual({
      status: whole.status,
      code: whole.code,
    });
  }
}

// ---------- raw JSON text generators ----------

const ws = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n  ', '  ');
/** A key as written: plain, or with some characters as \u escapes (the same key to JSON.parse). */
const keyText = (k: string) =>
  fc
    .boolean()
    .map((esc) =>
      esc
        ? `"${[...k].map((ch, i) => (i % 2 === 0 && ch.length === 1 ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}` : JSON.stringify(ch).slice(1, -1))).join('')}"`
        : JSON.stringify(k),
    );
const numberText = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.integer().map(String),
  fc.constantFrom('1e999', '-1e999', '-0', '0.0', '1E2', '1e-400', '-0.0e+0', '123456789012345678901234567890'),
);
const stringText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('"\\u0000"', '"\\ud800"', '"a\\udc00b"', '"\\"\\\\\\/\\b\\f\\n\\r\\t"', '"Ferme à Kpalimé"', '"农场"', '""', '"  "', '"\\u2028"'),
);
const scalarText = fc.oneof(numberText, stringText, fc.constantFrom('true', 'false', 'null'));
/** Objects from entries (keys may repeat: JSON.parse keeps the first place and the last value). */
const objectText = (entries: fc.Arbitrary<Array<[string, string]>>) =>
  fc
    .tuple(entries, fc.array(ws, { minLength: 8, maxLength: 8 }))
    .chain(([es, w]) =>
      fc
        .tuple(...es.map(([k]) => keyText(k)))
        .map((keys) => `{${w[0]}${es.map(([, v], i) => `${keys[i]}${w[1]}:${w[2]}${v}`).join(`${w[3]},${w[4]}`)}${w[5]}}`),
    );
const { json: jsonText } = fc.letrec<{ json: string }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    scalarText,
    fc.array(tie('json'), { maxLength: 3 }).map((xs) => `[${xs.join(',')}]`),
    objectText(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'Name', 'x y', '1', '0'), tie('json')), { maxLength: 3 })),
  ),
}));

const coord = fc.oneof(
  fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true })),
  fc.tuple(fc.constantFrom(179.9995, -179.9995, 180, -180, 181, 1113194.9), fc.double({ min: -95, max: 95, noNaN: true })),
);
const ringOf = (c: [number, number]) => [c, [c[0] + 0.001, c[1]], [c[0] + 0.001, c[1] + 0.001], [c[0], c[1] + 0.001], c];
const geometry = fc.oneof(
  coord.map((c) => JSON.stringify({ type: 'Polygon', coordinates: [ringOf(c)] })),
  coord.map((c) => JSON.stringify({ type: 'Polygon', coordinates: [ringOf(c).slice(0, 4)] })),
  fc.constant('{"type":"Polygon","coordinates":[[[179.9995,-16.5],[-179.9995,-16.5],[-179.9995,-16.499],[179.9995,-16.499],[179.9995,-16.5]]]}'),
  fc.array(coord, { minLength: 1, maxLength: 3 }).map((cs) => JSON.stringify({ type: 'MultiPolygon', coordinates: cs.map((c) => [ringOf(c)]) })),
  coord.map((c) => JSON.stringify({ type: 'Point', coordinates: c })),
  coord.map((c) => `{"coordinates":[${c[0]},1e999],"type":"Point"}`),
  coord.map((c) => JSON.stringify({ type: 'LineString', coordinates: [c, [c[0] + 1, c[1]]] })),
  fc.constantFrom('null', '{}', '"POINT(1 2)"', '{"type":"GeometryCollection","geometries":[]}', '[[1,2],[1,3],[2,3]]'),
  jsonText,
);
const propKeys = fc.constantFrom('farm_name', 'Farm Name', 'name', 'NAME', 'ref', 'farm_coordinates', 'operational_area_id', 'id', 'notes', 'n', 'ñame');
const propValue = fc.oneof(scalarText, jsonText, fc.constant(JSON.stringify(AREA)));
const properties = fc.oneof(
  { weight: 6, arbitrary: objectText(fc.array(fc.tuple(propKeys, propValue), { maxLength: 5 })) },
  { weight: 1, arbitrary: fc.constantFrom('null', '[]', '"x"', '{}') },
);
type Part = [string, string];
const feature = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .record({
        type: fc.constantFrom('"Feature"', '"Feature"', '"Feature"', '"feature"'),
        properties: fc.option(properties, { nil: undefined }),
        geometry: fc.option(geometry, { nil: undefined }),
        id: fc.option(fc.oneof(numberText, stringText), { nil: undefined }),
        extra: fc.option(jsonText, { nil: undefined }),
      })
      .chain((f) => {
        const parts: Part[] = [['type', f.type]];
        if (f.properties !== undefined) parts.push(['properties', f.properties]);
        if (f.geometry !== undefined) parts.push(['geometry', f.geometry]);
        if (f.id !== undefined) parts.push(['id', f.id]);
        if (f.extra !== undefined) parts.push(['bbox', f.extra]);
        return objectText(fc.shuffledSubarray(parts, { minLength: parts.length, maxLength: parts.length }));
      }),
  },
  { weight: 1, arbitrary: fc.oneof(jsonText, geometry) },
);
const features = fc.array(feature, { minLength: 0, maxLength: 12 });

/** A whole document: a FeatureCollection (members in any order), a JSON list, one Feature or one geometry. */
const documentText = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        features,
        fc.array(ws, { minLength: 4, maxLength: 4 }),
        fc.option(fc.tuple(fc.constantFrom('name', 'crs', 'x"\\y\\', '\\'), fc.oneof(stringText, jsonText)), { nil: undefined }),
        fc.constantFrom('"FeatureCollection"', '"FeatureCollection"', '"Feature"', '"Topology"'),
      )
      .chain(([fs, w, extra, type]) => {
        const parts: Part[] = [
          ['type', type],
          ['features', `[${w[0]}${fs.join(`${w[1]},${w[2]}`)}${w[3]}]`],
        ];
        if (extra !== undefined) parts.push(extra);
        return objectText(fc.shuffledSubarray(parts, { minLength: parts.length, maxLength: parts.length }));
      }),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(feature, objectText(fc.array(fc.tuple(propKeys, propValue), { maxLength: 4 }))), { maxLength: 8 })
      .map((xs) => `[${xs.join(',')}]`),
  },
  { weight: 1, arbitrary: feature },
  { weight: 1, arbitrary: geometry },
  {
    weight: 1,
    arbitrary: fc.constantFrom('{"type":"FeatureCollection"}', '{"type":"FeatureCollection","features":{}}', '{}', '{"type":"Topology","objects":{}}', '[]'),
  },
);
const withWs = fc.tuple(ws, documentText, ws).map(([a, d, b]) => `${a}${d}${b}`);
const cutsFor = (text: string) => fc.array(fc.integer({ min: 0, max: Math.max(0, text.length) }), { maxLength: 6 });
const nameField = fc.option(fc.constantFrom('ref', 'notes', 'missing', 'NAME'), { nil: undefined });

describe('GeoJSON stream reader: the same rows as the whole-file reader', () => {
  it('agrees on random documents cut into random pieces (rows, key order, staged lines, refusals)', () => {
    fc.assert(
      fc.property(
        withWs.chain((t) => fc.tuple(fc.constant(t), cutsFor(t), nameField)),
        ([text, cuts, field]) => agree(text, cuts, field),
      ),
      { numRuns: 600 },
    );
  });

  it('agrees on documents cut off anywhere (the same refusal, or the same rows when only white space was lost)', () => {
    fc.assert(
      fc.property(
        withWs
          .chain((t) => fc.tuple(fc.constant(t), fc.integer({ min: 0, max: t.length })))
          .chain(([t, end]) => fc.tuple(fc.constant(t.slice(0, end)), cutsFor(t.slice(0, end)))),
        ([text, cuts]) => {
          if (text.trim() === '') return;
          agree(text, cuts);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('agrees on a fixed sample of the shapes it must read', () => {
    const square = [
      [10, 10],
      [10.001, 10],
      [10.001, 10.001],
      [10, 10.001],
      [10, 10],
    ];
    const docs = [
      {
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: { farm_name: 'A', ref: 7 }, geometry: { type: 'Polygon', coordinates: [square] } }],
      },
      {
        features: [{ type: 'Feature', id: 9, properties: { Name: 'B' }, geometry: { type: 'Point', coordinates: [10, 10] } }, null, 3, []],
        type: 'FeatureCollection',
        bbox: [1, 2, 3, 4],
      },
      { type: 'Feature', properties: { name: 'C' }, geometry: { type: 'Polygon', coordinates: [square] } },
      { type: 'Polygon', coordinates: [square] },
      [
        { farm_name: 'D', farm_coordinates: square.slice(0, 4) },
        { type: 'Feature', properties: { farm_name: 'E' }, geometry: null },
      ],
    ];
    for (const d of docs)
      for (const step of [1, 3, 1000])
        agree(
          JSON.stringify(d, null, 2),
          Array.from({ length: 200 }, (_, i) => i * step),
        );
    agree('{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":1,"b":2,"a":3,"farm_name":"x","farm_name":"y"}}]}', [5, 60]);
    agree('{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1e999,-1e999]}}]}', [40]);
    agree('{"\\u0074ype":"FeatureCollection","f\\u0065atures":[{"type":"Feature","properties":{"n":"\\ud800\\u0000"}}]}', [3, 4, 5]);
    agree('{"type":"FeatureCollection","type":"Topology","features":[]}', []);
  });
});

describe('GeoJSON stream reader: hostile text', () => {
  const read = (text: string, maxRows = 10_000) => outcome(() => streamRows(text, [], undefined, maxRows));
  const fcOf = (n: number) =>
    `{"type":"FeatureCollection","features":[${Array.from({ length: n }, (_, i) => `{"type":"Feature","properties":{"farm_name":"F${i}"},"geometry":{"type":"Point","coordinates":[1,2]}}`).join(',')}]}`;

  it('refuses rows beyond the cap with a 413 naming it, and reads a file at the cap', () => {
    const over = read(fcOf(11), 10);
    expect(over).toMatchObject({ status: 413, code: 'too_many_rows' });
    expect((over as { message: string }).message).toMatch(/more than 10 features/);
    expect(read(fcOf(10), 10)).toMatchObject({ rows: { length: 10 } });
    expect(read(`[${'{"farm_name":"x"},'.repeat(10)}{"farm_name":"y"}]`, 10)).toMatchObject({ status: 413, code: 'too_many_rows' });
  });

  it('bounds one feature: a huge feature is a 413 read in pieces, without holding more than the cap', () => {
    const reader = new GeoJsonRows(undefined, limitsOf(10), () => undefined);
    reader.push('{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"farm_name":"');
    const piece = 'x'.repeat(256 * 1024);
    let err: unknown = null;
    try {
      for (let i = 0; i < (MAX_FEATURE_CHARS / piece.length) * 4; i++) reader.push(piece);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ status: 413, code: 'feature_too_large' });
    expect((err as Error).message).toMatch(/Feature 1 .* larger than 16 MB/);
    // The top-level members other than features are bounded the same way.
    const big = read(`{"type":"FeatureCollection","name":"${'y'.repeat(MAX_FEATURE_CHARS)}","features":[]}`);
    expect(big).toMatchObject({ status: 413, code: 'feature_too_large' });
  });

  it('refuses deep nesting with a 400, whether in a feature, a list or the top-level object', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(read(`{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":${deep(100_000)}}}]}`)).toMatchObject({
      status: 400,
      code: 'file_too_complex',
    });
    expect(read(`[${deep(MAX_DEPTH)}]`)).toMatchObject({ status: 400, code: 'file_too_complex' });
    expect(read(`{"type":"Feature","x":${deep(MAX_DEPTH)}}`)).toMatchObject({ status: 400, code: 'file_too_complex' });
    // Just within the bound: read as the whole-file reader reads it (a row whose geometry is not a Feature).
    agree(`[${deep(MAX_DEPTH - 1)}]`, [7]);
  });

  it('refuses a top level that is no FeatureCollection, truncated JSON and trailing text with a 400 naming it', () => {
    for (const [text, code] of [
      ['{"type":"Topology","objects":{}}', 'file_unreadable'],
      ['{"type":"FeatureCollection","features":[{"type":"Feature"}', 'file_unreadable'],
      ['{"type":"FeatureCollection","features":[{"type":"Feature"}]} x', 'file_unreadable'],
      ['{"type":"FeatureCollection","features":[{"type":"Feature"},]}', 'file_unreadable'],
      ['{"type":"FeatureCollection","features":[]}', 'file_empty'],
      ['{"type":"FeatureCollection","features":[{"type":"Feature"}],"features":[]}', 'file_unreadable'],
      ['{"type":"Feature","features":[{"type":"Feature"}]}', 'file_unreadable'],
      ['{"features":[{"type":"Feature"}]}', 'file_unreadable'],
      ['{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"__proto__":{"x":1}}}]}', 'forbidden_column'],
    ] as const) {
      expect(read(text), text).toMatchObject({ status: 400, code });
    }
    expect((read('{"type":"FeatureCollection","features":[{"type":"Feature"}') as { message: string }).message).toMatch(/ends before its JSON does/);
    expect((read('{"type":"Feature","features":[{"type":"Feature"}]}') as { message: string }).message).toMatch(/not "FeatureCollection"/);
  });
});

describe('GeoJSON upload files: readAnalysisFile against parseFile', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-geojson-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  let n = 0;

  async function streamedFile(buf: Uint8Array, maxRows = 100_000): Promise<Row[]> {
    const file = path.join(dir, `${n++}.geojson`);
    fs.writeFileSync(file, buf);
    const rows: Row[] = [];
    const { kind, total } = await readAnalysisFile(file, 'farms.geojson', { maxRows, window: 7 }, async (part, first) => {
      expect(first).toBe(rows.length + 1);
      rows.push(...part);
    });
    expect(kind).toBe('geojson');
    expect(total).toBe(rows.length);
    return rows;
  }

  async function sameFile(buf: Uint8Array): Promise<unknown> {
    const whole = outcome(() => parseFile(buf, 'farms.geojson').rows);
    let stream: unknown;
    try {
      stream = { rows: await streamedFile(buf) };
    } catch (err) {
      if (!(err instanceof ParseError)) throw err;
      stream = { status: err.status, code: err.code };
    }
    expect(stream).toStrictEqual('rows' in whole ? whole : { status: whole.status, code: whole.code });
    return stream;
  }

  it('decodes as the whole-file reader does: BOM, Latin-1, UTF-8 across pieces; a NUL byte is refused', async () => {
    const doc = (name: string) =>
      `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"farm_name":${JSON.stringify(name)}},"geometry":{"type":"Point","coordinates":[1,2]}}]}`;
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(await sameFile(Buffer.concat([bom, Buffer.from(doc('Kpalimé'))]))).toMatchObject({ rows: [{ farm_name: 'Kpalimé' }] });
    // A second BOM is not white space: the content sniffs as csv, both ways.
    expect(await sameFile(Buffer.concat([bom, bom, Buffer.from(doc('two BOMs'))]))).toEqual({ status: 400, code: 'file_type_mismatch' });
    expect(await sameFile(Buffer.from(doc('Ferme à Lomé'), 'latin1'))).toMatchObject({ rows: [{ farm_name: 'Ferme à Lomé' }] });
    expect(await sameFile(Buffer.concat([bom, Buffer.from(doc('latin1 é'), 'latin1')]))).toMatchObject({ status: 400, code: 'file_unreadable' });
    // 300 KB of features with multi-byte names: pieces of 256 KB cut inside characters and features.
    const many = `{"type":"FeatureCollection","features":[${Array.from({ length: 2000 }, (_, i) => `{"type":"Feature","properties":{"farm_name":"农场 ${i} ${'é'.repeat(i % 50)}","n":${i}},"geometry":{"type":"Polygon","coordinates":[[[1,1],[1.001,1],[1.001,1.001],[1,1]]]}}`).join(',\n')}]}`;
    expect(Buffer.byteLength(many)).toBeGreaterThan(300_000);
    expect(await sameFile(Buffer.from(many))).toMatchObject({ rows: { length: 2000 } });
    const nul = Buffer.from(many);
    nul[200_000] = 0;
    expect(await sameFile(nul)).toEqual({ status: 400, code: 'file_type_unsupported' });
  });

  it('applies the row cap it is given (ANALYSIS_MAX_ROWS), not the whole-file 100,000', async () => {
    const fcOf = (k: number) => Buffer.from(`{"type":"FeatureCollection","features":[${'{"type":"Feature"},'.repeat(k - 1)}{"type":"Feature"}]}`);
    await expect(streamedFile(fcOf(101), 100)).rejects.toMatchObject({
      status: 413,
      code: 'too_many_rows',
      message: expect.stringMatching(/more than 100 features/),
    });
    expect(await streamedFile(fcOf(100_001), 200_000)).toHaveLength(100_001);
  });
});
