// The page's URL query as state, like React Router's useSearchParams, with one difference: a functional update reads
// the URL as it is at the moment of the call, not as it was at the last render. React Router hands the updater the
// params of the render that made the setter, so two updates before the next render (a debounced search and a map's
// move-end in the same frame) each start from the same old params, and the later one undoes the earlier: a search typed
// right after opening the map view was lost that way (seen in the browser suite under load).
// The browser's URL is that moment's truth under the console's browser router; under a memory router (the route tests)
// the window's URL is another page's, so there the render's params are used, as React Router does.
import { useCallback } from 'react';
import { useLocation, useSearchParams, type SetURLSearchParams } from 'react-router';

export function useUrlParams(): [URLSearchParams, SetURLSearchParams] {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const set = useCallback<SetURLSearchParams>(
    (next, options) => {
      if (typeof next !== 'function') return setParams(next, options);
      const browser = typeof window !== 'undefined' && window.location.pathname === pathname;
      return setParams(next(new URLSearchParams(browser ? window.location.search : params)), options);
    },
    [setParams, pathname, params],
  );
  return [params, set];
}
