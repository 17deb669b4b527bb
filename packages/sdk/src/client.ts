// The client: openapi-fetch over the generated types, with the API's ways in (an SDK license key in X-License-Key, or
// a bearer token), encrypted bodies when the server requires them, and every operation by its operationId (ops).
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { payloadSession, PAYLOAD_MEDIA_TYPE, type PayloadSession } from './encryption.js';
import { operations, type Operations } from './operations.js';
import type { paths } from './schema.js';

export type FarmlandClientOptions = {
  /** The server's address, e.g. https://farmland.example.org (no trailing /api). */
  baseUrl: string;
  /** A tenant's SDK license key: accepted by the capture routes (farms, farmers) in X-License-Key. */
  licenseKey?: string;
  /** A bearer token (a session's access token), or a function that returns the current one. */
  token?: string | (() => string | null | Promise<string | null>);
  /**
   * Encrypted bodies (PAYLOAD_ENCRYPTION on the server): 'auto' (default) encrypts when the server requires it, 'always'
   * whenever it accepts it, 'off' never (a server that requires it then answers 400 payload_encryption_required).
   */
  encryption?: 'auto' | 'always' | 'off';
  /** A fetch to use instead of globalThis.fetch. */
  fetch?: (input: Request) => Promise<Response>;
};

export type FarmlandClient = {
  /** The openapi-fetch client: GET, POST, … by path, typed from the document. */
  api: Client<paths>;
  /** Every operation by its operationId (the document's): resolves to the answer's data, throws FarmlandApiError. */
  ops: Operations;
  options: Readonly<FarmlandClientOptions>;
  /** The current bearer token, if any. */
  bearer(): Promise<string | null>;
};

export function createFarmlandClient(options: FarmlandClientOptions): FarmlandClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? ((req: Request) => globalThis.fetch(req));
  const mode = options.encryption ?? 'auto';
  const bearer = async () => (typeof options.token === 'function' ? options.token() : (options.token ?? null));

  let session: Promise<PayloadSession> | null = null;
  const payload = () => {
    session ??= payloadSession(baseUrl, (input, init) => fetchImpl(new Request(input as Request, init))).catch((err: unknown) => {
      session = null;
      throw err;
    });
    return session;
  };
  const encrypting = async (): Promise<PayloadSession | null> => {
    if (mode === 'off') return null;
    const s = await payload();
    return s.mode === 'required' || (mode === 'always' && s.mode === 'optional') ? s : null;
  };

  const middleware: Middleware = {
    async onRequest({ request }) {
      const token = await bearer();
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      if (options.licenseKey) request.headers.set('x-license-key', options.licenseKey);
      const s = await encrypting();
      if (!s) return request;
      request.headers.set('x-client-key', s.clientKey);
      if (!(request.headers.get('content-type') ?? '').includes('json') || request.body === null) return request;
      // A JSON body goes as a JWE bound to this method and path (file uploads, multipart, go as they are).
      const url = new URL(request.url);
      const jwe = await s.encrypt(request.method, url.pathname, await request.text(), token);
      const headers = new Headers(request.headers);
      headers.set('content-type', PAYLOAD_MEDIA_TYPE);
      return new Request(request.url, { method: request.method, headers, body: jwe, signal: request.signal });
    },
    async onResponse({ response }) {
      if (!(response.headers.get('content-type') ?? '').startsWith(PAYLOAD_MEDIA_TYPE)) return response;
      const s = await payload();
      const text = await s.decrypt(await response.text());
      const headers = new Headers(response.headers);
      headers.set('content-type', 'application/json; charset=utf-8');
      headers.delete('content-length');
      return new Response(text, { status: response.status, statusText: response.statusText, headers });
    },
  };

  const api = createClient<paths>({ baseUrl, fetch: fetchImpl });
  api.use(middleware);
  return { api, ops: operations(api), options, bearer };
}
