// Maps every error to the body shape of docs/design-rules.md once: Problems as they are, zod validation as 400 with the fields named,
// oversized bodies as 413, and anything unexpected as a 500 that hides details and is logged with the request id.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FieldError } from '@farmland/contracts';
import { isRetryableConflict } from '../db/client.js';
import { isRefusedValue } from '../db/errors.js';
import { multipartProblem } from '../lib/form.js';
import { Problem, problems } from '../lib/problems.js';
import { isStorageError } from '../lib/storage.js';

function fieldName(instancePath: string, part: string | undefined, params: Record<string, unknown>): string {
  let field = instancePath.replace(/^\//, '').replace(/\//g, '.');
  // Unknown keys in a strict object name themselves.
  const keys = params['keys'];
  if (Array.isArray(keys) && keys.length > 0) field = [field, String(keys[0])].filter(Boolean).join('.');
  if (!field) field = part === 'body' ? 'body' : (part ?? 'request');
  return field;
}

function toProblem(error: FastifyError | Error, bodyLimit: number): Problem | null {
  if (error instanceof Problem) return error;
  // A deadlock or serialisation failure that outlived withScope's retries (or a transaction not marked safe to re-run).
  if (isRetryableConflict(error)) return problems.transactionConflict();
  if (hasZodFastifySchemaValidationErrors(error)) {
    const part = (error as { validationContext?: string }).validationContext;
    const errors: FieldError[] = error.validation.map((v) => ({
      field: fieldName(v.instancePath, part, v.params ?? {}),
      // The whole body missing (no body, or an empty one) on a route that needs one.
      message:
        v.instancePath === '' && part === 'body' && /received (undefined|null)$/.test(v.message ?? '')
          ? 'A JSON body is required'
          : (v.message ?? 'Invalid value'),
    }));
    return problems.validation(errors);
  }
  const code = (error as FastifyError).code;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return problems.payloadTooLarge(bodyLimit);
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
    case 'FST_MP_PREMATURE_CLOSE':
      return multipartProblem(error);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problems.unsupportedMediaType('This content type is not accepted here.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return problems.field('body', 'A JSON body is required');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return problems.invalidJson();
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return problems.unsupportedMediaType('Send this request as multipart/form-data.');
    default:
      break;
  }
  if (error instanceof SyntaxError && (error as FastifyError).statusCode === 400) return problems.invalidJson();
  // A multipart parser error that a route read without lib/form.ts's reader: still the client's malformed body.
  if (/multipart|boundary/i.test(error.message) && !(error as FastifyError).statusCode) return multipartProblem(error);
  const status = (error as FastifyError).statusCode;
  if (status === 429) return new Problem(429, 'rate_limited', 'Too many requests. Slow down and try again shortly.');
  if (status && status >= 400 && status < 500) return new Problem(status, 'bad_request', error.message, error.message);
  return null;
}

export function registerErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // The limit that applied: a route may raise the body limit (uploads), and the message must name that one.
    const problem = toProblem(error, request.routeOptions.bodyLimit ?? bodyLimit);
    if (problem) {
      if (problem.code === 'transaction_conflict')
        request.log.warn({ err: error, requestId: request.id, route: request.routeOptions.url }, 'transaction conflict after retries');
      if ((problem.status === 429 || problem.status === 409) && problem.retryAfterSeconds) reply.header('retry-after', String(problem.retryAfterSeconds));
      return reply.status(problem.status).send({ message: problem.message, code: problem.code, ...(problem.errors ? { errors: problem.errors } : {}) });
    }
    if (isStorageError(error)) {
      // The file store failed (a missing bucket, refused credentials, an unreachable endpoint): not the client's fault.
      request.log.error(
        {
          err: error,
          requestId: request.id,
          route: request.routeOptions.url,
          storage: { operation: error.operation, key: error.key, failure: error.failure, detail: error.detail },
        },
        `storage unavailable: ${error.message} (${error.detail})`,
      );
      const p = problems.storageUnavailable();
      return reply.status(p.status).header('retry-after', '30').send({ message: p.message, code: p.code, request_id: request.id });
    }
    if (isRefusedValue(error)) {
      // A value PostgreSQL or PostGIS refused, that no schema caught: the client's input, so a 400, but logged as a gap
      // in validation to be closed where the value enters.
      request.log.warn({ err: error, requestId: request.id, route: request.routeOptions.url }, 'input refused by the database');
      const p = problems.badRequest('invalid_value', 'A value in this request is out of range or malformed, and was not stored.');
      return reply.status(p.status).send({ message: p.message, code: p.code, errors: p.errors, request_id: request.id });
    }
    request.log.error({ err: error, requestId: request.id }, 'unhandled error');
    const internal = problems.internal();
    return reply.status(500).send({ message: internal.message, code: internal.code, request_id: request.id });
  });
  app.setNotFoundHandler((_request, reply) => {
    const p = problems.routeNotFound();
    return reply.status(404).send({ message: p.message, code: p.code });
  });
}

/**
 * Errors Node's HTTP parser meets before Fastify has a request (headers larger than the server takes, a malformed
 * request line, a request timeout): answered in the same Problem shape as everything else, then the connection closes
 * (Fastify's default answered `{error, message, statusCode}`). Passed to Fastify as clientErrorHandler.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const problem =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new Problem(
          431,
          'header_too_large',
          'The request headers are larger than this server accepts (16 KB in all). Send fewer or shorter headers: a cookie or a token may have grown too large.',
        )
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new Problem(408, 'request_timeout', 'The request took too long to arrive. Try again.')
        : new Problem(400, 'bad_request', 'The request is not valid HTTP.');
  const body = JSON.stringify({ message: problem.message, code: problem.code });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${problem.status} ${http.STATUS_CODES[problem.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
