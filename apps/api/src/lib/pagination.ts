// The list envelope of DESIGN.md: { count, next, previous, results }, with next/previous as relative URLs.
export type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] };

export function paginate<T>(results: T[], count: number, page: number, pageSize: number, url: string): Page<T> {
  const link = (p: number) => {
    const u = new URL(url, 'http://local');
    u.searchParams.set('page', String(p));
    u.searchParams.set('page_size', String(pageSize));
    return `${u.pathname}${u.search}`;
  };
  return {
    count,
    next: page * pageSize < count ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results,
  };
}
