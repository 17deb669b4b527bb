// Encrypted request and response bodies on top of TLS (lib/payload-crypto.ts has the scheme; docs/decisions/0009-hardening.md the threat
// model). PAYLOAD_ENCRYPTION:
// - optional (default): a JSON body may come as `application/jose` (JWE to the server's key) or as plain JSON; a call
//   that sends X-Client-Key gets its JSON answers encrypted to that key, others get plain JSON (SDKs, curl);
// - required: plain JSON bodies are refused (400 payload_encryption_required), and so is a call without X-Client-Key
//   unless it is a public GET (health, console config, the key itself, templates, signed file links); file uploads
//   (multipart) are excepted, as the spec says, and so is /api/internal/ (loopback only, with the internal key: the
//   admin-link command); answers that are not JSON (files, tiles, CSV) are not encrypted;
// - off: neither is accepted (an `application/jose` body is a 415), X-Client-Key is ignored.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { KeyObject } from 'node:crypto';
import type { Config } from '../config.js';
import {
  bearerOf,
  bindingPath,
  CLIENT_KEY_HEADER,
  decryptRequestBody,
  encryptResponseBody,
  parseClientKey,
  PAYLOAD_MEDIA_TYPE,
  type PayloadKeyring,
} from '../lib/payload-crypto.js';
import { problems } from '../lib/problems.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The client's ephemeral public key (X-Client-Key): JSON answers to this request are encrypted to it. */
    payloadClientKey: KeyObject | null;
  }
}

const hasBody = (req: FastifyRequest): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** remember: the shared jti store (modules/auth/payload-replay.queries.ts), false for a jti already seen. */
export function registerPayloadEncryption(
  app: FastifyInstance,
  config: Config,
  keyring: PayloadKeyring,
  remember: (jti: string, untilSeconds: number) => Promise<boolean>,
): void {
  const mode = config.payload.mode;
  app.decorateRequest('payloadClientKey', null);
  if (mode === 'off') return;

  // Registered before authentication, so that even a 401 goes back encrypted to a client that sent its key.
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    const header = req.headers[CLIENT_KEY_HEADER];
    if (typeof header === 'string' && header !== '') req.payloadClientKey = parseClientKey(header.trim());
    if (mode !== 'required' || req.url.startsWith('/api/internal/')) return;
    const type = (req.headers['content-type'] ?? '').toLowerCase();
    if (hasBody(req) && type.includes('json')) {
      throw problems.badRequest(
        'payload_encryption_required',
        `Request bodies must be encrypted: send ${PAYLOAD_MEDIA_TYPE} (a JWE to the key of GET /api/crypto/key).`,
      );
    }
    const publicGet = (req.method === 'GET' || req.method === 'HEAD') && req.routeOptions.config?.access === 'public';
    if (!req.payloadClientKey && !publicGet && req.routeOptions.url !== undefined) {
      throw problems.badRequest('payload_client_key_required', 'Send your public key in X-Client-Key: answers are encrypted to it.');
    }
  });

  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(PAYLOAD_MEDIA_TYPE, { parseAs: 'string' }, async (req: FastifyRequest, body: string | Buffer) => {
    const plaintext = await decryptRequestBody(keyring, body.toString(), {
      method: req.method,
      path: bindingPath(req.url),
      bearer: bearerOf(req.headers.authorization),
      remember,
    });
    // The decrypted text goes through Fastify's own JSON parser (prototype-poisoning checks included).
    return new Promise((resolve, reject) => {
      void parseJson(req, plaintext, (err, value) => (err ? reject(err) : resolve(value)));
    });
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const key = req.payloadClientKey;
    if (!key || reply.statusCode === 204 || reply.statusCode === 304) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    reply.header('content-type', PAYLOAD_MEDIA_TYPE);
    return encryptResponseBody(key, payload);
  });
}
