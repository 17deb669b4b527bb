// The list envelope of DESIGN.md: { count, next, previous, results }, with next/previous as relative URLs.
// count_capped (only when true): the list stopped counting at `count`; there are at least that many (farmers' list).
export type Page<T> = { count: number; count_capped?: true; next: string | null; previous: string | null; results: T[] };

export function paginate<T>(results: T[], count: number, page: number, pageSize: number, url: string, capped = false): Page<T> {
  const link = (p: number) => {
    const u = new URL(url, 'http://local');
    u.searchParams.set('page', String(p));
    u.searchParams.set('page_size', String(pageSize));
    return `${u.pathname}${u.search}`;
  };
  return {
    count,
    ...(capped ? { count_capped: true as const } : {}),
    next: page * pageSize < count || (capped && results.length === pageSize) ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results,
  };
}
