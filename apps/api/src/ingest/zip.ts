// The one zip reader of the file readers (xlsx, KMZ, zipped Shapefile). It reads the central directory from the end of
// the archive, refuses hostile entry names and zip64 archives, and inflates members with node's zlib: whole (a KMZ's
// .kml, a Shapefile's parts, the xlsx check before SheetJS) or in a stream (the xlsx stream reader). Every size is
// checked twice: as declared in the directory before anything is inflated, and as actually inflated (a member that lies
// about its size is stopped at what it declared). Errors are made by the caller's `fail`, so this file imports nothing.
import fs from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';

export type ZipFail = (status: number, code: string, message: string) => Error;

/** A member of the archive as its central directory declares it. */
export type ZipMember = { name: string; flags: number; method: number; compressed: number; size: number; offset: number };

/** Most members an archive may hold. */
export const MAX_ZIP_ENTRIES = 2000;
/** Bytes read from a file at a time when a member is inflated in a stream. */
const READ_BYTES = 256 * 1024;
const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Entry names that could escape a folder when unpacked ("../", absolute, drive letters, NUL): hostile, refused. */
export function unsafeEntryName(name: string): boolean {
  return name.includes('\0') || /^[/\\]/.test(name) || /^[A-Za-z]:/.test(name) || name.split(/[/\\]/).some((seg) => seg === '..');
}

/** Whether the bytes start like a zip archive (a local file header). */
export const isZip = (buf: Uint8Array) => buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;

/**
 * The directory's place, from the end-of-central-directory record in `tail` (the archive's last bytes, at most
 * 22 + 65,535 of them); null when there is none.
 */
function endRecord(tail: Uint8Array): { entries: number; dirSize: number; dirOffset: number } | null {
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  for (let i = tail.length - 22; i >= Math.max(0, tail.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === EOCD)
      return { entries: view.getUint16(i + 10, true), dirSize: view.getUint32(i + 12, true), dirOffset: view.getUint32(i + 16, true) };
  }
  return null;
}

/** The options of a directory read: `label` names the file in messages ("The .xlsx file"); check sees each member's sizes. */
export type DirectoryOptions = { label: string; fail: ZipFail; check?: (compressed: number, size: number) => void };

/** The central directory's bytes → its members, checked entry by entry. */
function members(dir: Uint8Array, entries: number, opts: DirectoryOptions): ZipMember[] {
  const { label, fail } = opts;
  const view = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
  const out: ZipMember[] = [];
  let p = 0;
  for (let e = 0; e < entries; e++) {
    if (p + 46 > dir.length || view.getUint32(p, true) !== CENTRAL) throw fail(400, 'file_unreadable', `${label} is damaged (bad zip directory)`);
    const compressed = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    if (compressed === 0xffffffff || size === 0xffffffff) throw fail(413, 'file_too_complex', `${label} is too large once unpacked`);
    opts.check?.(compressed, size);
    if (p + 46 + nameLength > dir.length) throw fail(400, 'file_unreadable', `${label} is damaged (bad zip directory)`);
    const name = new TextDecoder('utf-8').decode(dir.subarray(p + 46, p + 46 + nameLength));
    if (unsafeEntryName(name))
      throw fail(400, 'file_unsafe', `${label} holds an entry named ${JSON.stringify(name.slice(0, 80))}, which points outside the archive; it was refused`);
    out.push({ name, flags: view.getUint16(p + 8, true), method: view.getUint16(p + 10, true), compressed, size, offset: view.getUint32(p + 42, true) });
    p += 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
  }
  return out;
}

function directoryPlace(tail: Uint8Array, size: number, opts: DirectoryOptions): { entries: number; dirSize: number; dirOffset: number } {
  const { label, fail } = opts;
  const end = endRecord(tail);
  if (!end) throw fail(400, 'file_unreadable', `${label} is damaged (no zip directory)`);
  if (end.entries > MAX_ZIP_ENTRIES) throw fail(413, 'file_too_complex', `${label} has too many parts`);
  if (end.dirOffset === 0xffffffff || end.dirSize === 0xffffffff) throw fail(413, 'file_too_complex', `${label} is too large once unpacked`);
  if (end.dirOffset + end.dirSize > size) throw fail(400, 'file_unreadable', `${label} is damaged (bad zip directory)`);
  return end;
}

/** The members of an archive held in memory (nothing is inflated). */
export function zipDirectory(buf: Uint8Array, opts: DirectoryOptions): ZipMember[] {
  const { entries, dirSize, dirOffset } = directoryPlace(buf.subarray(Math.max(0, buf.length - 22 - 65_535)), buf.length, opts);
  return members(buf.subarray(dirOffset, dirOffset + dirSize), entries, opts);
}

/** Where a member's compressed bytes start, from its local header; null when the header is not where the directory says. */
function dataStart(local: Uint8Array): number | null {
  if (local.length < 30) return null;
  const view = new DataView(local.buffer, local.byteOffset, local.byteLength);
  if (view.getUint32(0, true) !== LOCAL) return null;
  return 30 + view.getUint16(26, true) + view.getUint16(28, true);
}

/**
 * A member of an archive in memory, inflated whole with its declared size as the most output allowed (so a member that
 * lies about its size is refused holding at most what it declared). Stored members are returned as they are.
 */
export function inflateMember(buf: Uint8Array, m: ZipMember, opts: { label: string; fail: ZipFail }): Uint8Array {
  const { label, fail } = opts;
  const start = dataStart(buf.subarray(m.offset, m.offset + 30));
  if (start === null) throw fail(400, 'file_unreadable', `${label} is damaged (bad zip entry ${m.name.slice(0, 80)})`);
  const data = buf.subarray(m.offset + start, Math.min(buf.length, m.offset + start + m.compressed));
  if (m.flags & 1) throw fail(400, 'file_unreadable', `${label} is encrypted; save it without a password and upload it again`);
  if (m.method === 0) return data;
  if (m.method !== 8) throw fail(400, 'file_unreadable', `${label} uses a compression this reader does not know (method ${m.method})`);
  try {
    return zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, m.size) });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw fail(400, 'file_unreadable', `${label} is damaged (${m.name.slice(0, 80)} is longer than its zip directory says)`);
    throw fail(400, 'file_unreadable', `${label} is damaged (${err instanceof Error ? err.message.slice(0, 80) : 'cannot unpack'})`);
  }
}

/** The named members of an archive in memory, inflated (the directory was checked against the caps already). */
export function inflateMembers(
  buf: Uint8Array,
  all: readonly ZipMember[],
  names: readonly string[],
  opts: { label: string; fail: ZipFail },
): Record<string, Uint8Array> {
  const wanted = new Set(names);
  const out: Record<string, Uint8Array> = {};
  for (const m of all) if (wanted.has(m.name)) out[m.name] = inflateMember(buf, m, opts);
  return out;
}

// ---------- read in a stream ----------

/**
 * Where an archive's bytes are read from when it is read in a stream: a file on disk (analysis files) or bytes in memory
 * (the bulk uploads' files of at most a few MB); either way the members are inflated in a stream with the same caps.
 */
export type ZipSource = {
  size: number;
  read(target: Buffer, length: number, position: number): Promise<number>;
  /** Bytes start..end (inclusive) in pieces of READ_BYTES; bytesRead counts what was handed on so far. */
  range(start: number, end: number): Readable & { bytesRead: number };
  close(): Promise<void>;
};

export async function fileSource(path: string): Promise<ZipSource> {
  const size = (await fs.promises.stat(path)).size;
  const fh = await fs.promises.open(path, 'r');
  return {
    size,
    read: async (target, length, position) => (await fh.read(target, 0, length, position)).bytesRead,
    range: (start, end) => fs.createReadStream(path, { start, end, highWaterMark: READ_BYTES }),
    close: () => fh.close(),
  };
}

/** Bytes in memory, handed on in pieces of READ_BYTES (a pull stream, so inflating is held back as from a file). */
class SliceStream extends Readable {
  bytesRead = 0;
  constructor(
    private readonly bytes: Buffer,
    private at: number,
    private readonly end: number,
  ) {
    super();
  }
  override _read(): void {
    if (this.at > this.end) {
      this.push(null);
      return;
    }
    const piece = this.bytes.subarray(this.at, Math.min(this.end + 1, this.at + READ_BYTES));
    this.at += piece.length;
    this.bytesRead += piece.length;
    this.push(piece);
  }
}

export function bytesSource(data: Uint8Array): ZipSource {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return {
    size: bytes.length,
    read: async (target, length, position) => bytes.copy(target, 0, position, Math.min(bytes.length, position + length)),
    range: (start, end) => new SliceStream(bytes, start, Math.min(end, bytes.length - 1)),
    close: async () => undefined,
  };
}

/** The members of an archive read from a source: its last bytes, then its directory (nothing is inflated). */
export async function readZipDirectory(src: ZipSource, opts: DirectoryOptions): Promise<ZipMember[]> {
  const tailLength = Math.min(src.size, 22 + 65_535);
  const tail = Buffer.alloc(tailLength);
  await src.read(tail, tailLength, src.size - tailLength);
  const { entries, dirSize, dirOffset } = directoryPlace(tail, src.size, opts);
  const dir = Buffer.alloc(dirSize);
  await src.read(dir, dirSize, dirOffset);
  return members(dir, entries, opts);
}

/**
 * A member's bytes, inflated as they are read (node's zlib), in pieces. The declared sizes are checked first (cap; the
 * inflate ratio beyond 1 MB); then the actual output is counted against the declared size and against the inflate ratio
 * of the input read so far (zip-bomb guard: a member that lies about its size is stopped as it grows), and a damaged
 * stream is a 400.
 */
export async function* streamMember(
  src: ZipSource,
  m: ZipMember,
  opts: { label: string; fail: ZipFail; cap: number; maxInflateRatio: number },
): AsyncGenerator<Buffer> {
  const { label, fail, cap, maxInflateRatio } = opts;
  if (m.flags & 1) throw fail(400, 'file_unreadable', `${label} is encrypted; save it without a password and upload it again`);
  if (m.method !== 0 && m.method !== 8)
    throw fail(400, 'file_unreadable', `${label} uses a compression this reader does not know (method ${m.method}); save it again with Excel`);
  if (m.size > cap)
    throw fail(413, 'file_too_complex', `${label}'s ${m.name} unpacks to more than ${Math.round(cap / 1048576)} MB; split the list into several files`);
  if (m.size > 1024 * 1024 && m.size / Math.max(1, m.compressed) > maxInflateRatio)
    throw fail(413, 'file_too_complex', `${label} unpacks to far more data than a farm list holds (a zip bomb?)`);
  const local = Buffer.alloc(30);
  const bytesRead = await src.read(local, 30, m.offset);
  const head = dataStart(local.subarray(0, bytesRead));
  if (head === null) throw fail(400, 'file_unreadable', `${label} is damaged (bad zip entry ${m.name})`);
  const start = m.offset + head;
  if (m.compressed === 0) return;
  const source = src.range(start, start + m.compressed - 1);
  const bytes: NodeJS.ReadableStream & { destroy(): void } =
    m.method === 8 ? pipeline(source, zlib.createInflateRaw({ chunkSize: 64 * 1024 }), () => undefined) : source;
  let out = 0;
  try {
    for await (const piece of bytes as AsyncIterable<Buffer>) {
      out += piece.length;
      if (out > m.size) throw fail(400, 'file_unreadable', `${label} is damaged (${m.name} is longer than its zip directory says)`);
      if (out > 1024 * 1024 && out / Math.max(1, source.bytesRead) > maxInflateRatio)
        throw fail(413, 'file_too_complex', `${label} unpacks to far more data than a farm list holds (a zip bomb?)`);
      yield piece;
    }
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('Z_')) throw fail(400, 'file_unreadable', `${label} is damaged (${m.name} cannot be unpacked)`);
    throw err;
  } finally {
    source.destroy();
    if (bytes !== source) bytes.destroy();
  }
}
