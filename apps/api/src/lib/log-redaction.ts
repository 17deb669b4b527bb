// What request logging may never write: the query values that can carry a secret (a reset token, an invitation key, a
// signed file link's signature, an admin link's id, a refresh token sent the wrong way). One list, used by the access
// line (app.ts) and by the logger's own redaction (bootstrap.ts); docs/decisions/0048-secrets-out-of-request-logs.md.

/** Query parameter names (compared without case) whose values are replaced in every logged URL. */
export const SECRET_QUERY_PARAMS: ReadonlySet<string> = new Set([
  'token',
  'signed_key',
  'sig',
  'signature',
  'q',
  'key',
  'code',
  'password',
  'secret',
  'refresh',
  'refresh_token',
  'access',
  'access_token',
  'id_token',
  'request_id',
  'mfa_token',
  'user_token',
  'license_key',
  'api_key',
  'client_secret',
]);

export const REDACTED = '[redacted]';

/** Body and object fields the logger censors wherever they appear one level down (pino redact paths). */
export const SECRET_LOG_FIELDS = ['password', 'refresh', 'access', 'token', 'signed_key', 'sig', 'request_id', 'mfa_token', 'secret'] as const;

function paramName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * The URL with every secret query value replaced by [redacted]; the path, the other parameters and their order are kept
 * as they came. A fragment never reaches a server, but one in a logged string is dropped all the same.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const withoutHash = hash === -1 ? url : url.slice(0, hash);
  const q = withoutHash.indexOf('?');
  if (q === -1) return withoutHash;
  const query = withoutHash
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return SECRET_QUERY_PARAMS.has(paramName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${withoutHash.slice(0, q)}?${query}`;
}
