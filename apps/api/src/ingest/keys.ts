// How the readers name what they read: a header or property name in canonical form, the names no row may carry (they
// would reach an object's prototype), and the mark of a GIS feature that has no name.

/** Header or key → canonical name: trimmed, lower case, spaces and dashes as underscores. */
export function canonicalKey(key: string): string {
  return key
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** Column and property names refused in any file (prototype keys). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Marks a row read from a GIS file whose feature has no name at all (no text, no number: gis-files.ts): it is named
 * "Plot <row number>" when staged. A symbol, so it never reaches row_data.
 */
export const PLOT_BY_ROW = Symbol.for('farmland.plotByRow');
