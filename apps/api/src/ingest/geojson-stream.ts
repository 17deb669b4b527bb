// Reads a GeoJSON analysis upload in a stream (issue 15 §2): text is pushed in pieces, and each feature of a
// FeatureCollection (or each item of a top-level JSON list) is cut out of the text by a small scanner that only tracks
// strings and brackets, then parsed by JSON.parse and turned into a row by featureOf/featureRow (gis-files.ts),
// exactly as the whole-file reader (readGeoJson) does. So one feature, never the file, is in memory at a time, and
// JSON.parse keeps its exact semantics per feature (escapes, lone surrogates, 1e999 → Infinity, duplicate keys, a
// "__proto__" key). The scanner bounds what it holds: one feature (MAX_FEATURE_CHARS), the nesting depth (MAX_DEPTH,
// so nothing downstream can overflow the stack), and the rows (limits.maxRows: ANALYSIS_MAX_ROWS).
import { featureOf, featureRow, geoJsonProjection, readGeoJson, type Limits } from './gis-files.js';

/** Characters of one feature (or of the top-level members other than "features", together) at most. */
export const MAX_FEATURE_CHARS = 16 * 1024 * 1024;
/** Arrays and objects nested in one another at most, counted from the top of the file. */
export const MAX_DEPTH = 64;

type Row = Record<string, unknown>;

/**
 * Where the scanner is, outside a captured value: expecting the top value (start), in the top-level object (key, colon,
 * value, comma), in an array of features (item: a value or, when first, the end; itemComma), or after the top value.
 */
type State = 'start' | 'key' | 'colon' | 'value' | 'comma' | 'item' | 'itemComma' | 'done';

/** A value being cut out of the text: its pieces so far, and the scan state (depth, inside a string, after a backslash). */
type Capture = { parts: string[]; chars: number; kind: 'compound' | 'string' | 'scalar'; depth: number; inStr: boolean; esc: boolean };

const WS = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const scalarEnd = (c: number) => c === 0x2c || c === 0x5d || c === 0x7d || WS(c); // , ] } or white space

export class GeoJsonRows {
  private state: State = 'start';
  private top: 'object' | 'array' | null = null;
  /** Whether the current container (the top object, or the features array) has no member yet. */
  private first = true;
  private cap: Capture | null = null;
  /** Where the captured value starts in the current piece (0 when it began in an earlier one). */
  private capStart = 0;
  /** The top-level object's members other than a streamed "features" list, as raw JSON text (key, value). */
  private members: Array<[string, string]> = [];
  private memberChars = 0;
  private key = '';
  private keyText = '';
  /** Whether a "features" list was read in a stream (then the object must say it is a FeatureCollection). */
  private streamed = false;
  private inFeatures = false;
  private count = 0;
  /** The transformation the document's "crs" member asks for (read before its features; null: WGS84). */
  private project: ((p: number[]) => number[]) | null = null;
  /** A "crs" member that cannot be used: thrown by end(), after the document's shape is checked. */
  private crsError: Error | null = null;
  /** Characters read before the current piece (for messages). */
  private offset = 0;

  constructor(
    private readonly nameField: string | undefined,
    private readonly limits: Limits,
    private readonly onRow: (row: Row) => void,
  ) {}

  /** Rows read so far. */
  get rows(): number {
    return this.count;
  }

  private unreadable(detail: string): Error {
    return this.limits.fail(400, 'file_unreadable', `The GeoJSON file is not valid JSON (${detail})`);
  }

  private unexpected(s: string, i: number): Error {
    return this.unreadable(`unexpected ${JSON.stringify(s[i])} at character ${this.offset + i + 1}`);
  }

  private tooMany(): Error {
    return this.limits.fail(
      413,
      'too_many_rows',
      `The file has more than ${this.limits.maxRows.toLocaleString('en')} features (one farm each), the most one analysis accepts here; split it into several analyses`,
    );
  }

  private tooLarge(): Error {
    const what = this.inFeatures || this.top === 'array' ? `Feature ${this.count + 1}` : 'The top-level object (apart from its features)';
    return this.limits.fail(
      413,
      'feature_too_large',
      `${what} of the GeoJSON file is larger than ${MAX_FEATURE_CHARS / 1048576} MB of text; simplify or split it`,
    );
  }

  private tooDeep(): Error {
    const where = this.inFeatures || this.top === 'array' ? ` (feature ${this.count + 1})` : '';
    return this.limits.fail(
      400,
      'file_too_complex',
      `The GeoJSON file nests arrays and objects more than ${MAX_DEPTH} deep${where}; a farm's geometry needs 6`,
    );
  }

  /** Depth of the container the captured value sits in (the top value is 1, a feature in the features list 3). */
  private get baseDepth(): number {
    return this.inFeatures ? 2 : this.top === 'array' || this.top === 'object' ? 1 : 0;
  }

  /** Starts cutting a value out at s[i] (not white space). */
  private begin(s: string, i: number): void {
    const c = s.charCodeAt(i);
    const kind = c === 0x7b || c === 0x5b ? 'compound' : c === 0x22 ? 'string' : 'scalar';
    this.cap = { parts: [], chars: 0, kind, depth: 0, inStr: false, esc: false };
  }

  /**
   * Scans the captured value from s[from]; returns the index after its end, or -1 when the piece ends first (what was
   * scanned is kept). The value's first character is at s[from] when the capture has just begun.
   */
  private scan(s: string, from: number): number {
    const cap = this.cap!;
    const n = s.length;
    let i = from;
    if (cap.kind === 'scalar') {
      while (i < n && !scalarEnd(s.charCodeAt(i))) i++;
      if (i < n) return i;
    } else if (cap.kind === 'string') {
      // The opening quote is at s[from] when just begun; depth 1 marks it seen.
      if (cap.depth === 0) {
        cap.depth = 1;
        cap.inStr = true;
        i++;
      }
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (cap.esc) cap.esc = false;
        else if (c === 0x5c) cap.esc = true;
        else if (c === 0x22) return i + 1;
      }
    } else {
      let depth = cap.depth;
      let inStr = cap.inStr;
      let esc = cap.esc;
      const max = MAX_DEPTH - this.baseDepth;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (inStr) {
          if (esc) esc = false;
          else if (c === 0x5c) esc = true;
          else if (c === 0x22) inStr = false;
        } else if (c === 0x22) inStr = true;
        else if (c === 0x7b || c === 0x5b) {
          if (++depth > max) throw this.tooDeep();
        } else if (c === 0x7d || c === 0x5d) {
          if (--depth === 0) {
            cap.depth = 0;
            return i + 1;
          }
        }
      }
      cap.depth = depth;
      cap.inStr = inStr;
      cap.esc = esc;
    }
    return -1;
  }

  /** The captured value's text, from its pieces and s[start, end). */
  private take(s: string, start: number, end: number): string {
    const cap = this.cap!;
    this.cap = null;
    if (cap.chars + (end - start) > MAX_FEATURE_CHARS) throw this.tooLarge();
    return cap.parts.length === 0 ? s.slice(start, end) : cap.parts.join('') + s.slice(start, end);
  }

  /** Parses one value's text (a feature's, a key's or a member's); a syntax error is a 400 naming where. */
  private parse(text: string, what: string): unknown {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw this.unreadable(`${what}: ${err instanceof Error ? err.message.slice(0, 120) : 'unknown error'}`);
    }
  }

  /** One item of the features list (or of a top-level list) → one row, as readGeoJson makes it. */
  private item(text: string): void {
    if (++this.count > this.limits.maxRows) throw this.tooMany();
    const value = this.parse(text, `feature ${this.count}`);
    if (this.crsError) return;
    if (this.top === 'array' && value !== null && typeof value === 'object' && !Array.isArray(value) && (value as Row)['type'] !== 'Feature') {
      // A location as the JSON endpoint takes it: kept as it is (its keys checked like csv headers).
      this.onRow(featureRow(value as Row, null, this.nameField, this.limits));
    } else this.onRow(featureOf(value, this.nameField, this.limits, this.project));
  }

  /** A member of the top-level object other than a streamed features list, kept (bounded) for the end. */
  private member(text: string): void {
    this.memberChars += this.keyText.length + text.length;
    if (this.memberChars > MAX_FEATURE_CHARS) throw this.tooLarge();
    this.members.push([this.keyText, text]);
    if (this.key === 'crs' && this.top === 'object') {
      // A refused "crs" is reported at the end, after the checks of the document's shape (as readGeoJson orders them);
      // no row is handed over meanwhile.
      try {
        const project = geoJsonProjection(this.parse(text, 'the "crs" member'), this.limits);
        // Features already read were read as WGS84: a projected "crs" after them would misplace them, so it is refused.
        if (project && this.count > 0) {
          throw this.limits.fail(
            400,
            'crs_unsupported',
            'The GeoJSON file\'s "crs" member comes after its features; put it before "features" (as GDAL writes it), or export the file in WGS84 (EPSG:4326)',
          );
        }
        this.project = project;
      } catch (err) {
        this.crsError = err instanceof Error ? err : new Error(String(err));
      }
    }
  }

  /** Reads the next piece of the text. */
  push(s: string): void {
    const n = s.length;
    let i = 0;
    while (i < n) {
      if (this.cap) {
        const start = this.capStart;
        const end = this.scan(s, start);
        if (end < 0) {
          const part = s.slice(start);
          this.cap.parts.push(part);
          this.cap.chars += part.length;
          if (this.cap.chars > MAX_FEATURE_CHARS) throw this.tooLarge();
          break;
        }
        const text = this.take(s, start, end);
        i = end;
        this.captured(text);
        continue;
      }
      const c = s.charCodeAt(i);
      if (WS(c)) {
        i++;
        continue;
      }
      switch (this.state) {
        case 'start':
          if (c === 0x7b) {
            this.top = 'object';
            this.state = 'key';
          } else if (c === 0x5b) {
            this.top = 'array';
            this.state = 'item';
          } else throw this.unexpected(s, i);
          this.first = true;
          i++;
          break;
        case 'key':
          if (c === 0x7d && this.first) {
            this.state = 'done';
            i++;
          } else if (c === 0x22) this.startCapture(s, i);
          else throw this.unexpected(s, i);
          break;
        case 'colon':
          if (c !== 0x3a) throw this.unexpected(s, i);
          this.state = 'value';
          i++;
          break;
        case 'value':
          if (this.key === 'features' && c === 0x5b) {
            // The features list, read item by item. A second one (a duplicate key) is refused: JSON.parse would keep
            // the last, and the first has been read already.
            if (this.streamed) throw this.limits.fail(400, 'file_unreadable', 'The GeoJSON file has two "features" lists; keep one');
            this.streamed = true;
            this.inFeatures = true;
            this.state = 'item';
            this.first = true;
            i++;
          } else {
            if (this.key === 'features' && this.streamed)
              throw this.limits.fail(400, 'file_unreadable', 'The GeoJSON file has two "features" members; keep one');
            this.startCapture(s, i);
          }
          break;
        case 'comma':
          if (c === 0x2c) this.state = 'key';
          else if (c === 0x7d) this.state = 'done';
          else throw this.unexpected(s, i);
          this.first = false;
          i++;
          break;
        case 'item':
          if (c === 0x5d && this.first) {
            this.endList();
            i++;
          } else this.startCapture(s, i);
          break;
        case 'itemComma':
          if (c === 0x2c) this.state = 'item';
          else if (c === 0x5d) this.endList();
          else throw this.unexpected(s, i);
          this.first = false;
          i++;
          break;
        case 'done':
          throw this.unexpected(s, i);
      }
    }
    if (this.cap) {
      this.capStart = 0;
    }
    this.offset += n;
  }

  private startCapture(s: string, i: number): void {
    this.begin(s, i);
    this.capStart = i;
  }

  private captured(text: string): void {
    switch (this.state) {
      case 'key': {
        this.keyText = text;
        const key = this.parse(text, 'a key');
        this.key = typeof key === 'string' ? key : '';
        this.state = 'colon';
        break;
      }
      case 'value':
        this.member(text);
        this.state = 'comma';
        break;
      case 'item':
        this.item(text);
        this.state = 'itemComma';
        break;
      default:
        throw this.unreadable('internal state');
    }
  }

  /** The end of the features list (back in the top object) or of the top-level list. */
  private endList(): void {
    if (this.inFeatures) {
      this.inFeatures = false;
      this.state = 'comma';
      this.first = false;
    } else this.state = 'done';
  }

  /** The text has ended: the checks readGeoJson makes on the whole document. */
  end(): void {
    if (this.state !== 'done' || this.cap) throw this.unreadable(`the file ends before its JSON does (truncated?) at character ${this.offset}`);
    if (this.top === 'array') {
      if (this.count === 0) throw this.limits.fail(400, 'file_empty', 'The JSON list is empty');
      return;
    }
    const text = `{${this.members.map(([k, v]) => `${k}:${v}`).join(',')}}`;
    if (!this.streamed) {
      // No features list (a Feature, a geometry, or a collection without a list): small, read as the whole-file reader does.
      for (const row of readGeoJson(text, this.nameField, this.limits)) {
        if (++this.count > this.limits.maxRows) throw this.tooMany();
        this.onRow(row);
      }
      return;
    }
    const doc = this.parse(text, 'the top-level object') as Row;
    if (doc['type'] !== 'FeatureCollection') {
      throw this.limits.fail(400, 'file_unreadable', 'The GeoJSON file has a "features" list but its "type" is not "FeatureCollection"');
    }
    if (this.count === 0) throw this.limits.fail(400, 'file_empty', 'The FeatureCollection has no features');
    if (this.crsError) throw this.crsError;
  }
}
