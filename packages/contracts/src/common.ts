// Shared building blocks of the API contract: envelopes, pagination, ids and the error body.
import { z } from 'zod';

export const uuid = z.uuid();

// ---------- text ----------
// PostgreSQL cannot store U+0000 in text, a lone UTF-16 surrogate is not a character at all, and the other C0 controls
// (and DEL) have no place in a form field. Every text input of the contract is built from text(), which refuses them and
// names the field; the API's input guard refuses U+0000 and lone surrogates in every JSON value and query value too, so
// a route that forgets text() still cannot hand them to the database.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string holds U+0000 or a lone surrogate: what no text column can take. */
export const unstorableText = (value: string): boolean => value.includes('\u0000') || LONE_SURROGATE.test(value);

/** Why a text value cannot be stored as it is, or null. Tab, line feed and carriage return are allowed only when multiline. */
export function textProblem(value: string, multiline = false): string | null {
  if (value.includes('\u0000')) return 'Remove the NUL character (U+0000): text cannot contain it';
  if (LONE_SURROGATE.test(value)) return 'Remove the broken character (a lone UTF-16 surrogate): text must be valid Unicode';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must be found
  const control = multiline ? /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F]/ : /[\u0001-\u001F\u007F]/;
  const hit = control.exec(value);
  if (hit)
    return `Remove the control character U+${hit[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}${multiline ? '' : ' (text here is one line)'}`;
  return null;
}

/** A text input: refuses NUL, lone surrogates and control characters (line breaks and tabs only when multiline). */
export const text = (opts: { multiline?: boolean; error?: string } = {}) =>
  z.string(opts.error ? { error: opts.error } : undefined).check((ctx) => {
    const problem = textProblem(ctx.value, opts.multiline ?? false);
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value, continue: false });
  });

/** A query value that the console may send empty: empty strings are ignored (docs/design-rules.md, "API contract": empty query values are ignored). */
export const emptyToUndefined = (v: unknown): unknown => (v === '' || v === null ? undefined : v);

/**
 * Page numbers stop at a million: past that an offset is nonsense, and the database would refuse it. The API also
 * refuses (400, field `page`) a page that starts past the first 10,000 rows of a list (issue 15: deep offsets).
 */
export const pageNumber = z.preprocess(
  emptyToUndefined,
  z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000, 'page must be at most 1000000')
    .default(1)
    .describe(
      'Page number from 1. A page must start within the first 10,000 rows of the list ((page - 1) × page_size < 10,000): narrow deeper lists with a search or a filter.',
    ),
);
export const pageSize = z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).optional());

export const pageQuery = z.object({
  page: pageNumber,
  page_size: pageSize,
  search: z.preprocess(emptyToUndefined, text().trim().max(200).optional()),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z
      .number()
      .int()
      .describe(
        "Rows matching the list's filters. Exact up to 10,000 matches, and exact at any size for the unfiltered lists of farms and farmers (and farmers by is_mapped), which are kept as counters. Past 10,000 matches of a filter without a counter it is the planner's estimate and count_estimated is true.",
      ),
    count_estimated: z
      .literal(true)
      .optional()
      .describe('Present (true) when count is an estimate ("about"): more than 10,000 rows match. Absent when count is exact.'),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });

export const envelope = <T extends z.ZodType>(payload: T) => z.object({ data: payload, message: z.string().optional() });

export const messageOnly = z.object({ data: z.null().optional(), message: z.string() });

/** One problem with one field, as the API builds them (a zod issue, a service's check); sent keyed (fieldErrors). */
export const fieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldError>;

/**
 * Field errors as every 4xx sends them (the spec reads `errors.city[0]`): the field's name (a dotted path for a nested
 * field, `coordinates.0`; `body` for the body as a whole) → its messages, in the order found.
 */
export const fieldErrors = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof fieldErrors>;

/** A list of field errors keyed by field, each field's messages in order (own properties only: a "__proto__" field is kept as a key). */
export function keyFieldErrors(list: readonly FieldError[]): FieldErrors {
  const byField = new Map<string, string[]>();
  for (const e of list) {
    const messages = byField.get(e.field);
    if (messages) messages.push(e.message);
    else byField.set(e.field, [e.message]);
  }
  return Object.fromEntries(byField);
}

/**
 * The error body: `errors` is field errors keyed by field, or one string when the failure is not about a field (a
 * retain that cannot cut, an invalid link). Bulk uploads' failed rows and an analysis's row errors are not errors of
 * the request: they are results, in their own shapes (bulkUploadResult.failed_rows, analysisRowError).
 */
export const problemBody = z.object({
  message: z.string(),
  code: z.string(),
  errors: z.union([fieldErrors, z.string()]).optional(),
  request_id: z.string().optional(),
});
export type ProblemBody = z.infer<typeof problemBody>;

export const roleName = z.enum(['super_admin', 'tenant_admin', 'agent']);
export type RoleName = z.infer<typeof roleName>;

export const platformName = z.enum(['web', 'mobile', 'sdk', 'api']);
export type PlatformName = z.infer<typeof platformName>;

/** Whether y-m-d names a day of the proleptic Gregorian calendar (years 1 to 9999, as PostgreSQL's date has them). */
export function isCalendarDate(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || y < 1 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
  return d <= days;
}

/** YYYY-MM-DD, as docs/design-rules.md fixes for date-only inputs, and a real day: 2026-02-30 is refused, naming the field. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Use the format YYYY-MM-DD', abort: true })
  .refine((v) => {
    const [y, m, d] = v.split('-').map(Number) as [number, number, number];
    return isCalendarDate(y, m, d);
  }, 'This date does not exist: check the day and the month (YYYY-MM-DD)');

export const idParam = z.object({ id: uuid });
