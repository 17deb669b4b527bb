// The one error notifier of docs/requirements.md §8: every failed call is turned into toasts here, top right, closing after 3,500 ms.
// It also carries the success and info toasts so that every message of the console looks and times the same.
import type { ReactNode } from 'react';
import { ApiError, NetworkError, RequestSetupError } from './api-client';
import { fieldErrorsOf } from './field-errors';

export const TOAST_MS = 3500;
export const PAGE_NOT_FOUND_TOAST = 'Page not found, Please contact the site administrator';
export const SETUP_FAILURE_TOAST = 'Something went wrong';

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

export const notifySuccess = (text: string): void => toast('success', text);
export const notifyInfo = (text: string, key?: string): void => toast('info', text, key);

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
  if (error instanceof RequestSetupError) return [SETUP_FAILURE_TOAST];
  if (error instanceof NetworkError) return [error.message || SETUP_FAILURE_TOAST];
  if (!(error instanceof ApiError)) {
    if (error instanceof DOMException && error.name === 'AbortError') return [];
    return [error instanceof Error && error.message ? error.message : SETUP_FAILURE_TOAST];
  }
  const body = error.body ?? {};
  const message = typeof body.message === 'string' ? body.message : '';
  // 401 on a call that carried the session: the API client has cleared it and gone to / already.
  if (error.status === 401 && error.sessionCall) return [];
  // Tenant gate: the console shows its full-page message instead of a toast.
  if (error.status === 403 && typeof body.code === 'string' && /^(tenant_inactive|tenant_suspended|license_revoked|license_expired)$/.test(body.code)) return [];
  if (error.status >= 500) return [typeof body.errors === 'string' && body.errors ? body.errors : message || SETUP_FAILURE_TOAST];
  if (error.status === 404) return [PAGE_NOT_FOUND_TOAST];
  const errors: unknown = body.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    return errors.flatMap((e: unknown) => {
      if (isRecord(e) && typeof e['field'] === 'string' && typeof e['message'] === 'string') return [`${humanizeField(e['field'])}: ${e['message']}`];
      return textsOf(e);
    });
  }
  // The API's field errors, keyed by field (errors.city[0]): one toast per message, "Field name: message", as for a list.
  const fields = fieldErrorsOf(error);
  if (isRecord(errors) && fields.length > 0 && Object.values(errors).every((v) => Array.isArray(v) && v.every((m) => typeof m === 'string'))) {
    return fields.flatMap((f) => f.messages.map((m) => `${humanizeField(f.field)}: ${m}`));
  }
  if (typeof errors === 'string' && errors) return [errors];
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
  return [message || error.message || SETUP_FAILURE_TOAST];
}

/** The shared handler: every failed call of the console ends here (docs/requirements.md §8). */
export function notifyError(error: unknown): void {
  for (const text of errorMessages(error)) toast('error', text);
}
