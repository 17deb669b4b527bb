// LIKE patterns from user text: the one place that escapes %, _ and the escape character itself, so a search for "50%"
// finds "50%" and a search ending in a backslash is not a malformed pattern.
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Matches values that contain the text. */
export const containsPattern = (s: string): string => `%${escapeLike(s)}%`;
/** Matches values that start with the text. */
export const prefixPattern = (s: string): string => `${escapeLike(s)}%`;
