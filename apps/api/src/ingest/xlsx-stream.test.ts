// The streaming xlsx reader (xlsx-stream.ts) against SheetJS, the whole-file reader it replaces for analysis
// uploads: random workbooks written by SheetJS (shared strings or not) and hand-written sheet XML (shared formulas,
// inline and rich strings, namespaces, gaps, CDATA, dates) give the same rows both ways; and hostile workbooks (zip
// bombs, lying sizes, malformed XML, a missing sheet, encryption, huge rows) end as a 4xx naming the file; through the
// API, an xlsx upload gets the configured row cap (ANALYSIS_MAX_ROWS) and runs to completion.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrangeTenant, multipart, rect, settled, square } from '../test/analysis-fixtures.js';
import { testEnv, type TestEnv } from '../test/harness.js';
import { zip } from '../test/zip-fixture.js';
import { MAX_CELL_CHARS, MAX_COLUMNS, MAX_INFLATE_RATIO, ParseError } from './limits.js';
import { parseFile, readAnalysisFile } from './read.js';
import { readXlsxRows, type XlsxCell, type XlsxLimits } from './xlsx-stream.js';
import { withCpuMs } from '../test/cpu-time.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-xlsx-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const onDisk = (buf: Uint8Array) => {
  const file = path.join(dir, `${n++}.xlsx`);
  fs.writeFileSync(file, buf);
  return file;
};

/** The rows the streaming path gives (readAnalysisFile dispatches an xlsx to it), in windows of 7 to cross windows. */
async function streamed(buf: Uint8Array, maxRows = 100_000): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  const { kind, total } = await readAnalysisFile(onDisk(buf), 'farms.xlsx', { maxRows, window: 7 }, async (part, first) => {
    expect(first).toBe(rows.length + 1);
    rows.push(...part);
  });
  expect(kind).toBe('xlsx');
  expect(total).toBe(rows.length);
  return rows;
}

/** What either reader says: the rows, or the refusal's status and code. */
async function outcome(read: () => Promise<unknown> | unknown): Promise<unknown> {
  try {
    return { rows: await read() };
  } catch (err) {
    if (err instanceof ParseError) return { status: err.status, code: err.code };
    throw err;
  }
}

async function same(buf: Uint8Array): Promise<unknown> {
  const whole = await outcome(() => parseFile(buf, 'farms.xlsx').rows);
  const stream = await outcome(() => streamed(buf));
  expect(stream).toEqual(whole);
  return stream;
}

const written = (rows: unknown[][], bookSST: boolean) => {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Farms');
  return new Uint8Array(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', bookSST }) as Buffer);
};

/** A workbook from hand-written sheet XML (and shared strings), with the parts a workbook has. */
function workbook(sheetData: string, opts: { sst?: string[]; prefix?: string; sheetExtra?: string; workbookPr?: string; rawSheet?: string } = {}): Uint8Array {
  const p = opts.prefix ? `${opts.prefix}:` : '';
  const ns = opts.prefix ? `xmlns:${opts.prefix}` : 'xmlns';
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const ct = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${ct}.sheet.main+xml"/><Override PartName="/xl/worksheets/farms.xml" ContentType="${ct}.worksheet+xml"/><Override PartName="/xl/worksheets/other.xml" ContentType="${ct}.worksheet+xml"/><Override PartName="/xl/strings.xml" ContentType="${ct}.sharedStrings+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0"?><${p}workbook ${ns}="${main}" xmlns:r="${rel}">${opts.workbookPr ?? ''}<${p}sheets><${p}sheet name="Farms" sheetId="1" r:id="rId7"/><${p}sheet name="Other" sheetId="2" r:id="rId8"/></${p}sheets></${p}workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId8" Type="${rel}/worksheet" Target="worksheets/other.xml"/><Relationship Id="rId7" Type="${rel}/worksheet" Target="/xl/worksheets/farms.xml"/><Relationship Id="rId9" Type="${rel}/sharedStrings" Target="strings.xml"/></Relationships>`,
    ),
    'xl/worksheets/farms.xml': strToU8(
      opts.rawSheet ??
        `<?xml version="1.0"?><${p}worksheet ${ns}="${main}">${opts.sheetExtra ?? ''}<${p}sheetData>${sheetData}</${p}sheetData></${p}worksheet>`,
    ),
    'xl/worksheets/other.xml': strToU8(
      `<worksheet xmlns="${main}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>wrong sheet</t></is></c></row></sheetData></worksheet>`,
    ),
  };
  if (opts.sst) files['xl/strings.xml'] = strToU8(`<sst xmlns="${main}" count="${opts.sst.length}">${opts.sst.map((s) => `<si>${s}</si>`).join('')}</sst>`);
  return zipSync(files);
}

const HEADER = `<row r="1">${['farm_name', 'farm_coordinates', 'note', 'formula', 'more'].map((h, i) => `<c r="${'ABCDE'[i]}1" t="inlineStr"><is><t>${h}</t></is></c>`).join('')}</row>`;

describe('the streaming xlsx reader gives the rows SheetJS gives', () => {
  const text = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.constantFrom(
      'a&b',
      '<tag>',
      '"quoted" & \'single\'',
      'line\r\nbreak',
      'lone\rcr',
      ' padded ',
      '_x0041_',
      'tab\there',
      'é ü 中文 🌍',
      '=1+2',
      '&amp;',
      '0',
      'TRUE',
      '',
    ),
  );
  const cell = fc.oneof(
    text,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer({ min: -1e9, max: 1e9 }),
    fc.boolean(),
    fc.constant(null),
    fc.record({ f: fc.constantFrom('A2+1', 'SUM(B2:B3)', 'CONCAT("a","b")', '_xlfn.XLOOKUP(1,A:A,B:B)'), v: fc.integer({ min: 0, max: 99 }) }),
    fc.constant({ t: 'e', v: 0x2a }),
  );
  const sheet = fc.array(fc.array(cell, { minLength: 0, maxLength: 6 }), { minLength: 1, maxLength: 25 });

  it('on random workbooks written by SheetJS, with and without shared strings', async () => {
    await fc.assert(
      fc.asyncProperty(sheet, fc.boolean(), async (body, sst) => {
        const rows = [
          ['farm_name', 'farm_coordinates', 'extra', '', 'extra'],
          ...body.map((r) => r.map((c) => (c !== null && typeof c === 'object' && 'f' in c ? { t: 'n', ...c } : c))),
        ];
        await same(written(rows, sst));
      }),
      { numRuns: 60 },
    );
  });

  it('on hand-written sheet XML: shared formulas, inline and rich text, gaps, rows and cells without r, CDATA, comments', async () => {
    const sst = [
      '<t>Farm &amp; Co</t>',
      '<r><rPr><b/></rPr><t>Ri</t></r><r><t xml:space="preserve">ch </t></r><rPh sb="0" eb="1"><t>phonetic</t></rPh>',
      '<t/>',
      '<t>[[1,2],[1,3],[2,3]]</t>',
      '<t>a_x000D_&#10;b</t>',
    ];
    const rows = [
      HEADER,
      '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>3</v></c><c r="E2"><v>1.25e3</v></c></row>',
      '<row r="3"><c r="A3" t="s"><v>1</v></c><c r="C3" t="s"><v>4</v></c><c r="D3"><f t="shared" ref="D3:D6" si="0">A3&amp;$B$2&amp;C3</f><v>x</v></c></row>',
      '<row r="4"><c r="A4" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c><c r="D4"><f t="shared" si="0"/><v>y</v></c></row>',
      '<row r="6" spans="1:4"><c t="b"><v>1</v></c><c t="b"><v>0</v></c><c t="e"><v>#N/A</v></c><c r="D6"><f t="shared" si="0"></f><v>1</v></c></row>',
      '<row><c r="A7" t="str"><f>CONCAT("a","b")</f><v>ab</v></c><c r="B7"><f>1/0</f></c><c r="C7" t="str"><v>x &amp;amp; y</v></c></row>',
      '<row r="8"><!-- a comment --><c r="A8" t="inlineStr"><is><t><![CDATA[<raw> & text]]></t></is></c><c r="B8" t="s"><v>2</v></c><c r="C8"/></row>',
      '<row r="9"><c r="A9" t="n"><v>-0.5</v></c><c r="B9"><v></v></c><c r="C9" s="3"><v>44927</v></c></row>',
      '<row r="10"><c r="A10" t="d"><v>2024-02-29</v></c><c r="B10" t="d"><v>2024-02-29T12:30:00</v></c><c r="C10" t="d"><v>1900-01-15</v></c></row>',
      '<row r="11"></row><row r="12"><c r="A12"/><c r="B12" t="s"/></row>',
      '<row r="13"><c r="C13" t="inlineStr"><is><t>only the third</t></is></c><c r="A13" t="inlineStr"><is><t>then the first</t></is></c></row>',
    ].join('');
    const got = await same(workbook(rows, { sst, sheetExtra: '<dimension ref="A1:E13"/><sheetViews><sheetView workbookViewId="0"/></sheetViews>' }));
    expect((got as { rows: unknown[] }).rows.length).toBeGreaterThan(8);
    // Namespace prefixes on every element. (SheetJS misses a prefixed self-closing <x:f t="shared" si="0"/>, and reads
    // the cached value there; this reader gives the formula, as it does without a prefix.)
    const prefixed = rows.replace('<f t="shared" si="0"/>', '<f t="shared" si="0"></f>').replace(/<(\/?)(row|c|v|f|is|t|r)\b/g, '<$1x:$2');
    await same(workbook(prefixed, { sst, prefix: 'x' }));
    // date1904: dates move by 1462 days.
    await same(workbook(rows, { sst, workbookPr: '<workbookPr date1904="1"/>' }));
  });

  it('on every refusal SheetJS’s path makes for a table: no header, no data rows, a missing column, too many columns, a long cell', async () => {
    await same(workbook(''));
    await same(workbook(HEADER));
    await same(workbook('<row r="1"><c r="A1" t="inlineStr"><is><t>farm_name</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row>'));
    await same(workbook(`${HEADER}<row r="2"><c r="${'H'}2"><v>1</v></c><c r="GS2"><v>2</v></c></row>`));
    expect(await outcome(() => streamed(workbook(`${HEADER}<row r="2"><c r="A2"><v>1</v></c><c r="GS2"><v>2</v></c></row>`)))).toEqual({
      status: 413,
      code: 'too_many_columns',
    });
    expect(MAX_COLUMNS).toBe(200);
    const long = 'x'.repeat(MAX_CELL_CHARS + 1);
    await same(workbook(`${HEADER}<row r="2"><c r="A2" t="inlineStr"><is><t>${long}</t></is></c></row>`));
    await same(workbook(`${HEADER}<row r="2"><c r="A2" t="s"><v>0</v></c></row>`, { sst: [`<t>${long}</t>`] }));
  });
});

describe('the streaming xlsx reader refuses hostile workbooks with a 4xx naming the file', () => {
  const limits: XlsxLimits = {
    maxInflateRatio: MAX_INFLATE_RATIO,
    maxColumns: MAX_COLUMNS,
    maxCellChars: MAX_CELL_CHARS,
    fail: (status, code, message) => new ParseError(status, code, message),
  };
  async function refusal(buf: Uint8Array, extra: Partial<XlsxLimits> = {}): Promise<{ status: number; code: string; message: string }> {
    const file = onDisk(buf);
    const rows: XlsxCell[][] = [];
    try {
      await readXlsxRows(
        file,
        { ...limits, ...extra },
        (cells) => void rows.push(cells),
        async () => undefined,
      );
    } catch (err) {
      if (err instanceof ParseError) {
        expect(err.status).toBeGreaterThanOrEqual(400);
        expect(err.status).toBeLessThan(500);
        expect(err.message).toMatch(/xlsx|columns|cell/);
        return { status: err.status, code: err.code, message: err.message };
      }
      throw err;
    }
    throw new Error(`not refused (${rows.length} rows)`);
  }
  const parts = (sheet: Buffer, more: Array<{ name: string; data: Buffer; deflate?: boolean }> = []) =>
    zip([
      { name: '_rels/.rels', data: Buffer.from('<Relationships><Relationship Id="r" Type="x/officeDocument" Target="xl/workbook.xml"/></Relationships>') },
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>') },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: Buffer.from(
          '<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="x/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        ),
      },
      { name: 'xl/worksheets/sheet1.xml', data: sheet, deflate: true },
      ...more,
    ]);

  it('a zip bomb: refused from the declared sizes before inflating, and in the stream when the directory lies', async () => {
    const bomb = parts(Buffer.alloc(24 * 1024 * 1024, 0x20));
    const { value: refused, cpuMs } = await withCpuMs(() => refusal(bomb));
    expect(refused).toMatchObject({ status: 413, code: 'file_too_complex' });
    expect(cpuMs).toBeLessThan(2000);
    // The directory says 1 MB for the sheet: the inflate stream stops it as it grows past that.
    const lying = Buffer.from(
      parts(
        Buffer.from(`<worksheet><sheetData>${Array.from({ length: 200_000 }, (_, i) => `<row><c><v>${i}</v></c></row>`).join('')}</sheetData></worksheet>`),
      ),
    );
    const cd = lying.indexOf(Buffer.from('xl/worksheets/sheet1.xml'), lying.length - 400) - 46;
    lying.writeUInt32LE(1024 * 1024, cd + 24);
    expect(await refusal(lying)).toMatchObject({ status: 400, code: 'file_unreadable', message: expect.stringMatching(/longer than its zip directory says/) });
    // Shared strings beyond their cap.
    const sst = Buffer.from(`<sst>${'<si><t>farm</t></si>'.repeat(50_000)}</sst>`);
    expect(
      await refusal(parts(Buffer.from('<worksheet/>'), [{ name: 'xl/sharedStrings.xml', data: sst, deflate: true }]), { sharedStringsMaxBytes: 64 * 1024 }),
    ).toMatchObject({ status: 413, code: 'file_too_complex', message: expect.stringMatching(/sharedStrings\.xml unpacks to more than/) });
  });

  it('malformed XML, a missing sheet, encryption, an unknown compression, a damaged stream, rows out of order', async () => {
    const sheet = (data: string) => Buffer.from(`<worksheet><sheetData>${data}</sheetData></worksheet>`);
    expect(
      (await refusal(parts(Buffer.from('<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row><row r="2" ')))).message,
    ).toMatch(/ends in the middle of a tag/);
    expect((await refusal(parts(Buffer.from('<!DOCTYPE lol [<!ENTITY a "aaaa">]><worksheet/>')))).message).toMatch(/document type/);
    expect((await refusal(parts(sheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row><row r="1"/>`)))).message).toMatch(/out of order/);
    expect((await refusal(parts(sheet(`<row r="1"><c r="A1" t="s"><v>5</v></c></row>`)))).message).toMatch(/refers to a text that is not in it/);
    expect((await refusal(parts(Buffer.from(`<worksheet><sheetData><row><c t="inlineStr"><is><t>${'<'.repeat(1)}x${'a'.repeat(70_000)}`)))).message).toMatch(
      /tag that never ends/,
    );
    // The workbook's first sheet points at a part the zip does not hold.
    const missing = zip([
      { name: '_rels/.rels', data: Buffer.from('<Relationships><Relationship Id="r" Type="x/officeDocument" Target="xl/workbook.xml"/></Relationships>') },
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook><sheets><sheet name="Gone" r:id="rId1"/></sheets></workbook>') },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: Buffer.from('<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/gone.xml"/></Relationships>'),
      },
    ]);
    expect((await refusal(missing)).message).toMatch(/first sheet \("Gone"\) is missing/);
    const noSheet = zip([{ name: 'xl/workbook.xml', data: Buffer.from('<workbook><sheets/></workbook>') }]);
    expect((await refusal(noSheet)).message).toMatch(/has no sheet/);
    // Encrypted entry (flag bit 0), and a compression method other than stored or deflate.
    const flagged = (flag: number, method: number | null) => {
      const z = Buffer.from(parts(sheet('')));
      for (let at = z.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = z.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) {
        if (z.toString('utf8', at + 46, at + 46 + z.readUInt16LE(at + 28)) !== 'xl/worksheets/sheet1.xml') continue;
        z.writeUInt16LE(flag, at + 8);
        if (method !== null) z.writeUInt16LE(method, at + 10);
      }
      return z;
    };
    expect((await refusal(flagged(1, null))).message).toMatch(/encrypted/);
    expect((await refusal(flagged(0, 12))).message).toMatch(/compression this reader does not know/);
    // Data that is not deflate (a reserved block type) in a member said to be deflated.
    const damaged = zip([
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>') },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: Buffer.from('<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
      },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.from([0x07, 0x01, 0x02, 0x03, 0x04, 0x05]) },
    ]);
    const cdAt = damaged.lastIndexOf(Buffer.from('xl/worksheets/sheet1.xml')) - 46;
    damaged.writeUInt16LE(8, cdAt + 10);
    expect(await refusal(damaged)).toMatchObject({ status: 400, code: 'file_unreadable', message: expect.stringMatching(/cannot be unpacked/) });
  });

  it('rows beyond ANALYSIS_MAX_ROWS: 413 too_many_rows naming the cap; a huge row is bounded by the cell and column caps', async () => {
    const many = workbook(`${HEADER}${Array.from({ length: 30 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${i}</v></c></row>`).join('')}`);
    expect(await outcome(() => streamed(many, 29))).toEqual({ status: 413, code: 'too_many_rows' });
    expect((await outcome(() => streamed(many, 30))) as { rows: unknown[] }).toMatchObject({ rows: expect.any(Array) });
    const wide = workbook(`${HEADER}<row r="2">${Array.from({ length: 250 }, (_, i) => `<c><v>${i}</v></c>`).join('')}</row>`);
    expect(await outcome(() => streamed(wide))).toEqual({ status: 413, code: 'too_many_columns' });
  });
});

describe('an xlsx analysis upload through the API, read in a stream', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;
  const xlsxOf = (n: number) =>
    Buffer.from(
      written(
        [
          ['farm_name', 'farm_coordinates', 'farm_ref'],
          ...Array.from({ length: n }, (_, i) => [
            `Farm ${i + 1}`,
            JSON.stringify(square(40.01 + (i % 50) * 0.002, 40.01 + Math.floor(i / 50) * 0.002)),
            i + 1,
          ]),
        ],
        true,
      ),
    );
  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [{ name: 'Xlsx block', ring: rect(40.0, 40.0, 40.2, 40.2) }]);
  });

  it('applies ANALYSIS_MAX_ROWS (not the whole-file cap) with a 413 naming it, and runs a file at the cap', async () => {
    const before = env.config.analysisMaxRows;
    env.config.analysisMaxRows = 120;
    try {
      const over = await t.caller.request({
        method: 'POST',
        url: '/api/custom-analysis/',
        ...multipart({ name: 'Xlsx over', operational_areas: t.areaIds }, 'cap.xlsx', xlsxOf(121)),
      });
      expect(over.status).toBe(413);
      expect(over.body).toMatchObject({ code: 'too_many_rows', errors: { file: [expect.any(String)] } });
      expect(over.body.message).toMatch(/more than 120 data rows/);
      const at = await t.caller.request({
        method: 'POST',
        url: '/api/custom-analysis/',
        ...multipart({ name: 'Xlsx at', operational_areas: t.areaIds }, 'cap.xlsx', xlsxOf(120)),
      });
      expect(at.status, JSON.stringify(at.body)).toBe(201);
      const detail = await settled(t.caller, at.body.data.id);
      expect(detail).toMatchObject({ status: 'completed', total_uploaded_data_count: 120 });
      expect(detail.within_operational_area.count).toBe(120);
      const hostile = await t.caller.request({
        method: 'POST',
        url: '/api/custom-analysis/',
        ...multipart({ name: 'Xlsx bad', operational_areas: t.areaIds }, 'bad.xlsx', Buffer.from(workbook(`${HEADER}<row r="1"/>`))),
      });
      expect(hostile.status).toBe(400);
      expect(hostile.body).toMatchObject({ code: 'file_unreadable', errors: { file: [expect.stringMatching(/^The \.xlsx file's rows are out of order/)] } });
    } finally {
      env.config.analysisMaxRows = before;
    }
  }, 120_000);
});
