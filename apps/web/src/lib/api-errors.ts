// The API's error messages in the page's language. The API sends English with a stable code (apps/api/src/lib/
// problems.ts); when the code is known here and the message is the known English one (its figures aside), the console
// shows the catalogue's text for it (api-errors.messages.ts); any other message is shown as the server sent it. So the
// English console shows exactly what the server sent, and a message the catalogue does not know is never hidden.
import { t, type Text } from '../i18n';
import { apiErrorText as m } from './api-errors.messages';
import { localContractMessage } from './contract-messages';

type Rule = { code: string; text: Text; pattern?: RegExp; values?: (match: RegExpExecArray) => Record<string, string | number> };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Messages with figures: the English as a pattern, and the figures it carries. */
const num = (match: RegExpExecArray, i: number) => Number(match[i]);
const RULES: readonly Rule[] = [
  { code: 'not_authenticated', text: m.notAuthenticated },
  { code: 'invalid_credentials', text: m.invalidCredentials },
  { code: 'account_suspended', text: m.accountSuspended },
  { code: 'account_inactive', text: m.accountInactive },
  { code: 'invalid_mfa_token', text: m.invalidMfaToken },
  { code: 'invalid_mfa_code', text: m.invalidMfaCode },
  { code: 'mfa_code_reused', text: m.mfaCodeReused },
  { code: 'mfa_already_enabled', text: m.mfaAlreadyEnabled },
  { code: 'mfa_setup_required', text: m.mfaSetupRequired },
  { code: 'refresh_token_invalid', text: m.refreshTokenInvalid },
  { code: 'idempotency_key_reused', text: m.idempotencyKeyReused },
  { code: 'idempotency_key_in_progress', text: m.idempotencyKeyInProgress },
  { code: 'session_revoked', text: m.sessionRevoked },
  { code: 'refresh_token_reused', text: m.refreshTokenReused },
  {
    code: 'too_many_attempts',
    text: m.tooManyAttempts,
    pattern: /^Too many failed attempts\. Try again in (\d+) minute\(s\)\.$/,
    values: (x) => ({ minutes: num(x, 1) }),
  },
  {
    code: 'analysis_queue_full',
    text: m.analysisQueueFull,
    pattern:
      /^Your organisation already has (\d+) analyses waiting to start, the most allowed at once\. Upload this one again when some of them have started\.$/,
    values: (x) => ({ limit: num(x, 1) }),
  },
  { code: '105', text: m.invalidServiceProvider },
  { code: '106', text: m.noServiceProviderAccess },
  { code: 'invalid_reset_token', text: m.invalidResetToken },
  { code: 'invalid_invitation', text: m.invalidInvitation },
  { code: 'validation_failed', text: m.wrongPassword },
  { code: 'forbidden', text: m.forbidden },
  { code: 'tenant_inactive', text: m.tenantInactive },
  { code: 'tenant_suspended', text: m.tenantSuspended },
  { code: 'license_revoked', text: m.licenseRevoked },
  { code: 'license_expired', text: m.licenseExpired },
  { code: 'not_found', text: m.pageNotFound },
  {
    code: 'farmer_has_farms',
    text: m.farmerHasFarms,
    pattern: /^This farmer has (\d+) farms?\. Delete the farms first, or delete again with delete_farms=true to remove the farmer and the farms together\.$/,
    values: (x) => ({ count: num(x, 1) }),
  },
  { code: 'license_not_reissuable', text: m.licenseNotReissuable },
  { code: 'license_not_rotatable', text: m.licenseNotRotatable },
  { code: 'license_superseded', text: m.licenseSuperseded },
  { code: 'transaction_conflict', text: m.transactionConflict },
  { code: 'payload_unbound', text: m.payloadUnbound },
  {
    code: 'payload_stale',
    text: m.payloadStale,
    pattern: /^The encrypted body's iat is more than (\d+) s from the server's clock \(see this answer's Date header\)\. Encrypt it again\.$/,
    values: (x) => ({ seconds: num(x, 1) }),
  },
  { code: 'payload_replayed', text: m.payloadReplayed },
  { code: 'payload_session_mismatch', text: m.payloadSessionMismatch },
  {
    code: 'payload_too_large',
    text: m.payloadTooLarge,
    pattern: /^The request body is larger than the limit of (\d+) bytes\.$/,
    values: (x) => ({ limit: num(x, 1) }),
  },
  { code: 'invalid_json', text: m.invalidJson },
  { code: 'storage_unavailable', text: m.storageUnavailable },
  { code: 'internal_error', text: m.internalError },
  { code: 'farm_vanished', text: m.farmVanished },
  { code: 'not_overlapping', text: m.notOverlapping },
  { code: 'layer_loading', text: m.layerLoading },
  { code: 'queue_unavailable', text: m.queueUnavailable },
  { code: 'webhook_delivery_in_progress', text: m.webhookDeliveryInProgress },
  {
    code: 'webhook_limit_reached',
    text: m.webhookLimitReached,
    pattern: /^An organisation can register at most (\d+) webhook endpoints\. Delete one first\.$/,
    values: (x) => ({ max: num(x, 1) }),
  },
  { code: 'overloaded', text: m.overloaded },
  { code: 'rate_limited', text: m.rateLimited },
  { code: 'request_timeout', text: m.requestTimeout },
  { code: 'invalid_value', text: m.invalidValue },
];

/** A field's message (errors.code[0]) the catalogue knows, by its English. */
const FIELD_RULES: readonly Rule[] = [
  { code: '*', text: m.invalidMfaCodeField },
  { code: '*', text: m.mfaCodeReusedField },
  { code: '*', text: m.invalidResetTokenField },
  { code: '*', text: m.invalidInvitationField },
  { code: '*', text: m.wrongPasswordField },
  { code: '*', text: m.fileTooLarge, pattern: /^The file is larger than the limit of (\d+) bytes$/, values: (x) => ({ limit: num(x, 1) }) },
];

function apply(rule: Rule, message: string): string | null {
  const pattern = rule.pattern ?? new RegExp(`^${escape(rule.text.defaultMessage)}$`);
  const match = pattern.exec(message);
  if (!match) return null;
  return t(rule.text, rule.values?.(match));
}

/** The server's message for this code, in the page's language when the catalogue knows it; else as sent. */
export function localProblemMessage(code: string | undefined, message: string): string {
  if (!code || !message) return message;
  for (const rule of RULES) {
    if (rule.code !== code) continue;
    const text = apply(rule, message);
    if (text !== null) return text;
  }
  return message;
}

/** A field error's message (errors.city[0]) in the page's language when the catalogue knows it; else as sent. */
export function localFieldMessage(message: string): string {
  for (const rule of FIELD_RULES) {
    const text = apply(rule, message);
    if (text !== null) return text;
  }
  return localContractMessage(message) ?? message;
}
