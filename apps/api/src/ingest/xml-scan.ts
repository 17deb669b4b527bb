// The small XML reader the xlsx stream reader scans with: entities and OOXML escapes as SheetJS reads them, attributes
// and elements of a tag's text, and a scanner that is fed text in pieces and hands on each element it is asked for
// (no DOM; what it holds is bounded by MAX_TAG_CHARS).

/** Most characters of one tag, or of the text of one element, kept while scanning (beyond: the file is refused). */
const MAX_TAG_CHARS = 64 * 1024;

const ENTITY = /&(?:quot|apos|gt|lt|amp|#x?([\da-fA-F]+));/gi;
const NAMED: Record<string, string> = { '&quot;': '"', '&apos;': "'", '&gt;': '>', '&lt;': '<', '&amp;': '&' };
const CODE = /_x([\da-fA-F]{4})_/gi;

/**
 * XML text → value, as SheetJS's reader does it: entities, then the OOXML escapes of control characters (_xHHHH_), then
 * (strings) CRLF → LF.
 */
export function unescapeXml(text: string, crlf: boolean): string {
  let s = text;
  if (s.includes('&')) {
    s = s.replace(ENTITY, (all, code: string | undefined) => {
      const named = NAMED[all.toLowerCase()];
      if (named) return named;
      const n = parseInt(code ?? '', /^&#x/i.test(all) ? 16 : 10);
      return Number.isFinite(n) && n <= 0x10ffff ? String.fromCodePoint(n) : all;
    });
  }
  if (s.includes('_x') || s.includes('_X')) s = s.replace(CODE, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return crlf && s.includes('\r\n') ? s.replace(/\r\n/g, '\n') : s;
}

const attrPatterns = new Map<string, RegExp>();

/** The value of an attribute in a tag's text (namespace prefixes of attribute names ignored), or undefined. */
export function attr(tag: string, name: string): string | undefined {
  let re = attrPatterns.get(name);
  if (!re) {
    re = new RegExp(`(?:^|\\s)(?:[\\w.-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    attrPatterns.set(name, re);
  }
  const m = re.exec(tag);
  return m ? unescapeXml(m[1] ?? m[2] ?? '', false) : undefined;
}

/** Every element with the local name in small XML text, with its attributes' text. */
export function elements(xml: string, local: string): string[] {
  const re = new RegExp(`<(?:[\\w.-]+:)?${local}\\b([^>]*)>`, 'g');
  return Array.from(xml.matchAll(re), (m) => m[1] ?? '');
}

/**
 * A streaming XML tokenizer for the two large parts: text in, tags and text out (to a handler), no tree. Comments and
 * processing instructions are skipped, CDATA is text; a tag or a kept text longer than MAX_TAG_CHARS, a DTD, or text
 * that ends inside a tag is refused.
 */
export class XmlScanner {
  private buf = '';
  constructor(
    private readonly h: {
      open(name: string, tag: string, selfClosing: boolean): void;
      close(name: string): void;
      /** Whether text is wanted now (inside a value); only then is text passed on. */
      wantsText(): boolean;
      text(raw: string): void;
    },
    private readonly fail: (message: string) => Error,
  ) {}

  push(piece: string): void {
    const buf = this.buf.length > 0 ? this.buf + piece : piece;
    const n = buf.length;
    let pos = 0;
    const h = this.h;
    for (;;) {
      const lt = buf.indexOf('<', pos);
      if (lt < 0) {
        if (pos < n && h.wantsText()) h.text(buf.slice(pos));
        pos = n;
        break;
      }
      if (lt > pos && h.wantsText()) h.text(buf.slice(pos, lt));
      const c1 = buf.charCodeAt(lt + 1);
      if (c1 === 0x21 /* ! */) {
        if (buf.startsWith('<!--', lt)) {
          const end = buf.indexOf('-->', lt + 4);
          if (end < 0) return this.keep(buf, lt);
          pos = end + 3;
          continue;
        }
        if (buf.startsWith('<![CDATA[', lt)) {
          const end = buf.indexOf(']]>', lt + 9);
          if (end < 0) return this.keep(buf, lt);
          // Kept as escaped text, so that the value's unescaping gives it back as it was.
          if (h.wantsText())
            h.text(
              buf
                .slice(lt + 9, end)
                .replace(/&/g, '&amp;')
                .replace(/</g, '&lt;'),
            );
          pos = end + 3;
          continue;
        }
        if (n - lt < 9) return this.keep(buf, lt);
        throw this.fail('declares a document type, which a workbook never does');
      }
      if (c1 === 0x3f /* ? */) {
        const end = buf.indexOf('?>', lt + 2);
        if (end < 0) return this.keep(buf, lt);
        pos = end + 2;
        continue;
      }
      const gt = tagEnd(buf, lt + 1);
      if (gt < 0) return this.keep(buf, lt);
      if (c1 === 0x2f /* / */) {
        h.close(localName(buf, lt + 2, gt));
      } else {
        const selfClosing = buf.charCodeAt(gt - 1) === 0x2f;
        const tag = buf.slice(lt + 1, selfClosing ? gt - 1 : gt);
        h.open(localName(tag, 0, tag.length), tag, selfClosing);
        if (selfClosing) h.close(localName(tag, 0, tag.length));
      }
      pos = gt + 1;
    }
    this.buf = '';
  }

  /** Keeps the unfinished tag at `from` for the next piece. */
  private keep(buf: string, from: number): void {
    this.buf = buf.slice(from);
    if (this.buf.length > MAX_TAG_CHARS) throw this.fail('holds a tag that never ends');
  }

  end(): void {
    if (this.buf.length > 0) throw this.fail('ends in the middle of a tag');
  }
}

/** The index of the '>' that ends the tag starting before `from` (quotes respected), or -1 when it is not in buf yet. */
function tagEnd(buf: string, from: number): number {
  const gt = buf.indexOf('>', from);
  if (gt < 0) return -1;
  // Fast path: no quote before that '>' (closing tags, <v>, most tags' short attributes). Only the tag is looked at: a
  // search for a quote that a document never holds would run to the end of the text at every tag.
  let i = from;
  while (i < gt) {
    const c = buf.charCodeAt(i);
    if (c === 0x22 || c === 0x27) break;
    i++;
  }
  if (i === gt) return gt;
  let quote = 0;
  for (; i < buf.length; i++) {
    const c = buf.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return i;
  }
  return -1;
}

/** The local name of a tag (its namespace prefix dropped) from `from` to the first space, '/' or '>'. */
function localName(s: string, from: number, to: number): string {
  let end = from;
  while (end < to) {
    const c = s.charCodeAt(end);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2f || c === 0x3e) break;
    end++;
  }
  // The prefix ends at a ':' within the name (looked for there only: s may be the whole text read so far).
  let start = from;
  for (let i = end - 1; i >= from; i--) {
    if (s.charCodeAt(i) === 0x3a) {
      start = i + 1;
      break;
    }
  }
  return s.slice(start, end);
}

/** Inflated bytes → UTF-8 text pieces → the scanner. */
export async function scan(bytes: AsyncIterable<Buffer>, scanner: XmlScanner, after?: () => Promise<void>): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  let first = true;
  for await (const piece of bytes) {
    let text = decoder.decode(piece, { stream: true });
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    scanner.push(text);
    if (after) await after();
  }
  scanner.push(decoder.decode());
  scanner.end();
}
