// The list envelope of docs/design-rules.md: { count, next, previous, results }, with next/previous as relative URLs, and the one
// way every list counts (issue 15, docs/decisions/0021-counts-pages-and-rollups-of-a-1m-farm-registry.md):
//  1. a page that is not full ends the list: count = offset + rows shown, and no count statement runs;
//  2. else an exact total kept by a rollup (tenant_stats, farmers.farm_count), when the list has one for its filter;
//  3. else a bounded count: exact up to COUNT_EXACT_UP_TO (it reads at most that many rows + 1);
//  4. beyond it, the planner's row estimate, and the answer says so with count_estimated: true ("about N").
// A page starts within the first MAX_LIST_ROWS rows of a list's order (offset < MAX_LIST_ROWS); a deeper page is a 400
// naming `page`, so no request walks more than that many index entries (+ a page) to find its page.
import { sql, type SQL } from 'drizzle-orm';
import { readerOf, type Executor, type Reader } from './client.js';
import { problems } from '../lib/problems.js';

/** Counts are exact up to this many matches (a bounded count reads at most this many rows + 1). */
export const COUNT_EXACT_UP_TO = 10_000;
/** A page starts within this many rows of a list's order: offset < MAX_LIST_ROWS. */
export const MAX_LIST_ROWS = 10_000;

/** A list's total: exact, or (estimated) the planner's figure for a list longer than COUNT_EXACT_UP_TO. */
export type Total = { count: number; estimated: boolean };

/** count_estimated (only when true): `count` is an estimate ("about"); the list holds more than COUNT_EXACT_UP_TO. */
export type Page<T> = { count: number; count_estimated?: true; next: string | null; previous: string | null; results: T[] };

/** The offset of a page, or a 400 naming `page` past the rows a list pages to. */
export function pageOffset(page: number, pageSize: number): number {
  const offset = (page - 1) * pageSize;
  if (offset >= MAX_LIST_ROWS) {
    const last = Math.ceil(MAX_LIST_ROWS / pageSize);
    throw problems.field(
      'page',
      `Pages reach the first ${MAX_LIST_ROWS.toLocaleString('en-US')} rows of a list (page ${last} at page_size ${pageSize}); narrow the list with a search or a filter to see older rows`,
    );
  }
  return offset;
}

export type CountPlan = {
  /** The list's `FROM … WHERE …`: the rows the pages are cut from. */
  from: SQL;
  /** An exact total kept by a rollup for this filter, when the list has one: a scalar SQL expression (no row is read). */
  exact?: SQL | undefined;
  /**
   * For the estimate of a filtered list whose unfiltered total a rollup keeps: that total (a scalar SQL expression) and
   * the unfiltered `FROM … WHERE`. The estimate is then total × (planner rows filtered / planner rows unfiltered), which
   * cancels the planner's guess for the row-level-security condition (an unknown tenant at plan time) that both plans carry.
   */
  base?: { from: SQL; total: SQL } | undefined;
};

/**
 * A page's LIMIT and OFFSET written into the text, not sent as parameters: on PostgreSQL reads are prepared statements
 * (db/client.ts), and a generic plan, which does not know a parameter's value, takes LIMIT $n for a tenth of the rows
 * (100,000 of a million farms), so PostgreSQL kept planning every page afresh. The page sizes are few (1 to 100), and
 * page 1 has no OFFSET, so its text is one per list and size; a deeper page keeps its OFFSET as a parameter (one text).
 */
function window(limit: number, offset: number): SQL {
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new Error(`A page size must be an integer from 1 to 10,000, not ${limit}`);
  return offset === 0 ? sql.raw(`LIMIT ${limit}`) : sql`LIMIT ${sql.raw(String(limit))} OFFSET ${offset}`;
}

/** COUNT_EXACT_UP_TO + 1 in the text: a bounded count (see window). */
const BOUND = sql.raw(String(COUNT_EXACT_UP_TO + 1));

/** The planner's row estimate for `SELECT 1 <from>`. */
async function plannedRows(read: Reader, from: SQL): Promise<number> {
  const [row] = await read<{ 'QUERY PLAN': unknown }>(sql`EXPLAIN (FORMAT JSON) SELECT 1 ${from}`);
  const raw = row?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: { 'Plan Rows': number } }>;
  return plan[0]?.Plan['Plan Rows'] ?? 0;
}

/** Rule 2 or 3 as one scalar SQL expression: the rollup's exact total, else a bounded count (at most COUNT_EXACT_UP_TO + 1). */
function countSql(plan: CountPlan): SQL {
  return plan.exact ?? sql`(SELECT count(*)::int FROM (SELECT 1 ${plan.from} LIMIT ${BOUND}) s)`;
}

/** The total from `counted`, the value of countSql: exact, or past COUNT_EXACT_UP_TO the planner's estimate (rule 4). */
async function settleCount(read: Reader, plan: CountPlan, counted: number, offset: number, shown: number, pageSize: number): Promise<Total> {
  if (plan.exact || counted <= COUNT_EXACT_UP_TO) return { count: counted, estimated: false };
  let estimate = await plannedRows(read, plan.from);
  if (plan.base) {
    const [total] = await read<{ n: number }>(sql`SELECT ${plan.base.total} AS n`);
    const unfiltered = await plannedRows(read, plan.base.from);
    if (unfiltered > 0) estimate = (estimate / unfiltered) * (total?.n ?? 0);
  }
  // More than COUNT_EXACT_UP_TO match (counted), and at least what this page shows, one more when it is full.
  const floor = Math.max(COUNT_EXACT_UP_TO + 1, offset + shown + (shown === pageSize ? 1 : 0));
  return { count: Math.max(floor, Math.round(estimate)), estimated: true };
}

/** The total for a page of `shown` rows at `offset`, by the cheapest of the four ways above that applies. */
export async function countList(run: Executor | Reader, plan: CountPlan, offset: number, shown: number, pageSize: number): Promise<Total> {
  if (shown < pageSize && (shown > 0 || offset === 0)) return { count: offset + shown, estimated: false };
  const read = readerOf(run);
  const [row] = await read<{ n: number }>(sql`SELECT ${countSql(plan)} AS n`);
  return settleCount(read, plan, row?.n ?? 0, offset, shown, pageSize);
}

/** A list's page as one statement (listPage). */
export type ListPlan = {
  /** `SELECT <a>.id, <a>.created_at FROM … WHERE …`: the list's rows. Pages are cut newest first: created_at DESC, id DESC. */
  rows: SQL;
  /**
   * `SELECT … FROM page p JOIN …`: the details of the page's rows, where `page` holds the page's id and created_at. Each
   * row has its `id` and `created_at` (the answer is ordered by them).
   */
  details: SQL;
  count: CountPlan;
  /**
   * A narrow filter (a search on trigram indexes): its matches, at most COUNT_EXACT_UP_TO + 1, are read in one pass,
   * counted, and the newest page kept. When more match than that, or for a page past the end, the page is then cut
   * by the index walk below. (Walking the created_at index instead would probe most of the tenant's rows before a page
   * of a narrow search matched.)
   */
  narrow?: boolean | undefined;
};

type Counted = { list_total: number | null };

function uncounted<T>(rows: Array<T & Counted>): T[] {
  return rows.map(({ list_total: _, ...row }) => row as T);
}

/**
 * One page of a list with its details and, when the count rule needs one, its total, in one statement: the page's ids
 * by the list's index (a CTE), its details joined to them, and the total (the rollup's, or a bounded count) as a column
 * computed only when the page is full. A second statement runs only for a page past the end (its count) or for a list
 * longer than COUNT_EXACT_UP_TO without a rollup (the planner's estimate). With a scopedReader, a page is one round
 * trip with its scope and holds the embedded connection for that statement alone.
 */
export async function listPage<T>(read: Reader, plan: ListPlan, limit: number, offset: number): Promise<{ rows: T[]; total: Total }> {
  if (plan.narrow) {
    const rows = await read<T & Counted>(
      sql`WITH m (id, created_at) AS MATERIALIZED (${plan.rows} LIMIT ${BOUND}),
               page AS MATERIALIZED (SELECT id, created_at, count(*) OVER ()::int AS total FROM m ORDER BY created_at DESC, id DESC ${window(limit, offset)})
          SELECT d.*, (SELECT total FROM page LIMIT 1) AS list_total FROM (${plan.details}) d ORDER BY d.created_at DESC, d.id DESC`,
      // Its plan is the same for any search text (trigram indexes), so planned once per connection: planning this
      // statement cost three times its run for a search that matched ten farms.
      { genericPlan: true },
    );
    const matched = rows[0]?.list_total;
    if (matched !== undefined && matched !== null && matched <= COUNT_EXACT_UP_TO)
      return { rows: uncounted(rows), total: { count: matched, estimated: false } };
    if (rows.length === 0 && offset === 0) return { rows: [], total: { count: 0, estimated: false } };
  }
  const rows = await read<T & Counted>(
    sql`WITH page AS MATERIALIZED (SELECT r.id, r.created_at FROM (${plan.rows}) r ORDER BY r.created_at DESC, r.id DESC ${window(limit, offset)})
        SELECT d.*, CASE WHEN (SELECT count(*) FROM page) = ${sql.raw(String(limit))} THEN ${countSql(plan.count)} END AS list_total
          FROM (${plan.details}) d ORDER BY d.created_at DESC, d.id DESC`,
  );
  const counted = rows[0]?.list_total;
  const total =
    counted !== undefined && counted !== null
      ? await settleCount(read, plan.count, counted, offset, rows.length, limit)
      : await countList(read, plan.count, offset, rows.length, limit);
  return { rows: uncounted(rows), total };
}

/**
 * A page read by cursor (keyset): the envelope with `next` as the same path carrying the next cursor (`after`, and
 * page_size) and `next_after`, or null at the end. `previous` is null: a cursor reads forward. `count` is the list's
 * total (exact, from the caller).
 */
export function cursorPage<T>(results: T[], count: number, nextAfter: number | null, pageSize: number, url: string): Page<T> & { next_after: number | null } {
  let next: string | null = null;
  if (nextAfter !== null) {
    const u = new URL(url, 'http://local');
    u.searchParams.delete('page');
    u.searchParams.set('after', String(nextAfter));
    u.searchParams.set('page_size', String(pageSize));
    next = `${u.pathname}${u.search}`;
  }
  return { count, next, previous: null, results, next_after: nextAfter };
}

export function paginate<T>(results: T[], total: number | Total, page: number, pageSize: number, url: string): Page<T> {
  const { count, estimated } = typeof total === 'number' ? { count: total, estimated: false } : total;
  const link = (p: number) => {
    const u = new URL(url, 'http://local');
    u.searchParams.set('page', String(p));
    u.searchParams.set('page_size', String(pageSize));
    return `${u.pathname}${u.search}`;
  };
  // The next page exists while this one is full, and starts within the rows a list pages to.
  const more = estimated ? results.length === pageSize : page * pageSize < count;
  return {
    count,
    ...(estimated ? { count_estimated: true as const } : {}),
    next: more && page * pageSize < MAX_LIST_ROWS ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results,
  };
}
