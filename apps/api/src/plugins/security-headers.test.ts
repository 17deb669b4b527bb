// The security headers as the API sends them, and the CSP's one configurable origin.
import { describe, expect, it } from 'vitest';
import { testEnv } from '../test/harness.js';
import { contentSecurityPolicy } from './security-headers.js';

describe('security headers', () => {
  it('are on every API answer, with no-store unless the route sets its own caching', async () => {
    const env = await testEnv();
    for (const url of ['/api/health', '/api/no-such-route', '/api/farms/']) {
      const res = await env.as('adminA').get(url);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    // A route with its own caching keeps it (vector tiles revalidate with their ETag).
    const tile = await env.as('adminA').get('/api/farms/tiles/12/2090/1960.mvt');
    expect(tile.headers['cache-control']).toBe('private, no-cache');
  });

  it('names the basemap style origin, and nothing else outside our own', () => {
    expect(contentSecurityPolicy({ mapStyleUrl: null })).not.toMatch(/https?:/);
    const csp = contentSecurityPolicy({ mapStyleUrl: 'https://tiles.example.com/styles/satellite.json' });
    expect(csp).toContain("connect-src 'self' https://tiles.example.com");
    expect(csp).toContain("img-src 'self' data: blob: https://tiles.example.com");
  });
});
