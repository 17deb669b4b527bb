// The console's one reader of the API's field errors (keyed by field, errors.city[0]).
import { describe, expect, it } from 'vitest';
import { ApiError, type ErrorBody } from './api-client';
import { fieldErrorsOf, firstFieldError, formFieldErrors } from './field-errors';

const api = (body: ErrorBody | null, status = 400) => new ApiError(status, body, true);
const keyed = api({
  message: 'm',
  code: 'validation_failed',
  errors: { name: ['Name is required'], city: ['The selected city is not in Nigeria'], 'coordinates.0': ['Out of range', 'Swapped?'] },
});

describe('field errors', () => {
  it('reads every field with its messages, in order', () => {
    expect(fieldErrorsOf(keyed)).toEqual([
      { field: 'name', messages: ['Name is required'] },
      { field: 'city', messages: ['The selected city is not in Nigeria'] },
      { field: 'coordinates.0', messages: ['Out of range', 'Swapped?'] },
    ]);
  });

  it('errors.city[0], with a fallback field', () => {
    expect(firstFieldError(keyed, 'city', 'city_id')).toBe('The selected city is not in Nigeria');
    expect(firstFieldError(keyed, 'city_id', 'name')).toBe('Name is required');
    expect(firstFieldError(keyed, 'file')).toBeNull();
  });

  it('puts only the form’s own fields, each with all its messages', () => {
    expect(formFieldErrors(keyed, ['name', 'region_id'] as const)).toEqual([{ name: 'name', errors: ['Name is required'] }]);
  });

  it('has none for a text error, no body, or something other than an ApiError', () => {
    expect(fieldErrorsOf(api({ message: 'm', code: 'c', errors: 'The farm does not overlap anything' }))).toEqual([]);
    expect(fieldErrorsOf(api(null, 500))).toEqual([]);
    expect(fieldErrorsOf(new Error('x'))).toEqual([]);
  });
});
