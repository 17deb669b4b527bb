// Typed errors: every error answer of the API is a Problem ({ code, message, errors?, request_id? }, the document's
// components.schemas.Problem); FarmlandApiError carries it with the HTTP status and, for 429 and 503, Retry-After.
import type { components } from './schema.js';

export type ProblemBody = components['schemas']['Problem'];

export class FarmlandApiError extends Error {
  override readonly name = 'FarmlandApiError';
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The API's stable code (validation_failed, not_found, forbidden, license_revoked, …). */
    readonly code: string,
    message: string,
    /** Field errors keyed by field, each with its messages (errors.<field>[0]); empty when the error is about no field. */
    readonly fieldErrors: Readonly<Record<string, readonly string[]>>,
    /** The request id (x-request-id), to quote to the operator. */
    readonly requestId: string | null,
    /** Seconds to wait before trying again (Retry-After), when the answer says. */
    readonly retryAfterSeconds: number | null,
    /** The answer's body as received. */
    readonly body: ProblemBody | string | undefined,
  ) {
    super(message);
  }

  /** The first message for a field (`error.field('coordinates')`), or undefined. */
  field(name: string): string | undefined {
    return this.fieldErrors[name]?.[0];
  }

  static from(response: Response, body: ProblemBody | string | undefined): FarmlandApiError {
    const problem = body && typeof body === 'object' ? body : undefined;
    const fieldErrors = problem?.errors && typeof problem.errors === 'object' ? (problem.errors as Record<string, string[]>) : {};
    const retry = Number(response.headers.get('retry-after'));
    return new FarmlandApiError(
      response.status,
      problem?.code ?? `http_${response.status}`,
      problem?.message ?? (typeof body === 'string' && body ? body : `The API answered ${response.status} ${response.statusText}`),
      fieldErrors,
      problem?.request_id ?? response.headers.get('x-request-id'),
      Number.isFinite(retry) && retry > 0 ? retry : null,
      body,
    );
  }
}

export const isFarmlandApiError = (e: unknown): e is FarmlandApiError => e instanceof FarmlandApiError;
