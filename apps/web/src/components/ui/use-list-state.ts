// The state of a list screen, kept in the address: the search, the page, the page size, the filters and the open drawer.
// A reload, a shared link or Back shows the same list. Values at their default are left out of the address, so a list
// opened from the sidebar has a clean path (/admin/agents). Several lists on one page stay apart with a prefix
// (the tenant's agents drawer uses `agents_`). Decided in docs/decisions/0067-console-list-state-and-query-keys.md.
import { useCallback, useMemo } from 'react';
import { useUrlParams } from '../../lib/use-url-params';
import { countFilters, type FilterValues } from './filter-modal';

export type ListStateOptions = {
  /** The list's page size when the address names none. */
  defaultPageSize: number;
  /** The names of the filters the list offers; other parameters of the address are left alone. */
  filters?: readonly string[];
  /** The filters written as a date range (two days, `from,to` in the address). */
  rangeFilters?: readonly string[];
  /** The parameter naming the open drawer's record (`agent`, `farmer_id`...). */
  drawer?: string;
  /** Further parameters the drawer owns, cleared with it (a farmer drawer's `view`, `farm_id`...). */
  drawerParams?: readonly string[];
  /** Put before every parameter name, for a second list on the same page. */
  prefix?: string;
};

export type ListState = {
  search: string;
  page: number;
  pageSize: number;
  filters: FilterValues;
  /** How many filters apply (the Filter button's count). */
  activeFilters: number;
  /** The search and the filters as the API's query parameters, empty values left out (also the export's filters). */
  query: Record<string, string>;
  /** True when a search or a filter narrows the list. */
  narrowed: boolean;
  drawer: string | null;
  setSearch: (search: string) => void;
  setPage: (page: number, pageSize?: number) => void;
  setFilters: (filters: FilterValues) => void;
  /** Opens the drawer on a record (a new history entry, so Back closes it); `extra` sets the drawer's own parameters. */
  openDrawer: (id: string, extra?: Record<string, string>) => void;
  closeDrawer: () => void;
  /** Changes the drawer's own parameters in place (no new history entry). */
  setDrawerParams: (values: Record<string, string | null>) => void;
  /** The props ListPage takes from the state. */
  listProps: {
    search: string;
    onSearch: (search: string) => void;
    page: number;
    pageSize: number;
    onPageChange: (page: number, pageSize: number) => void;
    activeFilters: number;
  };
};

const positive = (value: string | null, fallback: number): number => {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Reads a list's state from an address's parameters (exported for tests and for links that open a list). */
export function readListState(params: URLSearchParams, options: ListStateOptions) {
  const p = options.prefix ?? '';
  const filters: FilterValues = {};
  for (const name of options.filters ?? []) {
    const raw = params.get(p + name);
    if (!raw) continue;
    if (options.rangeFilters?.includes(name)) {
      const [from, to] = raw.split(',');
      if (from && to) filters[name] = [from, to];
    } else filters[name] = raw;
  }
  return {
    search: params.get(p + 'search') ?? '',
    page: positive(params.get(p + 'page'), 1),
    pageSize: positive(params.get(p + 'page_size'), options.defaultPageSize),
    filters,
    drawer: options.drawer ? params.get(p + options.drawer) : null,
  };
}

/** The search and filters as query parameters: date ranges become `{name}_after` and `{name}_before`. */
export function listQuery(search: string, filters: FilterValues): Record<string, string> {
  const q: Record<string, string> = {};
  if (search) q['search'] = search;
  for (const [name, value] of Object.entries(filters)) {
    if (typeof value === 'string') {
      if (value) q[name] = value;
    } else if (value && value.length === 2) {
      q[`${name}_after`] = value[0];
      q[`${name}_before`] = value[1];
    }
  }
  return q;
}

export function useListState(options: ListStateOptions): ListState {
  const [params, setParams] = useUrlParams();
  const { defaultPageSize, prefix = '', drawer: drawerName } = options;
  const filterNames = options.filters ?? [];
  const rangeNames = options.rangeFilters ?? [];
  const drawerParams = options.drawerParams ?? [];
  // The option arrays are usually written inline: their contents, not their identity, decide when callbacks change.
  const filterKey = filterNames.join('|');
  const rangeKey = rangeNames.join('|');
  const drawerKey = drawerParams.join('|');

  const state = useMemo(
    () =>
      readListState(params, {
        defaultPageSize,
        prefix,
        drawer: drawerName,
        filters: filterKey ? filterKey.split('|') : [],
        rangeFilters: rangeKey ? rangeKey.split('|') : [],
      }),
    [params, defaultPageSize, prefix, drawerName, filterKey, rangeKey],
  );

  const update = useCallback(
    (change: (next: URLSearchParams) => void, push = false) =>
      setParams(
        (cur) => {
          const next = new URLSearchParams(cur);
          change(next);
          return next;
        },
        { replace: !push },
      ),
    [setParams],
  );
  const put = useCallback(
    (next: URLSearchParams, name: string, value: string | null) => {
      if (value === null || value === '') next.delete(prefix + name);
      else next.set(prefix + name, value);
    },
    [prefix],
  );

  const setSearch = useCallback(
    (search: string) =>
      update((next) => {
        put(next, 'search', search.trim() || null);
        put(next, 'page', null);
      }),
    [update, put],
  );
  const setPage = useCallback(
    (page: number, pageSize?: number) =>
      update((next) => {
        const size = pageSize ?? positive(next.get(prefix + 'page_size'), defaultPageSize);
        put(next, 'page', page > 1 ? String(page) : null);
        put(next, 'page_size', size !== defaultPageSize ? String(size) : null);
      }),
    [update, put, prefix, defaultPageSize],
  );
  const setFilters = useCallback(
    (filters: FilterValues) =>
      update((next) => {
        for (const name of filterKey ? filterKey.split('|') : []) {
          const v = filters[name];
          put(next, name, typeof v === 'string' ? v : v && v.length === 2 ? `${v[0]},${v[1]}` : null);
        }
        put(next, 'page', null);
      }),
    [update, put, filterKey],
  );
  const openDrawer = useCallback(
    (id: string, extra?: Record<string, string>) => {
      if (!drawerName) return;
      update((next) => {
        for (const name of drawerKey ? drawerKey.split('|') : []) put(next, name, null);
        put(next, drawerName, id);
        for (const [k, v] of Object.entries(extra ?? {})) put(next, k, v);
      }, true);
    },
    [update, put, drawerName, drawerKey],
  );
  const closeDrawer = useCallback(() => {
    if (!drawerName) return;
    update((next) => {
      put(next, drawerName, null);
      for (const name of drawerKey ? drawerKey.split('|') : []) put(next, name, null);
    });
  }, [update, put, drawerName, drawerKey]);
  const setDrawerParams = useCallback(
    (values: Record<string, string | null>) =>
      update((next) => {
        for (const [k, v] of Object.entries(values)) put(next, k, v);
      }),
    [update, put],
  );

  return useMemo(() => {
    const query = listQuery(state.search, state.filters);
    const activeFilters = countFilters(state.filters);
    return {
      ...state,
      activeFilters,
      query,
      narrowed: Object.keys(query).length > 0,
      setSearch,
      setPage,
      setFilters,
      openDrawer,
      closeDrawer,
      setDrawerParams,
      listProps: {
        search: state.search,
        onSearch: setSearch,
        page: state.page,
        pageSize: state.pageSize,
        onPageChange: (page: number, pageSize: number) => setPage(page, pageSize),
        activeFilters,
      },
    };
  }, [state, setSearch, setPage, setFilters, openDrawer, closeDrawer, setDrawerParams]);
}
