// Thin helpers over the generated operations: sign-in, capture with retries and an Idempotency-Key, an iterator over
// paged and cursor lists, and an analysis upload from a file or a stream with a wait for its result.
import type { FarmlandClient } from './client.js';
import { FarmlandApiError } from './errors.js';

/** A list page as the API answers it: { count, next, previous, results } (next: a relative URL, null at the end). */
export type Page<T> = { count: number; next: string | null; previous?: string | null; results: T[] };

/**
 * Every item of a list, page after page: call fetchPage with the query of each page (the first one's is `query`; the
 * next ones' come from the answer's `next` link, by page number or by cursor `after`, whichever the list uses).
 */
export async function* listItems<T>(
  fetchPage: (query: Record<string, string>) => Promise<{ data: Page<T> } | Page<T>>,
  query: Record<string, string | number> = {},
): AsyncGenerator<T> {
  let q: Record<string, string> | null = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
  while (q) {
    const answer = await fetchPage(q);
    const page = 'data' in answer ? answer.data : answer;
    for (const item of page.results) yield item;
    q = page.next && page.results.length > 0 ? Object.fromEntries(new URL(page.next, 'http://x').searchParams) : null;
  }
}

export type SignInOptions = {
  email: string;
  password: string;
  /**
   * The current two-factor code. At the account's first sign-in the server starts enrolment: `secret` is then the new
   * TOTP secret (base32) to add to an authenticator, and the code must be its first one.
   */
  code: (step: { enrolment: boolean; secret?: string; otpauthUrl?: string }) => string | Promise<string>;
};

/** Signs in (password, then the two-factor step or first enrolment): the session's access and refresh tokens and the user. */
export async function signIn(client: FarmlandClient, o: SignInOptions) {
  const login = (await client.ops.login({ body: { email: o.email, password: o.password } })).data;
  const tokens = { mfa_token: login.mfa_token, user_token: login.user_token };
  if (login.mfa_setup_required) {
    const setup = (await client.ops.setupMfa({ body: tokens })).data;
    const code = await o.code({ enrolment: true, secret: setup.secret, otpauthUrl: setup.otpauth_url });
    return (await client.ops.confirmMfa({ body: { ...tokens, code } })).data;
  }
  const code = await o.code({ enrolment: false });
  return (await client.ops.confirmLogin({ body: { ...tokens, code } })).data;
}

export type RetryOptions = {
  /** Attempts in all (default 4). */
  attempts?: number;
  /** The first wait in ms, doubled at each retry (default 500), unless the answer's Retry-After says longer. */
  backoffMs?: number;
  /** The Idempotency-Key to send (default: a new random one for this call, the same on each of its attempts). */
  idempotencyKey?: string;
};

const retryable = (err: unknown): { wait: number | null } | null => {
  if (err instanceof FarmlandApiError) {
    if (err.status === 429 || err.status === 503 || err.status === 502 || err.status === 504 || err.code === 'transaction_conflict')
      return { wait: err.retryAfterSeconds ? err.retryAfterSeconds * 1000 : null };
    return null;
  }
  // A network failure (the answer never came): the same key makes the retry safe.
  return err instanceof TypeError ? { wait: null } : null;
};

/**
 * Runs a capture with an Idempotency-Key header, retrying a lost or refused-for-now attempt (network failure, 429,
 * 502-504, transaction_conflict) with the same key, so that the server records it once. Each attempt is encrypted
 * anew (a fresh jti) when bodies are encrypted.
 */
export async function withIdempotentRetries<T>(run: (headers: { 'Idempotency-Key': string }) => Promise<T>, o: RetryOptions = {}): Promise<T> {
  const key = o.idempotencyKey ?? crypto.randomUUID();
  const attempts = o.attempts ?? 4;
  let wait = o.backoffMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run({ 'Idempotency-Key': key });
    } catch (err) {
      const r = retryable(err);
      if (!r || attempt >= attempts) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.max(wait, r.wait ?? 0)));
      wait *= 2;
    }
  }
}

export type CaptureFarmInput = NonNullable<Parameters<FarmlandClient['ops']['captureFarm']>[0]>['body'];
export type CreateFarmerInput = NonNullable<Parameters<FarmlandClient['ops']['createFarmer']>[0]>['body'];

/** Captures a farm (a license key or an agent's token), with retries under one Idempotency-Key. */
export function captureFarm(client: FarmlandClient, body: CaptureFarmInput, retry: RetryOptions = {}) {
  return withIdempotentRetries((headers) => client.ops.captureFarm({ body, headers }), retry);
}

/** Creates a farmer (a license key, an agent's or an admin's token), with retries under one Idempotency-Key. */
export function createFarmer(client: FarmlandClient, body: CreateFarmerInput, retry: RetryOptions = {}) {
  return withIdempotentRetries((headers) => client.ops.createFarmer({ body, headers }), retry);
}

/** A file to upload: its bytes as a Blob (in Node, `await fs.openAsBlob(path)` reads it from disk as it is sent), or a stream of chunks. */
export type UploadSource = Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

async function toBlob(source: UploadSource): Promise<Blob> {
  if (source instanceof Blob) return source;
  const chunks: Uint8Array[] = [];
  if (Symbol.asyncIterator in source) for await (const c of source as AsyncIterable<Uint8Array>) chunks.push(c);
  else {
    const reader = (source as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  }
  return new Blob(chunks as BlobPart[]);
}

export type AnalysisUpload = {
  file: UploadSource;
  /** The file's name: its extension tells the format (.csv, .xlsx, .geojson, .kml, .kmz, .zip). */
  filename: string;
  name?: string;
  description?: string;
  operationalAreas: readonly string[];
  /** The column or property holding each farm's name. */
  nameField?: string;
  parentAnalysisId?: string;
};

/** Starts an analysis from a file or a stream (multipart); answers the analysis (status queued). */
export async function uploadAnalysis(client: FarmlandClient, u: AnalysisUpload) {
  const form = new FormData();
  form.append('file', await toBlob(u.file), u.filename);
  if (u.name) form.append('name', u.name);
  if (u.description) form.append('description', u.description);
  for (const id of u.operationalAreas) form.append('operational_areas', id);
  if (u.nameField) form.append('name_field', u.nameField);
  if (u.parentAnalysisId) form.append('parent_analysis_id', u.parentAnalysisId);
  const { data, error, response } = await client.api.POST('/api/custom-analysis/', { body: form as never, bodySerializer: (b: unknown) => b as FormData });
  if (!response.ok) throw FarmlandApiError.from(response, error);
  return data!.data;
}

type AnalysisDetail = Awaited<ReturnType<FarmlandClient['ops']['getAnalysis']>>['data'];

/** Polls the analysis until it has finished (completed or failed); answers its final state. */
export async function waitForAnalysis(
  client: FarmlandClient,
  id: string,
  o: { intervalMs?: number; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<AnalysisDetail> {
  const deadline = Date.now() + (o.timeoutMs ?? 10 * 60_000);
  for (;;) {
    const { data } = await client.ops.getAnalysis({ params: { path: { id } } });
    if (data.status === 'completed' || data.status === 'failed') return data;
    if (Date.now() > deadline) throw new Error(`The analysis ${id} has not finished in time (status ${data.status}, ${data.progress} %)`);
    o.signal?.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, o.intervalMs ?? 1000));
  }
}

export type ResultCategory = 'within' | 'outside' | 'overlapping' | 'unrecognized' | 'errors';

/** Every result row of one category, read by cursor (any depth), page_size rows at a time. */
export function analysisResults(client: FarmlandClient, id: string, category: ResultCategory, pageSize = 100) {
  const op = {
    within: client.ops.listAnalysisWithin,
    outside: client.ops.listAnalysisOutside,
    overlapping: client.ops.listAnalysisOverlapping,
    unrecognized: client.ops.listAnalysisUnrecognized,
    errors: client.ops.listAnalysisErrors,
  }[category];
  return listItems(
    (query) => op({ params: { path: { id }, query: { page_size: Number(query['page_size'] ?? pageSize), after: Number(query['after'] ?? 0) } } }),
    { page_size: pageSize, after: 0 },
  );
}
