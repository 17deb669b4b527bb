// Security headers on every response (issue 17): a strict Content-Security-Policy for the console (its own origin,
// plus the basemap style's origin when MAP_STYLE_URL is set; no inline script; styles inline because the component
// library injects its CSS at run time; blob: workers for MapLibre), no framing anywhere, a referrer policy, a
// permissions policy (geolocation for the analysis map only from our own pages), HSTS in production, and
// Cache-Control: no-store on API answers that do not set their own caching (tokens and personal data never sit in a
// shared or disk cache). Written out here rather than through a plugin: seven headers, each one a decision.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

export function contentSecurityPolicy(config: Pick<Config, 'mapStyleUrl'>): string {
  const extra = config.mapStyleUrl ? ` ${new URL(config.mapStyleUrl).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${extra}`,
    `connect-src 'self'${extra}`,
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'mapStyleUrl' | 'env'>): void {
  const csp = contentSecurityPolicy(config);
  const production = config.env === 'production';
  app.addHook('onSend', async (req, reply) => {
    // A route may set a stricter policy of its own (stored files: default-src 'none').
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', csp);
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('permissions-policy', 'geolocation=(self), camera=(), microphone=(), payment=(), usb=()');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (production) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}
