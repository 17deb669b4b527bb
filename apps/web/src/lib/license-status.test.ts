import { describe, expect, it } from 'vitest';
import { licenseStatus, truncateKey } from './license-status';

describe('licenseStatus', () => {
  it('puts Revoked before Expired before Active', () => {
    expect(licenseStatus({ is_revoked: true, is_expired: true })).toBe('Revoked');
    expect(licenseStatus({ is_revoked: false, is_expired: true })).toBe('Expired');
    expect(licenseStatus({ is_revoked: false, is_expired: false })).toBe('Active');
  });
  it('truncates keys to 10 characters', () => {
    expect(truncateKey('abcdefghijKLMNOP')).toBe('abcdefghij…');
    expect(truncateKey('short')).toBe('short');
  });
});
