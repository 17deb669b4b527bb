// Writes a large xlsx file in a stream, as Excel writes one: every text in xl/sharedStrings.xml, the sheet's cells
// referring to it by index (a million-row workbook never held in memory; SheetJS would build it whole). Used by
// `npm run bench:analysis -- --format xlsx` for the streaming xlsx reader's figures.
import fs from 'node:fs';
import { Zip, ZipDeflate, strToU8 } from 'fflate';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const colName = (c: number) => {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

/**
 * rows() is called twice (the sheet, then the shared strings), and must give the same rows both times: the header first.
 * Text cells go to the shared strings (one entry per cell, as Excel does for unique texts), numbers stay in the sheet.
 */
export async function writeXlsx(file: string, rows: () => Iterable<Array<string | number>>): Promise<number> {
  const out = fs.createWriteStream(file);
  let failed: Error | null = null;
  let waiting: Promise<void> | null = null;
  const zip = new Zip((err, chunk, final) => {
    if (err) failed = err;
    else if (!out.write(chunk) && !waiting) waiting = new Promise((resolve) => out.once('drain', () => ((waiting = null), resolve())));
    if (final) out.end();
  });
  const small = (name: string, text: string) => {
    const f = new ZipDeflate(name, { level: 6 });
    zip.add(f);
    f.push(strToU8(text), true);
  };
  small(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${CT}.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="${CT}.sharedStrings+xml"/></Types>`,
  );
  small(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  small(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Farms" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  small(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  );

  const part = async (name: string, head: string, body: () => Iterable<string>, tail: string) => {
    const f = new ZipDeflate(name, { level: 6 });
    zip.add(f);
    f.push(strToU8(head));
    let pending: string[] = [];
    let size = 0;
    for (const piece of body()) {
      pending.push(piece);
      size += piece.length;
      if (size >= 1024 * 1024) {
        f.push(strToU8(pending.join('')));
        pending = [];
        size = 0;
        if (failed) throw failed;
        if (waiting) await waiting;
      }
    }
    f.push(strToU8(`${pending.join('')}${tail}`), true);
    if (waiting) await waiting;
  };
  let strings = 0;
  await part(
    'xl/worksheets/sheet1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${MAIN}"><sheetData>`,
    function* () {
      let r = 0;
      for (const row of rows()) {
        r++;
        yield `<row r="${r}">${row.map((v, c) => (typeof v === 'number' ? `<c r="${colName(c)}${r}"><v>${v}</v></c>` : v === '' ? '' : `<c r="${colName(c)}${r}" t="s"><v>${strings++}</v></c>`)).join('')}</row>`;
      }
    },
    '</sheetData></worksheet>',
  );
  await part(
    'xl/sharedStrings.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="${MAIN}" count="${strings}" uniqueCount="${strings}">`,
    function* () {
      for (const row of rows()) for (const v of row) if (typeof v === 'string' && v !== '') yield `<si><t>${escape(v)}</t></si>`;
    },
    '</sst>',
  );
  zip.end();
  await new Promise<void>((resolve, reject) => {
    out.once('finish', () => resolve());
    out.once('error', reject);
  });
  if (failed) throw failed;
  return fs.statSync(file).size;
}
