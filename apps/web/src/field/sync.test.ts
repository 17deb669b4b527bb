// How the sync reads an answer: a refusal is kept with its reason; no answer, a 5xx, a 429, or a key whose first
// request is still running on the server leave the item waiting for the next pass.
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../lib/api-client';
import { classify } from './sync';

const apiError = (status: number, body: Record<string, unknown>) => new ApiError(status, body as never, true);

describe('classify', () => {
  it('keeps the item waiting when the same key is still in progress on the server', () => {
    expect(classify(apiError(409, { code: 'idempotency_key_in_progress', message: 'in progress' }))).toBe('server_error');
  });
  it('refuses a reused key with another body, naming the reason', () => {
    expect(classify(apiError(409, { code: 'idempotency_key_reused', message: 'This Idempotency-Key was used for another request.' }))).toEqual({ refused: 'This Idempotency-Key was used for another request.' });
  });
  it('names the first field error of a 400', () => {
    expect(classify(apiError(400, { message: 'Invalid input', errors: { coordinates: ['Too many vertices'] } }))).toEqual({ refused: 'Invalid input (coordinates: Too many vertices)' });
  });
  it('waits on no answer, a 5xx and a 429; stops on an ended session', () => {
    expect(classify(new NetworkError())).toBe('offline');
    expect(classify(apiError(503, {}))).toBe('server_error');
    expect(classify(apiError(429, {}))).toBe('server_error');
    expect(classify(apiError(401, {}))).toBe('session_ended');
  });
});
