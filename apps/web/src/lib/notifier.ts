// The one error notifier of docs/requirements.md §8: every failed call is turned into toasts here, top right, closing after 3,500 ms.
// It also carries the success and info toasts so that every message of the console looks and times the same.
import type { ReactNode } from 'react';
import { ApiError, NetworkError, RequestSetupError } from './api-client';
import { fieldErrorsOf } from './field-errors';
import { currentLocale, t, type Text } from '../i18n';
import { localFieldMessage, localProblemMessage } from './api-errors';
import { libText } from './lib.messages';

export const TOAST_MS = 3500;
/** The English texts (tests compare with them); the toasts show them in the page's language. */
export const PAGE_NOT_FOUND_TOAST = libText.pageNotFoundToast.defaultMessage;
export const SETUP_FAILURE_TOAST = libText.somethingWentWrong.defaultMessage;
const setupFailure = () => t(libText.somethingWentWrong);

export type ToastKind = 'success' | 'error' | 'info' | 'warning';
export type Toast = { kind: ToastKind; text: ReactNode; key?: string; /** Other than TOAST_MS (the copy toast: 1,500 ms). */ durationMs?: number };
export type ToastSink = (toast: Toast) => void;

let sink: ToastSink | null = null;
const pending: Toast[] = [];

/** Called once by <NotifierHost/> with antd's notification API; toasts raised before that are queued. */
export function setToastSink(next: ToastSink | null): void {
  sink = next;
  if (sink) for (const t of pending.splice(0)) sink(t);
}

export function toast(kind: ToastKind, text: ReactNode, key?: string, durationMs?: number): void {
  const t: Toast = { kind, text, ...(key ? { key } : {}), ...(durationMs ? { durationMs } : {}) };
  if (sink) sink(t);
  else pending.push(t);
}

const isText = (v: unknown): v is Text => typeof v === 'object' && v !== null && 'id' in v && 'defaultMessage' in v;
/** A text, or a catalogue text shown in the page's language. */
const textOf = (text: string | Text): string => (isText(text) ? t(text) : text);

export const notifySuccess = (text: string | Text): void => toast('success', textOf(text));
export const notifyInfo = (text: string | Text, key?: string): void => toast('info', textOf(text), key);

/** 'first_name' → 'First name' (docs/requirements.md §8: underscores become spaces, first letter capitalised). */
export function humanizeField(field: string): string {
  const spaced = field.replace(/_/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string, an { message } object, a list of either, or an object of either: every text it holds, flattened. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return value ? [value] : [];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (isRecord(value)) {
    if (typeof value['message'] === 'string') return [value['message']];
    return Object.values(value).flatMap(textsOf);
  }
  return [];
}

/** The texts the catalogue prescribes for one failure; an empty list means "no toast" (the session ended, or a full-page message shows). */
export function errorMessages(error: unknown): string[] {
  if (error instanceof RequestSetupError) return [setupFailure()];
  // The browser's own words for a failed fetch are English: the French console says it in French.
  if (error instanceof NetworkError) return [currentLocale() === 'en' ? error.message || SETUP_FAILURE_TOAST : t(libText.networkError)];
  if (!(error instanceof ApiError)) {
    if (error instanceof DOMException && error.name === 'AbortError') return [];
    return [error instanceof Error && error.message ? error.message : setupFailure()];
  }
  const body = error.body ?? {};
  const code = typeof body.code === 'string' ? body.code : undefined;
  // The server's message in the page's language when the catalogue knows its code (lib/api-errors.ts).
  const message = typeof body.message === 'string' ? localProblemMessage(code, body.message) : '';
  const local = (text: string) => localProblemMessage(code, text);
  // 401 on a call that carried the session: the API client has cleared it and gone to / already.
  if (error.status === 401 && error.sessionCall) return [];
  // Tenant gate: the console shows its full-page message instead of a toast.
  if (error.status === 403 && typeof body.code === 'string' && /^(tenant_inactive|tenant_suspended|license_revoked|license_expired)$/.test(body.code))
    return [];
  if (error.status >= 500) return [typeof body.errors === 'string' && body.errors ? local(body.errors) : message || setupFailure()];
  if (error.status === 404) return [t(libText.pageNotFoundToast)];
  const errors: unknown = body.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    return errors.flatMap((e: unknown) => {
      if (isRecord(e) && typeof e['field'] === 'string' && typeof e['message'] === 'string')
        return [`${humanizeField(e['field'])}: ${localFieldMessage(e['message'])}`];
      return textsOf(e);
    });
  }
  // The API's field errors, keyed by field (errors.city[0]): one toast per message, "Field name: message", as for a list.
  const fields = fieldErrorsOf(error);
  if (isRecord(errors) && fields.length > 0 && Object.values(errors).every((v) => Array.isArray(v) && v.every((m) => typeof m === 'string'))) {
    return fields.flatMap((f) => f.messages.map((m) => `${humanizeField(f.field)}: ${m}`));
  }
  if (typeof errors === 'string' && errors) return [local(errors)];
  if (isRecord(body['data']) && !message) {
    const texts = textsOf(body['data']);
    if (texts.length) return texts;
  }
  if ('error' in body) {
    const e = body['error'];
    if (typeof e === 'string' && message) return [message];
    if (typeof e === 'string' && e) return [e];
    const texts = textsOf(e);
    if (texts.length) return texts;
  }
  if (isRecord(errors)) {
    const texts = textsOf(errors);
    if (texts.length) return texts;
  }
  return [message || error.message || setupFailure()];
}

/** The shared handler: every failed call of the console ends here (docs/requirements.md §8). */
export function notifyError(error: unknown): void {
  for (const text of errorMessages(error)) toast('error', text);
}
