// The API's field errors, as every 4xx sends them: `errors` keyed by field name (a dotted path for a nested field), each
// with its messages (`errors.city[0]`, docs/requirements.md §8). One reader for the forms that put them on their fields and for the
// notifier; anything else in `errors` (a text about no field) is not a field error.
import { ApiError } from './api-client';
import { localFieldMessage } from './api-errors';

export type FieldMessages = { field: string; messages: string[] };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The field errors of a failed call, in the order the API found them; [] when it has none. */
export function fieldErrorsOf(error: unknown): FieldMessages[] {
  const errors = error instanceof ApiError ? error.body?.errors : undefined;
  if (!isRecord(errors)) return [];
  return Object.entries(errors).flatMap(([field, messages]) => {
    const texts = Array.isArray(messages)
      ? messages.filter((m): m is string => typeof m === 'string' && m !== '')
      : typeof messages === 'string' && messages
        ? [messages]
        : [];
    // Each message in the page's language when the catalogue knows it (lib/api-errors.ts).
    return texts.length > 0 ? [{ field, messages: texts.map(localFieldMessage) }] : [];
  });
}

/** The first message for one of the fields (in the order given), or null: `errors.city[0]`. */
export function firstFieldError(error: unknown, ...fields: string[]): string | null {
  const all = fieldErrorsOf(error);
  for (const f of fields) {
    const hit = all.find((e) => e.field === f);
    if (hit) return hit.messages[0]!;
  }
  return null;
}

/**
 * The field errors for an antd form's fields (form.setFields), only for the fields the form has; each field shows all
 * its messages.
 */
export function formFieldErrors<K extends string>(error: unknown, fields: readonly K[]): Array<{ name: K; errors: string[] }> {
  const known = new Set<string>(fields);
  return fieldErrorsOf(error)
    .filter((e) => known.has(e.field))
    .map((e) => ({ name: e.field as K, errors: e.messages }));
}
