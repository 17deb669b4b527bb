// Database errors as the rest of the API sees them: the SQLSTATE through drizzle's wrapping, and the classes that mean
// "the input was refused" rather than "the database failed".

/** The SQLSTATE of a database error (pg and PGlite both set `code`), through drizzle's `cause` wrapping. */
export function sqlState(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * A value PostgreSQL refused: data exceptions (class 22: out of range, bad encoding, invalid geometry text) and program
 * limits hit by a value (class 54: an index row too large, a value nested too deeply). GEOS's XX000 is left out: it is
 * also what a real internal failure raises.
 */
export function isRefusedValue(err: unknown): boolean {
  const code = sqlState(err);
  return code !== null && (code.startsWith('22') || code.startsWith('54'));
}
