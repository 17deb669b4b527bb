// Security headers on the served console and the API (issue 17): CSP without inline script and with frame-ancestors
// 'none', no framing, a referrer policy, a permissions policy, and no-store on API answers.
import { describe, expect, inject, it } from 'vitest';

const baseUrl = inject('baseUrl');

describe('security headers', () => {
  it.each(['/', '/login', '/admin/farm-analysis', '/api/health'])('%s carries them', async (path) => {
    const res = await fetch(`${baseUrl}${path}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('permissions-policy')).toContain('geolocation=(self)');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    if (path.startsWith('/api/')) expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
