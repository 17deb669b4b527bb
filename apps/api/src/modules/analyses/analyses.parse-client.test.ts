// A file is staged by one worker thread that reads it from disk in a stream: the staged chunks, joined, must be exactly
// what staging the whole parsed file gives, row numbers, twins and all, whatever the piece boundaries; a refused file
// ends the stream with the refusal, and the writer sees the failure (so storage discards what it wrote).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFile } from '../../ingest/read.js';
import { SPLIT_MIN_BYTES, stageInWorker } from './analyses.parse-client.js';
import { STAGE_LINE_ROWS, stageLine, type Duplicates } from './analyses.rows.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-parse-'));
const onDisk = (name: string, data: Buffer) => {
  const at = path.join(dir, name);
  fs.writeFileSync(at, data);
  return at;
};

/** Stages through the worker; returns the outcome and the bytes the writer received (or the error it saw). */
async function stage(name: string, data: Buffer, maxRows = 100_000) {
  const got: Uint8Array[] = [];
  let writerError: unknown = null;
  const outcome = await stageInWorker({ path: onDisk(name, data), filename: name, areaIds: [], maxRows }, data.length, async (staged) => {
    try {
      for await (const chunk of staged) got.push(chunk);
    } catch (err) {
      writerError = err;
      throw err;
    }
  });
  return { outcome, staged: Buffer.concat(got).toString('utf8'), writerError, chunks: got.length };
}

describe.skipIf(Boolean(process.env['TEST_DATABASE_URL']))('parse threads (a file staged in a stream)', () => {
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const farmsCsv = (n: number, repeatAfter: number, note = 300) => {
    const lines = ['farm_name;farm_coordinates;operational_area_id;note'];
    for (let i = 0; i < n; i++) {
      const x = 3 + (i % repeatAfter) * 1e-4; // rows after repeatAfter repeat earlier polygons: exact twins
      const ring =
        i % 97 === 0
          ? 'not coordinates'
          : JSON.stringify([
              [x, 7],
              [x + 5e-5, 7],
              [x + 5e-5, 7.00005],
              [x, 7],
            ]);
      // Quoted cells with escaped quotes, delimiters and line breaks inside, CRLF endings: piece boundaries fall anywhere.
      lines.push(`"Farm ""${i + 1}""";"${ring.replace(/"/g, '""')}";;"${'n'.repeat(i % note)};\r\nend"`);
    }
    return Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf8');
  };
  const wholeFileStaging = (data: Buffer) => {
    const { rows } = parseFile(new Uint8Array(data), 'farms.csv');
    const seen: Duplicates = new Map();
    const expected: string[] = [];
    for (let i = 0; i < rows.length; i += STAGE_LINE_ROWS) expected.push(stageLine(rows, i, Math.min(rows.length, i + STAGE_LINE_ROWS), new Set(), seen));
    return expected;
  };

  it('stages a small csv (one thread) read in pieces into exactly the whole-file result, twins included', async () => {
    const data = farmsCsv(3000, 1000, 40);
    expect(data.byteLength).toBeLessThan(SPLIT_MIN_BYTES);
    const expected = wholeFileStaging(data);
    expect(expected.join('\n')).toMatch(/"d":2}/);
    const r = await stage('small.csv', data);
    expect(r.outcome).toEqual({ ok: true, kind: 'csv', total: 3000 });
    expect(r.staged.endsWith('\n')).toBe(true);
    expect(r.staged.slice(0, -1).split('\n')).toEqual(expected);
  });

  it('stages a large csv in two threads, block by block in order: the whole-file rows, twins within each thread', async () => {
    const data = farmsCsv(12_345, 5000);
    expect(data.byteLength).toBeGreaterThan(SPLIT_MIN_BYTES);
    const expected = wholeFileStaging(data).flatMap((l) => JSON.parse(l) as Array<Record<string, unknown>>);
    const r = await stage('farms.csv', data);
    expect(r.outcome).toEqual({ ok: true, kind: 'csv', total: 12_345 });
    expect(r.chunks).toBeGreaterThan(2);
    const got = r.staged
      .slice(0, -1)
      .split('\n')
      .flatMap((l) => JSON.parse(l) as Array<Record<string, unknown>>);
    // Every row in order and identical but for `d`: a twin may keep its own polygon when its first copy was staged by
    // the other thread; a `d` always names an earlier row with the same polygon.
    const strip = (x: Record<string, unknown>) => JSON.stringify({ ...x, d: undefined });
    expect(got.map(strip)).toEqual(expected.map(strip));
    const wkbOf = new Map(got.map((x) => [x['n'] as number, x['wkb']]));
    const twins = got.filter((x) => x['d'] !== undefined);
    expect(twins.length).toBeGreaterThan(1000);
    for (const t of twins) {
      expect(t['d'] as number).toBeLessThan(t['n'] as number);
      expect(wkbOf.get(t['d'] as number)).toBe(t['wkb']);
    }
  });

  it('reads a Latin-1 csv (an Excel export) like the whole-file reader', async () => {
    const data = Buffer.from('farm_name,farm_coordinates\nCaf\xe9 farm,"[[3,7],[3.001,7],[3.001,7.001],[3,7]]"\n', 'latin1');
    const r = await stage('latin.csv', data);
    expect(r.outcome).toMatchObject({ ok: true, total: 1 });
    expect(JSON.parse(r.staged.trim())[0].name).toBe('Café farm');
  });

  it('ends the stream with the refusal: too many rows (naming the cap), NUL bytes late in the file, a bad header', async () => {
    const many = Buffer.from(`farm_name,farm_coordinates\n${'a,b\n'.repeat(5_001)}`, 'utf8');
    const tooMany = await stage('many.csv', many, 5_000);
    expect(tooMany.outcome).toMatchObject({ ok: false, status: 413, code: 'too_many_rows' });
    expect(!tooMany.outcome.ok && tooMany.outcome.message).toMatch(/more than 5,000 data rows/);
    // Chunks went out before the cap was reached; the writer's stream then failed, so storage keeps none of them.
    expect(tooMany.writerError).toBeInstanceOf(Error);

    const nul = Buffer.concat([Buffer.from(`farm_name,farm_coordinates\n${'a,b\n'.repeat(90_000)}`), Buffer.from([0x00])]);
    expect((await stage('nul.csv', nul)).outcome).toMatchObject({ ok: false, status: 400, code: 'file_type_unsupported' });
    expect((await stage('cols.csv', Buffer.from('name,coords\na,b\n'))).outcome).toMatchObject({ ok: false, status: 400, code: 'missing_columns' });
    expect((await stage('header.csv', Buffer.from('farm_name,farm_coordinates\n'))).outcome).toMatchObject({ ok: false, status: 400, code: 'file_empty' });
  });

  it('stages a GeoJSON file (read in a stream, feature by feature) in one thread', async () => {
    const features = Array.from({ length: 3 }, (_, i) => ({
      type: 'Feature',
      properties: { farm_name: `F${i}` },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [3, 7],
            [3.001, 7],
            [3.001, 7.001],
            [3, 7],
          ],
        ],
      },
    }));
    const r = await stage('farms.geojson', Buffer.from(JSON.stringify({ type: 'FeatureCollection', features })));
    expect(r.outcome).toEqual({ ok: true, kind: 'geojson', total: 3 });
    expect(JSON.parse(r.staged.trim())).toHaveLength(3);
  });
});

describe('csv read in pieces', () => {
  it('reads any text cut anywhere exactly as the whole text (rows, or the same refusal)', async () => {
    const fc = await import('fast-check');
    const { CsvRows, parseCsv } = await import('../../ingest/csv.js');
    const outcome = (f: () => string[][]) => {
      try {
        return { rows: f() };
      } catch (err) {
        return { code: (err as { code?: string }).code };
      }
    };
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', ',', ';', '"', '\r', '\n', ' ', 'é'), maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (text, cuts) => {
          const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((x, y) => x - y);
          const whole = outcome(() => parseCsv(text, 50));
          const inPieces = outcome(() => {
            const rows: string[][] = [];
            const csv = new CsvRows(
              50,
              (r) => void rows.push(r),
              () => Object.assign(new Error('too many'), { code: 'too_many_rows' }),
            );
            let from = 0;
            for (const c of at) {
              csv.push(text.slice(from, c), false);
              from = c;
            }
            csv.push(text.slice(from), true);
            return rows;
          });
          return JSON.stringify(whole) === JSON.stringify(inPieces);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
