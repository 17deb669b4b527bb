// The list envelope of DESIGN.md: { count, next, previous, results }, with next/previous as relative URLs, and the one
// way every list counts (issue 15, docs/decisions.md "Counts and pages of a 1M-farm registry"):
//  1. a page that is not full ends the list: count = offset + rows shown, and no count statement runs;
//  2. else an exact total kept by a rollup (tenant_stats, farmers.farm_count), when the list has one for its filter;
//  3. else a bounded count: exact up to COUNT_EXACT_UP_TO (it reads at most that many rows + 1);
//  4. beyond it, the planner's row estimate, and the answer says so with count_estimated: true ("about N").
// A page starts within the first MAX_LIST_ROWS rows of a list's order (offset < MAX_LIST_ROWS); a deeper page is a 400
// naming `page`, so no request walks more than that many index entries (+ a page) to find its page.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.js';
import { problems } from './problems.js';

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
  /** An exact total kept by a rollup for this filter, when the list has one (no row is read). */
  exact?: (() => Promise<number>) | undefined;
  /**
   * For the estimate of a filtered list whose unfiltered total a rollup keeps: that total and the unfiltered
   * `FROM … WHERE`. The estimate is then total × (planner rows filtered / planner rows unfiltered), which cancels the
   * planner's guess for the row-level-security condition (an unknown tenant at plan time) that both plans carry.
   */
  base?: { from: SQL; total: () => Promise<number> } | undefined;
};

/** The planner's row estimate for `SELECT 1 <from>`. */
async function plannedRows(tx: Executor, from: SQL): Promise<number> {
  const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(tx, sql`EXPLAIN (FORMAT JSON) SELECT 1 ${from}`);
  const raw = row?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: { 'Plan Rows': number } }>;
  return plan[0]?.Plan['Plan Rows'] ?? 0;
}

/** The total for a page of `shown` rows at `offset`, by the cheapest of the four ways above that applies. */
export async function countList(tx: Executor, plan: CountPlan, offset: number, shown: number, pageSize: number): Promise<Total> {
  if (shown < pageSize && (shown > 0 || offset === 0)) return { count: offset + shown, estimated: false };
  if (plan.exact) return { count: await plan.exact(), estimated: false };
  const [bounded] = await queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM (SELECT 1 ${plan.from} LIMIT ${COUNT_EXACT_UP_TO + 1}) s`);
  const n = bounded?.n ?? 0;
  if (n <= COUNT_EXACT_UP_TO) return { count: n, estimated: false };
  let estimate = await plannedRows(tx, plan.from);
  if (plan.base) {
    const [total, unfiltered] = [await plan.base.total(), await plannedRows(tx, plan.base.from)];
    if (unfiltered > 0) estimate = (estimate / unfiltered) * total;
  }
  // More than COUNT_EXACT_UP_TO match (counted), and at least what this page shows, one more when it is full.
  const floor = Math.max(COUNT_EXACT_UP_TO + 1, offset + shown + (shown === pageSize ? 1 : 0));
  return { count: Math.max(floor, Math.round(estimate)), estimated: true };
}

/**
 * A narrow filter (a search on trigram indexes): its matches, at most COUNT_EXACT_UP_TO + 1, are read in one pass,
 * counted, and the newest page kept: page and exact count in one statement. `matches` is `SELECT <id>, <created_at>
 * FROM … WHERE …`. Null when more match than that, or for a page past the end: the caller then pages by its index walk
 * and counts with countList. (Walking the created_at index instead would probe most of the tenant's rows before a
 * page of a narrow search matched.)
 */
export async function matchesPage(tx: Executor, matches: SQL, limit: number, offset: number): Promise<{ ids: string[]; total: Total } | null> {
  const found = await queryRows<{ id: string; total: number }>(
    tx,
    sql`WITH m (id, created_at) AS MATERIALIZED (${matches} LIMIT ${COUNT_EXACT_UP_TO + 1})
        SELECT id, count(*) OVER ()::int AS total FROM m ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  if (found.length > 0 && found[0]!.total <= COUNT_EXACT_UP_TO) return { ids: found.map((r) => r.id), total: { count: found[0]!.total, estimated: false } };
  if (found.length === 0 && offset === 0) return { ids: [], total: { count: 0, estimated: false } };
  return null;
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
