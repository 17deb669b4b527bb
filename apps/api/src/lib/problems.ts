// The one error catalogue: every failure the API reports is a Problem with a stable code; plugins/errors.ts maps it to HTTP.
import { keyFieldErrors, type FieldError, type FieldErrors } from '@farmland/contracts';

export class Problem extends Error {
  /** Sent as Retry-After (seconds, rounded up) with a 429. */
  retryAfterSeconds?: number;
  /** As sent: field errors keyed by field (`errors.city[0]`), or one text that is about no field. */
  readonly errors?: FieldErrors | string;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** A list of field errors is keyed here, once, for every Problem (contracts' keyFieldErrors). */
    errors?: readonly FieldError[] | FieldErrors | string,
  ) {
    super(message);
    this.name = 'Problem';
    if (errors !== undefined) this.errors = isFieldErrorList(errors) ? keyFieldErrors(errors) : errors;
  }
}

const isFieldErrorList = (v: readonly FieldError[] | FieldErrors | string): v is readonly FieldError[] => Array.isArray(v);

export type TenantGateCode = 'tenant_inactive' | 'tenant_suspended' | 'license_revoked' | 'license_expired';

const gateMessages: Record<TenantGateCode, string> = {
  tenant_inactive: 'Your organisation has been deactivated. Contact your service provider to restore access.',
  tenant_suspended: 'Your organisation has been suspended. Contact your service provider to restore access.',
  license_revoked: "Your organisation's license has been revoked. Contact your service provider to restore access.",
  license_expired: "Your organisation's license has expired. Contact your service provider to renew it.",
};

export const problems = {
  validation: (errors: FieldError[]) => new Problem(400, 'validation_failed', errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors),
  field: (field: string, message: string) => new Problem(400, 'validation_failed', `${field}: ${message}`, [{ field, message }]),
  badRequest: (code: string, message: string) => new Problem(400, code, message, message),
  unauthenticated: (message = 'Authentication credentials were not provided or have expired.') => new Problem(401, 'not_authenticated', message),
  invalidCredentials: () => new Problem(401, 'invalid_credentials', 'Invalid email or password.'),
  accountSuspended: () => new Problem(403, 'account_suspended', 'This account has been suspended. Contact your administrator.'),
  accountInactive: () => new Problem(403, 'account_inactive', 'This account has been deactivated. Contact your administrator.'),
  invalidChallenge: () =>
    new Problem(400, 'invalid_mfa_token', 'This sign-in attempt has expired. Please sign in again.', 'This sign-in attempt has expired. Please sign in again.'),
  invalidCode: () => new Problem(400, 'invalid_mfa_code', 'Invalid or expired code.', [{ field: 'code', message: 'Invalid or expired code' }]),
  codeReused: () =>
    new Problem(400, 'mfa_code_reused', 'This code has already been used. Wait for the next code.', [
      { field: 'code', message: 'This code has already been used. Wait for the next code' },
    ]),
  mfaAlreadyEnabled: () => new Problem(409, 'mfa_already_enabled', 'Two-factor authentication is already set up for this account.'),
  refreshInvalid: () => new Problem(401, 'refresh_token_invalid', 'Your session has expired. Please sign in again.'),
  // Idempotency-Key (issue 31, modules/idempotency): the header's problems, named for the header as a field.
  idempotencyKeyInvalid: () =>
    new Problem(400, 'validation_failed', 'Idempotency-Key: must be 1 to 255 visible ASCII characters (send one header)', [
      { field: 'Idempotency-Key', message: 'Must be 1 to 255 visible ASCII characters (send one header)' },
    ]),
  idempotencyKeyReused: () =>
    new Problem(409, 'idempotency_key_reused', 'This Idempotency-Key was already used for a different request. Use a new key for a new request.', [
      { field: 'Idempotency-Key', message: 'Already used with a different body or route' },
    ]),
  idempotencyKeyInProgress: () =>
    Object.assign(new Problem(409, 'idempotency_key_in_progress', 'A request with this Idempotency-Key is still being processed. Retry shortly.'), {
      retryAfterSeconds: 1,
    }),
  /** A session ended on purpose (sign-out, account or two-factor reset, suspension revokes, an admin's revocation): sign in again. */
  sessionRevoked: () => new Problem(401, 'session_revoked', 'This session was ended. Please sign in again.'),
  refreshReused: () => new Problem(401, 'refresh_token_reused', 'This session was ended because its refresh token was used twice. Please sign in again.'),
  tooManyAttempts: (retryAfterSeconds: number) =>
    Object.assign(
      new Problem(429, 'too_many_attempts', `Too many failed attempts. Try again in ${Math.max(1, Math.ceil(retryAfterSeconds / 60))} minute(s).`),
      {
        retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)),
      },
    ),
  analysisQueueFull: (limit: number, retryAfterSeconds: number) =>
    Object.assign(
      new Problem(
        429,
        'analysis_queue_full',
        `Your organisation already has ${limit} analyses waiting to start, the most allowed at once. Upload this one again when some of them have started.`,
      ),
      { retryAfterSeconds },
    ),
  /** A file whose coordinate system cannot be resolved to a transformation to WGS84 (ingest/crs.ts); never read as WGS84. */
  crsUnsupported: (message: string) => new Problem(400, 'crs_unsupported', `file: ${message}`, [{ field: 'file', message }]),
  invalidServiceProvider: () => new Problem(400, '105', 'Invalid Service Provider'),
  noServiceProviderAccess: () => new Problem(403, '106', 'You do not have the right access to this service Provider'),
  invalidResetToken: () =>
    new Problem(400, 'invalid_reset_token', 'This password reset link is invalid or has expired.', [
      { field: 'token', message: 'This link is invalid or has expired' },
    ]),
  invalidInvitation: () =>
    new Problem(400, 'invalid_invitation', 'This invitation link is invalid or has expired.', [
      { field: 'signed_key', message: 'This invitation link is invalid or has expired' },
    ]),
  wrongPassword: () =>
    new Problem(400, 'validation_failed', 'old_password: The current password is incorrect', [
      { field: 'old_password', message: 'The current password is incorrect' },
    ]),
  forbidden: (message = 'You do not have permission to perform this action.') => new Problem(403, 'forbidden', message),
  tenantGate: (code: TenantGateCode) => new Problem(403, code, gateMessages[code]),
  notFound: (what = 'Resource') => new Problem(404, 'not_found', `${what} not found.`),
  routeNotFound: () => new Problem(404, 'not_found', 'Page not found.'),
  farmerHasFarms: (n: number) =>
    new Problem(
      409,
      'farmer_has_farms',
      `This farmer has ${n} farm${n === 1 ? '' : 's'}. Delete the farms first, or delete again with delete_farms=true to remove the farmer and the farms together.`,
    ),
  licenseNotReissuable: () =>
    new Problem(
      409,
      'license_not_reissuable',
      'Only SDK licenses can be re-issued. A Platform license can only be revoked; edit the tenant to change its dates.',
    ),
  licenseNotRotatable: () =>
    new Problem(409, 'license_not_rotatable', 'A revoked license has no key in use to rotate. Re-issue it (SDK) or edit the tenant first.'),
  licenseSuperseded: () =>
    new Problem(
      409,
      'license_superseded',
      "This license has been replaced by a newer one (a key rotation or a type change); act on the tenant's current license.",
    ),
  conflict: (field: string, message: string) => new Problem(409, 'conflict', `${field}: ${message}`, [{ field, message }]),
  transactionConflict: () =>
    new Problem(
      409,
      'transaction_conflict',
      'This change collided with another change to the same records at the same moment, and nothing was saved. Try again.',
    ),
  payloadUnbound: () =>
    new Problem(
      400,
      'payload_unbound',
      'The encrypted body must carry iat (seconds) and jti (16 to 64 base64url characters) in its protected header.',
      'The encrypted body must carry iat and jti.',
    ),
  payloadStale: (windowSeconds: number) =>
    new Problem(
      400,
      'payload_stale',
      `The encrypted body's iat is more than ${windowSeconds} s from the server's clock (see this answer's Date header). Encrypt it again.`,
      `The encrypted body's iat is more than ${windowSeconds} s from the server's clock.`,
    ),
  payloadReplayed: () => new Problem(409, 'payload_replayed', 'This encrypted body was already received (its jti was used). Encrypt each request anew.'),
  payloadSessionMismatch: () =>
    new Problem(
      400,
      'payload_session_mismatch',
      "The encrypted body was made for another session: its ath must be the hash of this request's bearer token, and absent without one.",
    ),
  payloadTooLarge: (limit: number) => new Problem(413, 'payload_too_large', `The request body is larger than the limit of ${limit} bytes.`),
  unsupportedMediaType: (message: string) => new Problem(415, 'unsupported_media_type', message),
  invalidJson: () => new Problem(400, 'invalid_json', 'The request body is not valid JSON.', 'The request body is not valid JSON.'),
  storageUnavailable: () =>
    new Problem(503, 'storage_unavailable', 'Files cannot be stored or read right now. Nothing was saved; try again later. The error has been logged.'),
  internal: () => new Problem(500, 'internal_error', 'Something went wrong on our side. The error has been logged.'),
};
