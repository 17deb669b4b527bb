// A minimal zip writer for hostile-upload tests (zip bombs, wrong types): stored or deflated entries with correct
// central-directory sizes, so the API's checks see exactly what a real archive declares.
import zlib from 'node:zlib';

/** A minimal zip (stored or deflated entries) with correct central-directory sizes. */
export function zip(entries: Array<{ name: string; data: Buffer; deflate?: boolean; deflated?: Buffer; declaredSize?: number }>): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    // deflated: bytes already deflated (e.data unused); declaredSize: the size the headers state (a lie, for bombs).
    const isDeflated = e.deflate === true || e.deflated !== undefined;
    const body = e.deflated ?? (e.deflate ? zlib.deflateRawSync(e.data, { level: 9 }) : e.data);
    const size = e.declaredSize ?? e.data.length;
    const name = Buffer.from(e.name);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(isDeflated ? 8 : 0, 8);
    h.writeUInt32LE(0, 14);
    h.writeUInt32LE(body.length, 18);
    h.writeUInt32LE(size, 22);
    h.writeUInt16LE(name.length, 26);
    local.push(h, name, body);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(isDeflated ? 8 : 0, 10);
    c.writeUInt32LE(body.length, 20);
    c.writeUInt32LE(size, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(offset, 42);
    central.push(c, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, cd, end]);
}

/**
 * A raw deflate stream of `blocks` × 16 MiB of spaces, built without holding them: one 16 MiB block deflated with a
 * full flush (byte-aligned, dictionary reset) is repeated, then an empty final block ends the stream. 120 blocks
 * (1.9 GiB) deflate to about 1.9 MB.
 */
export function deflatedSpaces(blocks: number): Buffer {
  const block = zlib.deflateRawSync(Buffer.alloc(16 * 1024 * 1024, 0x20), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const end = Buffer.from([0x03, 0x00]); // a final, empty, fixed-Huffman block
  return Buffer.concat([...Array.from({ length: blocks }, () => block), end]);
}

/**
 * The forged-size xlsx bomb of issue 33: a real workbook whose sheet inflates to `blocks` × 16 MiB while its zip
 * directory (and local header) declare only twice the compressed size, which passes every check of declared sizes.
 */
export function forgedXlsxBomb(blocks = 120): Buffer {
  const deflated = deflatedSpaces(blocks);
  return zip([
    { name: '[Content_Types].xml', data: Buffer.from('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>') },
    { name: '_rels/.rels', data: Buffer.from('<Relationships><Relationship Id="r" Type="x/officeDocument" Target="xl/workbook.xml"/></Relationships>') },
    { name: 'xl/workbook.xml', data: Buffer.from('<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>') },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from('<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
    },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(0), deflated, declaredSize: deflated.length * 2 },
  ]);
}
