// Contains-searches on trigram indexes that stay fast when a search holds a word most rows hold (issue 15 §1).
//
// A search "farm 12345" is `name ILIKE '%farm 12345%'`, and pg_trgm's GIN index answers it by intersecting the posting
// lists of all its trigrams. "far", "arm" and "rm " are in every "… farm N" of a million names, and GIN decodes most of
// those lists to intersect them (14 ms, 1,124 index pages), against 0.5 ms (21 pages) for '%12345%' alone. So a word
// that is common in the column is left out of the index condition, and the whole text is checked on the candidates:
//
//   name ILIKE '%12345%' AND (name || '') ILIKE '%farm 12345%'
//
// (`|| ''` keeps the second condition out of the index scan; without it PostgreSQL would put both in the index
// condition, all trigrams again). The answer is the same: every word kept is a substring of the search, so every row
// the search matches holds it. Which words are common comes from a sample of the column across all tenants, since the
// GIN index holds every tenant's rows: read in the system scope, at most every SAMPLE_TTL_MS per process, kept in
// memory as text and never returned. A word is left out only when another word of the search is rare in the sample, so
// the candidates stay few; otherwise the search is the plain pattern, as before.
import { sql, type SQL } from 'drizzle-orm';
import { scopedRows, type Db } from './client.js';
import { containsPattern } from './like.js';

/** The searched columns, by table: the ones with a trigram index (migration 0014). */
const COLUMNS = {
  farms: ['name'],
  farmers: ['full_name', 'folio_id', 'phone_number', 'email'],
} as const;
type Table = keyof typeof COLUMNS;
export type SearchColumn = { [T in Table]: `${T}.${(typeof COLUMNS)[T][number]}` }[Table];

/** A search's text, and per column the words its index condition uses (absent: the plain pattern). */
export type SearchTerms = { text: string; indexWords?: Partial<Record<SearchColumn, string[]>> };

/** How many rows a sample aims at, and how long a process keeps one. */
export const SAMPLE_ROWS = 2000;
export const SAMPLE_TTL_MS = 10 * 60_000;
/** A word held by at least this share of a column's sample is common: it is left to the recheck. */
export const COMMON_SHARE = 0.1;
/** A search is narrowed only when one of its words is held by at most this share of the sample (the candidates stay few). */
export const RARE_SHARE = 0.005;
/** How many words' shares a column's sample remembers. */
const MEMO_WORDS = 5000;
/** Below this many sampled rows a column is small: its searches use the plain pattern. */
const MIN_SAMPLE = 200;

/**
 * The words of a search that an index condition can use: runs of letters and digits, as pg_trgm splits words, of at
 * least 3 characters (a shorter one gives a `%…%` pattern no trigram), once each, as typed (ILIKE folds case).
 */
export function searchWords(text: string): string[] {
  const words = new Map<string, string>();
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    if ([...w].length >= 3 && !words.has(w.toLowerCase())) words.set(w.toLowerCase(), w);
  }
  return [...words.values()];
}

/**
 * Which words of `text` an index condition on a column should use, given a sample of the column's values (lower
 * case): null for the plain pattern (a small sample, no common word, or no rare word to stand in for the common ones).
 */
export function narrowWords(text: string, sample: readonly string[], memo?: Map<string, number>): string[] | null {
  if (sample.length < MIN_SAMPLE) return null;
  const words = searchWords(text);
  const share = (w: string) => {
    const lw = w.toLowerCase();
    const known = memo?.get(lw);
    if (known !== undefined) return known;
    let n = 0;
    for (const v of sample) if (v.includes(lw)) n++;
    // A word's share is kept with the sample (at most MEMO_WORDS words): a repeated search costs no scan.
    if (memo) {
      if (memo.size >= MEMO_WORDS) memo.clear();
      memo.set(lw, n / sample.length);
    }
    return n / sample.length;
  };
  const shares = words.map((w) => ({ w, s: share(w) }));
  const kept = shares.filter((x) => x.s < COMMON_SHARE);
  if (kept.length === shares.length || kept.length === 0) return null;
  if (Math.min(...kept.map((x) => x.s)) > RARE_SHARE) return null;
  return kept.map((x) => x.w);
}

/**
 * A row matches the search on this column: the plain pattern (text, or terms without words for it), or (narrowed) each
 * kept word on the index and the whole text checked on the candidates.
 */
export function matchesSearch(col: SQL, column: SearchColumn, search: string | SearchTerms): SQL {
  const s = typeof search === 'string' ? { text: search } : search;
  const full = containsPattern(s.text);
  const words = s.indexWords?.[column];
  if (!words || words.length === 0) return sql`${col} ILIKE ${full}`;
  return sql`(${sql.join(
    words.map((w) => sql`${col} ILIKE ${containsPattern(w)}`),
    sql` AND `,
  )} AND (${col} || '') ILIKE ${full})`;
}

type Sample = { at: number; values: Map<string, string[]>; shares: Map<string, Map<string, number>> };
type Cache = Map<Table, { sample?: Sample; loading?: Promise<Sample> }>;
const caches = new WeakMap<Db, Cache>();

/**
 * The table's rows now, as the planner reckons them: its current pages at the density ANALYZE last saw (50 rows a page
 * before any ANALYZE). reltuples alone can be far behind a table that grew since.
 */
const tableRows = sql.raw(
  `(pg_relation_size(c.oid) / current_setting('block_size')::float8) * CASE WHEN c.relpages > 0 AND c.reltuples > 0 THEN c.reltuples / c.relpages ELSE 50 END`,
);

/** A sample of a table's searched columns across all tenants (system scope): about SAMPLE_ROWS rows, block-sampled. */
async function readSample(db: Db, table: Table): Promise<Sample> {
  const cols = COLUMNS[table];
  const rows = await scopedRows<Record<string, string | null>>(
    db,
    { kind: 'system' },
    sql`SELECT ${sql.raw(cols.join(', '))} FROM ${sql.raw(table)}
          TABLESAMPLE SYSTEM ((SELECT least(100, 100.0 * ${SAMPLE_ROWS} / greatest(1, ${tableRows}))::real FROM pg_class c WHERE c.oid = ${table}::regclass))
         LIMIT ${SAMPLE_ROWS * 3}`,
  );
  const values = new Map<string, string[]>();
  const shares = new Map<string, Map<string, number>>();
  for (const c of cols) {
    values.set(
      c,
      rows.flatMap((r) => (r[c] ? [r[c].toLowerCase()] : [])),
    );
    shares.set(c, new Map());
  }
  return { at: Date.now(), values, shares };
}

/** Forgets the samples read for db: the next search reads them afresh (tests that change a table's words). */
export function forgetSearchSamples(db: Db): void {
  caches.delete(db);
}

async function sampleOf(db: Db, table: Table): Promise<Sample> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let entry = cache.get(table);
  if (!entry) cache.set(table, (entry = {}));
  const fresh = entry.sample && Date.now() - entry.sample.at < SAMPLE_TTL_MS;
  if (fresh) return entry.sample!;
  let loading = entry.loading;
  if (!loading) {
    const e = entry;
    loading = e.loading = readSample(db, table).then(
      (s) => {
        e.sample = s;
        e.loading = undefined;
        return s;
      },
      (err: unknown) => {
        e.loading = undefined;
        throw err;
      },
    );
  }
  // A stale sample answers while the next one is read; the first search of a table waits for it.
  return entry.sample ?? loading;
}

/**
 * The terms of a search over the given columns: for each column where a common word can be left to the recheck, the
 * words its index condition uses. A sample that cannot be read leaves every column on the plain pattern.
 */
export async function searchTerms(db: Db, text: string, columns: readonly SearchColumn[]): Promise<SearchTerms> {
  if (searchWords(text).length < 2) return { text };
  const indexWords: Partial<Record<SearchColumn, string[]>> = {};
  for (const column of columns) {
    const [table, col] = column.split('.') as [Table, string];
    let sample: Sample;
    try {
      sample = await sampleOf(db, table);
    } catch {
      return { text };
    }
    const words = narrowWords(text, sample.values.get(col) ?? [], sample.shares.get(col));
    if (words) indexWords[column] = words;
  }
  return { text, indexWords };
}
