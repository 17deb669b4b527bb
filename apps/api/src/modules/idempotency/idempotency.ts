// The Idempotency-Key header (IETF draft-ietf-httpapi-idempotency-key-header) on the capture API's create routes
// (POST /farms/, POST /farmers/): a retry after a lost answer never makes a second farm or farmer. The key is claimed
// before the route runs (one winner among concurrent requests); a successful answer is kept 24 hours and replayed with
// Idempotent-Replayed: true; a refused or failed request frees its key. See docs/decisions/0061-idempotency-key.md.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENT_REPLAYED_HEADER } from '@farmland/contracts';
import type { Deps } from '../../context.js';
import type { FormInput } from '../../lib/form.js';
import { problems } from '../../lib/problems.js';
import { claimKey, completeKey, releaseKey, type Claim } from './idempotency.queries.js';

export type Answer = { status: number; body: unknown };

/** JSON with object keys sorted at every level, so that key order never changes a body's hash. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** SHA-256 of the request as read: the fields in canonical JSON, and each file's field, name and content hash. */
export function bodyHash(input: FormInput): string {
  const h = crypto.createHash('sha256').update(canonical(input.fields));
  for (const f of input.files) h.update(`\n${f.field}\n${f.filename}\n${crypto.createHash('sha256').update(f.data).digest('hex')}`);
  return h.digest('hex');
}

/** The header's value: undefined when absent; a Problem (400 naming Idempotency-Key) when malformed or repeated. */
export function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(raw)) throw problems.idempotencyKeyInvalid();
  return raw;
}

/**
 * Runs a create route's work once per Idempotency-Key: without the header, `run` answers as before. With it, the key is
 * claimed for (tenant, actor); a second request with the key and the same method, path and body gets the kept answer
 * (409 idempotency_key_in_progress while the first still runs); with another body or route, 409 idempotency_key_reused.
 */
export async function idempotent(deps: Deps, req: FastifyRequest, reply: FastifyReply, input: FormInput, run: () => Promise<Answer>): Promise<FastifyReply> {
  const key = idempotencyKeyOf(req);
  const ctx = req.ctx;
  const owner = ctx.license
    ? { tenantId: ctx.license.tenantId, actor: `license:${ctx.license.licenseId}` }
    : ctx.actor?.tenantId
      ? { tenantId: ctx.actor.tenantId, actor: `user:${ctx.actor.userId}` }
      : null;
  if (key === undefined || !owner) {
    // No key, or no tenant to keep it in (provider staff): the route as before.
    const a = await run();
    return reply.status(a.status).send(a.body);
  }
  const claim: Claim = { ...owner, key };
  const request = `${req.method} ${req.routeOptions.url ?? req.url.split('?')[0]}`;
  const hash = bodyHash(input);
  const got = await claimKey(deps.db, claim, request, hash);
  if (!got.claimed) {
    if (got.row.request !== request || got.row.body_hash !== hash) throw problems.idempotencyKeyReused();
    if (got.row.status === null || got.row.response === null) throw problems.idempotencyKeyInProgress();
    return reply.status(got.row.status).header(IDEMPOTENT_REPLAYED_HEADER, 'true').send(JSON.parse(got.row.response));
  }
  let answer: Answer;
  try {
    answer = await run();
  } catch (err) {
    await releaseKey(deps.db, claim).catch((e: unknown) => req.log.error({ err: e }, 'idempotency key release failed'));
    throw err;
  }
  if (answer.status >= 200 && answer.status < 300) {
    // Kept before the answer leaves, so a retry after it arrives finds it. If keeping fails, the work is done: answer it,
    // and the claim stays in progress (409 to retries) until pruned, rather than letting a retry do the work twice.
    await completeKey(deps.db, claim, answer.status, JSON.stringify(answer.body)).catch((e: unknown) =>
      req.log.error({ err: e }, 'idempotency answer not kept'),
    );
  } else {
    await releaseKey(deps.db, claim).catch((e: unknown) => req.log.error({ err: e }, 'idempotency key release failed'));
  }
  return reply.status(answer.status).send(answer.body);
}
