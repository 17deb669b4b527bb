// One webhook attempt over HTTP: signed as the Standard Webhooks specification says (webhook-id, webhook-timestamp,
// webhook-signature "v1,<base64 HMAC-SHA256 of id.timestamp.body>" keyed by the base64 part of the whsec_ secret), sent
// to the address the URL check resolved (the name is never resolved again), with a whole-request timeout, no redirect
// followed, and at most maxResponseBytes of the answer read.
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkWebhookUrl, type Resolver } from './webhooks.address.js';

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: whsec_ + base64 of 32 random bytes (the form the Standard Webhooks libraries read). */
export const newSecret = (): string => `${SECRET_PREFIX}${crypto.randomBytes(32).toString('base64')}`;

/** The webhook-signature header's value for one message. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export type AttemptResult = {
  outcome: 'succeeded' | 'failed' | 'refused';
  responseCode: number | null;
  durationMs: number;
  error: string | null;
};

export type SendOptions = { allowedHosts: readonly string[]; timeoutMs: number; maxResponseBytes: number; resolve?: Resolver };

export async function sendWebhook(url: string, secret: string, messageId: string, body: string, opts: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const checked = await checkWebhookUrl(url, opts.allowedHosts, opts.resolve);
  if (!checked.ok) return { outcome: 'refused', responseCode: null, durationMs: ms(), error: checked.reason };
  const timestamp = Math.floor(Date.now() / 1000);
  const u = new URL(url);
  // Connect to the checked address; Host and TLS SNI still carry the URL's name.
  const lookup: LookupFunction = (_host, options, cb) => {
    if (options.all)
      (cb as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: checked.address, family: checked.family }]);
    else cb(null, checked.address, checked.family);
  };
  const client = u.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const done = (r: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: ms() });
    };
    const req = client.request(
      u,
      {
        method: 'POST',
        lookup,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'farmland-webhooks/1',
          'webhook-id': messageId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature(secret, messageId, timestamp, body),
        },
      },
      (res) => {
        const code = res.statusCode ?? 0;
        let read = 0;
        const finish = () => {
          if (code >= 200 && code < 300) done({ outcome: 'succeeded', responseCode: code, error: null });
          else if (code >= 300 && code < 400)
            done({ outcome: 'failed', responseCode: code, error: 'The receiver answered with a redirect, which is not followed' });
          else done({ outcome: 'failed', responseCode: code, error: `The receiver answered ${code}` });
        };
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // The answer is not used: past the limit it is not read on (a receiver cannot make us hold a large body).
          if (read > opts.maxResponseBytes) {
            finish();
            res.destroy();
          }
        });
        res.on('end', finish);
        res.on('error', () => finish());
        res.on('close', finish);
      },
    );
    const timer = setTimeout(() => {
      done({ outcome: 'failed', responseCode: null, error: `No answer within ${opts.timeoutMs} ms` });
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ outcome: 'failed', responseCode: null, error: `Could not reach the receiver (${err.code ?? 'network error'})` }),
    );
    req.end(body);
  });
}
