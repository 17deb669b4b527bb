// Secrets in console links (the password-reset token, the invitation key, the admin link's request id) travel in the
// URL fragment (#token=…), which a browser never sends to a server: no request log, proxy or Referer can hold them.
// Links mailed before that carried them in the query (?token=…): they are still read, and the address is rewritten to
// the fragment form, so that the secret leaves the query (and the history entry) at once.

export type LinkLocation = { pathname: string; search: string; hash: string };

/** The secret and, when it came in the query, the address to put in its place (query without it, fragment with it). */
export type LinkSecret = { value: string | null; rewrite: string | null };

export function readLinkSecret(location: LinkLocation, name: string): LinkSecret {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromFragment = fragment.get(name);
  if (fromFragment) return { value: fromFragment, rewrite: null };
  const query = new URLSearchParams(location.search);
  const fromQuery = query.get(name);
  if (!fromQuery) return { value: null, rewrite: null };
  query.delete(name);
  fragment.set(name, fromQuery);
  const rest = query.toString();
  return { value: fromQuery, rewrite: `${location.pathname}${rest ? `?${rest}` : ''}#${fragment.toString()}` };
}
