import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.js';

describe('redactUrl', () => {
  it('replaces every secret value and keeps the path and the other parameters', () => {
    expect(redactUrl('/reset-password?token=abc123')).toBe('/reset-password?token=[redacted]');
    expect(redactUrl('/api/onboarding/tenant-admin/?signed_key=eyJ.x%2By')).toBe('/api/onboarding/tenant-admin/?signed_key=[redacted]');
    expect(redactUrl('/api/files/1f?exp=1799999999&sig=AbC_-1')).toBe('/api/files/1f?exp=1799999999&sig=[redacted]');
    expect(redactUrl('/?q=req-id&ec=105')).toBe('/?q=[redacted]&ec=105');
    expect(redactUrl('/api/farms/?page=2&search=oyo&page_size=20')).toBe('/api/farms/?page=2&search=oyo&page_size=20');
  });

  it('matches names without case and in their encoded form, repeated or valueless', () => {
    expect(redactUrl('/x?TOKEN=a&%74oken=b&token&Refresh_Token=c')).toBe('/x?TOKEN=[redacted]&%74oken=[redacted]&token=[redacted]&Refresh_Token=[redacted]');
  });

  it('leaves a URL without a query as it is, and drops a fragment', () => {
    expect(redactUrl('/api/health')).toBe('/api/health');
    expect(redactUrl('/onboarding#signed_key=abc')).toBe('/onboarding');
  });
});
