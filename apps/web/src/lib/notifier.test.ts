// Every branch of the error catalogue (docs/requirements.md §8), and the toast sink.
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, RequestSetupError, type ErrorBody } from './api-client';
import { errorMessages, humanizeField, PAGE_NOT_FOUND_TOAST, setToastSink, toast, type Toast } from './notifier';

const api = (status: number, body: ErrorBody | null, sessionCall = true) => new ApiError(status, body, sessionCall);

describe('error catalogue', () => {
  it('401 on a session call: no toast (the session is cleared and the console goes to /)', () => {
    expect(errorMessages(api(401, { message: 'expired', code: 'not_authenticated' }))).toEqual([]);
  });

  it('401 on a sign-in call is an answer: its message is shown', () => {
    expect(errorMessages(api(401, { message: 'Invalid email or password.', code: 'invalid_credentials' }, false))).toEqual(['Invalid email or password.']);
  });

  it('tenant-gate 403: no toast (the full-page message shows)', () => {
    expect(errorMessages(api(403, { message: 'suspended', code: 'tenant_suspended' }))).toEqual([]);
  });

  it('500: the errors text when it is a string, else the message', () => {
    expect(errorMessages(api(500, { message: 'Something broke', code: 'internal_error', errors: 'Database down' }))).toEqual(['Database down']);
    expect(errorMessages(api(500, { message: 'Something broke', code: 'internal_error' }))).toEqual(['Something broke']);
    expect(errorMessages(api(502, null))).toEqual(['Something went wrong']);
  });

  it('404: the fixed page-not-found text', () => {
    expect(errorMessages(api(404, { message: 'User not found.', code: 'not_found' }))).toEqual([PAGE_NOT_FOUND_TOAST]);
    expect(PAGE_NOT_FOUND_TOAST).toBe('Page not found, Please contact the site administrator');
  });

  it("errors keyed by field (the API's shape, errors.city[0]): one toast per message, 'Field name: message'", () => {
    const body: ErrorBody = {
      message: 'x',
      code: 'validation_failed',
      errors: { first_name: ['First name is required'], code: ['Invalid code', 'Use 6 digits'] },
    };
    expect(errorMessages(api(400, body))).toEqual(['First name: First name is required', 'Code: Invalid code', 'Code: Use 6 digits']);
  });

  it("errors as a list of objects (another server's shape): one toast per entry, 'Field name: message'", () => {
    const body = {
      message: 'x',
      code: 'validation_failed',
      errors: [
        { field: 'first_name', message: 'First name is required' },
        { field: 'code', message: 'Invalid code' },
      ],
    } as unknown as ErrorBody;
    expect(errorMessages(api(400, body))).toEqual(['First name: First name is required', 'Code: Invalid code']);
  });

  it('errors as a string: toast it', () => {
    expect(errorMessages(api(400, { message: 'm', code: 'c', errors: 'This sign-in attempt has expired.' }))).toEqual(['This sign-in attempt has expired.']);
  });

  it('data without message: each value', () => {
    expect(errorMessages(api(400, { data: { email: 'taken', phone: ['bad', 'short'] } }))).toEqual(['taken', 'bad', 'short']);
  });

  it('an error field: message when both are strings, else the error text, else each entry', () => {
    expect(errorMessages(api(400, { error: 'bad_thing', message: 'A bad thing happened' }))).toEqual(['A bad thing happened']);
    expect(errorMessages(api(400, { error: 'Only the error' }))).toEqual(['Only the error']);
    expect(errorMessages(api(400, { error: ['one', { message: 'two' }] }))).toEqual(['one', 'two']);
  });

  it('nested errors objects: each string or message', () => {
    expect(errorMessages(api(400, { errors: { admin: { email: 'Email taken' }, license: [{ message: 'Expiry required' }] } as unknown as string }))).toEqual([
      'Email taken',
      'Expiry required',
    ]);
  });

  it('no response: the error’s own message; request-setup failure: Something went wrong', () => {
    expect(errorMessages(new NetworkError('Failed to fetch'))).toEqual(['Failed to fetch']);
    expect(errorMessages(new RequestSetupError('x'))).toEqual(['Something went wrong']);
  });

  it('humanises field names', () => {
    expect(humanizeField('phone_number')).toBe('Phone number');
    expect(humanizeField('code')).toBe('Code');
  });

  it('queues toasts until the host mounts, then delivers them', () => {
    const got: Toast[] = [];
    toast('error', 'early');
    setToastSink((t) => got.push(t));
    toast('success', 'late');
    expect(got.map((t) => t.text)).toEqual(['early', 'late']);
    setToastSink(null);
  });
});
