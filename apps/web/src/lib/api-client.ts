// The one API client: every call goes through here. It sends X-Platform: web and the in-memory access token,
// refreshes the token once on a 401 (the refresh token is an httpOnly cookie on /api/auth; one tab at a time, through a
// Web Lock), and on a second 401 ends the session and returns to /. A tenant-gate 403 switches the console to its full-page message.
// JSON bodies go encrypted and JSON answers come back encrypted (lib/payload-crypto.ts); file uploads go as they are.
import type { ProblemBody } from '@farmland/contracts';
import { localProblemMessage } from './api-errors';
import { libText } from './lib.messages';
import { t } from '../i18n';
import { encryptBody, forgetServerKey, isJsonResponse, noteServerClock, payloadSession, PAYLOAD_MEDIA_TYPE, readJsonBody } from './payload-crypto';
import { paths } from './paths';
import { clearSession, getAccessToken, setAccessToken, setTenantGate, TENANT_GATE_CODES, type TenantGateCode } from './session-store';

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly string[]>;

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A JSON body. */
  body?: unknown;
  /** A multipart body (file uploads). */
  form?: FormData;
  query?: Query;
  /** false for the sign-in calls: no bearer token, and a 401 there is an answer, not an ended session. */
  session?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (the field app's Idempotency-Key). */
  headers?: Record<string, string>;
};

/** The response body of a failed call; the API sends ProblemBody, other shapes are handled by the notifier. */
export type ErrorBody = Partial<ProblemBody> & Record<string, unknown>;

/** The server answered with a non-2xx status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | null,
    /** True when the call carried the session: its 401 means the session has ended. */
    readonly sessionCall: boolean,
  ) {
    // The server's message, in the page's language when the catalogue knows its code (lib/api-errors.ts).
    super(
      typeof body?.message === 'string'
        ? localProblemMessage(typeof body.code === 'string' ? body.code : undefined, body.message)
        : t(libText.requestFailed, { status }),
    );
    this.name = 'ApiError';
  }
  get code(): string | undefined {
    return typeof this.body?.code === 'string' ? this.body.code : undefined;
  }
}

/** No response at all (offline, server down, connection reset). */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

/** The request could not even be built (docs/requirements.md §8: "Something went wrong"). */
export class RequestSetupError extends Error {
  override name = 'RequestSetupError';
}

const API_PREFIX = '/api';
let onSessionEnded: () => void = () => window.location.assign(paths.home);

/** The router registers navigation here, so that an ended session returns to / without a full reload. */
export function setSessionEndedHandler(handler: () => void): void {
  onSessionEnded = handler;
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    // List calls drop empty parameters (docs/requirements.md §7).
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, v));
    else params.append(key, String(value));
  }
  const qs = params.toString();
  return `${API_PREFIX}${path}${qs ? `?${qs}` : ''}`;
}

async function buildInit(url: string, opts: RequestOptions, withToken: boolean): Promise<RequestInit> {
  const method = opts.method ?? (opts.form || opts.body !== undefined ? 'POST' : 'GET');
  const headers = new Headers({ ...opts.headers, Accept: 'application/json', 'X-Platform': 'web' });
  const token = withToken ? getAccessToken() : null;
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const crypto = await payloadSession();
  if (crypto.mode !== 'off') headers.set('X-Client-Key', crypto.clientHeader);
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    const sealed = await encryptBody(crypto, method, url.split('?', 1)[0]!, opts.body, token);
    headers.set('Content-Type', sealed === null ? 'application/json' : PAYLOAD_MEDIA_TYPE);
    body = sealed ?? JSON.stringify(opts.body);
  }
  return { method, headers, body: body ?? null, credentials: 'same-origin', signal: opts.signal ?? null };
}

async function readBody(res: Response): Promise<ErrorBody | null> {
  if (!isJsonResponse(res)) return null;
  try {
    const parsed = await readJsonBody(res);
    return parsed && typeof parsed === 'object' ? (parsed as ErrorBody) : null;
  } catch {
    return null;
  }
}

async function send(path: string, opts: RequestOptions, withToken: boolean): Promise<Response> {
  let url: string;
  try {
    url = buildUrl(path, opts.query);
  } catch {
    throw new RequestSetupError(t(libText.somethingWentWrong));
  }
  let init: RequestInit;
  try {
    init = await buildInit(url, opts, withToken);
  } catch (err) {
    // The key could not be fetched (offline) or the body could not be encrypted.
    if (err instanceof TypeError || (err instanceof Error && /key could not be loaded/.test(err.message)))
      throw new NetworkError(err.message || t(libText.networkError));
    throw new RequestSetupError(t(libText.somethingWentWrong));
  }
  try {
    return await fetch(url, init);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new NetworkError(err instanceof Error && err.message ? err.message : t(libText.networkError));
  }
}

/** How a refresh ended: a new access token, refused by the server, or no answer (offline, or the page unloading). */
export type RefreshOutcome = 'ok' | 'refused' | 'unreachable';

let refreshing: Promise<RefreshOutcome> | null = null;

/** The Web Lock every tab of this origin takes around its refresh call. */
export const REFRESH_LOCK = 'farmland.token-refresh';

/**
 * Runs fn while holding the refresh lock, so that tabs refresh one after the other: each then sends the cookie the one
 * before it stored, and never a token another tab has just rotated. A tab that closes or reloads drops the lock. Without
 * the Web Locks API (very old browsers) fn just runs; the API's reuse interval still covers that case.
 */
async function acrossTabs<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks || typeof locks.request !== 'function') return fn();
  return locks.request(REFRESH_LOCK, { mode: 'exclusive' }, fn);
}

/**
 * Rotates the refresh cookie and stores the new access token. Single-flight: concurrent callers in this tab share one
 * call, and tabs take turns through a Web Lock (acrossTabs), because the API treats a rotated refresh token presented
 * again after its reuse interval as theft and ends the session.
 */
export function refreshSession(): Promise<RefreshOutcome> {
  refreshing ??= acrossTabs(async (): Promise<RefreshOutcome> => {
    let res: Response;
    try {
      res = await send('/auth/token/refresh/', { method: 'POST', body: {} }, false);
    } catch {
      // No answer: the page is being left (a reload aborts its requests) or the network is down. The session may well
      // be alive (the server may even have rotated the token): this is not a sign-out.
      return 'unreachable';
    }
    try {
      if (!res.ok) {
        const body = await readBody(res);
        noteTenantGate(res.status, body);
        return 'refused';
      }
      const json = (await readJsonBody(res)) as { data: { access: string } };
      setAccessToken(json.data.access);
      return 'ok';
    } catch {
      return 'unreachable';
    }
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** refreshSession as a yes or no. */
export const refreshAccessToken = async (): Promise<boolean> => (await refreshSession()) === 'ok';

function noteTenantGate(status: number, body: ErrorBody | null): boolean {
  const code = body?.code;
  if (status === 403 && typeof code === 'string' && (TENANT_GATE_CODES as readonly string[]).includes(code)) {
    setTenantGate({
      code: code as TenantGateCode,
      message: typeof body?.message === 'string' ? localProblemMessage(code, body.message) : t(libText.organisationBlocked),
    });
    return true;
  }
  return false;
}

export function isTenantGateError(err: unknown): boolean {
  return err instanceof ApiError && err.status === 403 && typeof err.code === 'string' && (TENANT_GATE_CODES as readonly string[]).includes(err.code);
}

/** Ends the session locally and returns to / (docs/requirements.md §8: a 401 clears the session and goes to /). */
export function endSession(): void {
  clearSession();
  onSessionEnded();
}

/** Sends a request and returns the successful Response; every failure is thrown as ApiError, NetworkError or RequestSetupError. */
export async function apiFetch(path: string, opts: RequestOptions = {}): Promise<Response> {
  const withSession = opts.session !== false;
  let res = await send(path, opts, withSession);
  if (res.status === 401 && withSession) {
    // The access token expired (or the page was reloaded): refresh once, then retry once. No answer to the refresh is
    // a network failure, not an ended session.
    const outcome = await refreshSession();
    if (outcome === 'unreachable') throw new NetworkError(t(libText.networkError));
    if (outcome === 'ok') res = await send(path, opts, true);
  }
  if (res.ok) return res;
  let body = await readBody(res);
  if (res.status === 400 && body?.code === 'payload_key_unknown') {
    // The server's key was rotated while this page was open: fetch the new key, and send once more.
    forgetServerKey();
    await payloadSession(true);
    res = await send(path, opts, withSession);
    if (res.ok) return res;
    body = await readBody(res);
  }
  if (res.status === 400 && body?.code === 'payload_stale' && noteServerClock(res)) {
    // This page's clock is far from the server's: encrypt again with the server's time, once.
    res = await send(path, opts, withSession);
    if (res.ok) return res;
    body = await readBody(res);
  }
  noteTenantGate(res.status, body);
  const error = new ApiError(res.status, body, withSession);
  if (res.status === 401 && withSession) endSession();
  throw error;
}

/** A JSON call; returns the whole envelope ({ data, message }). */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await apiFetch(path, opts);
  if (res.status === 204) return undefined as T;
  return (await readJsonBody(res)) as T;
}

/** A download: the file and its name from content-disposition. */
export async function apiDownload(path: string, opts: RequestOptions, fallbackName: string): Promise<{ blob: Blob; filename: string; headers: Headers }> {
  const res = await apiFetch(path, opts);
  const disposition = res.headers.get('content-disposition') ?? '';
  const match = /filename="?([^";]+)"?/i.exec(disposition);
  return { blob: await res.blob(), filename: match?.[1] ?? fallbackName, headers: res.headers };
}
