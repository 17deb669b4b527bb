// Serves the field app (issue 31) at /field and /field/* from the web build (WEB_DIST_DIR): field.html for every app path
// (a single-page app), its service worker /field/sw.js (Service-Worker-Allowed: /field/, revalidated on every load so a
// new build reaches the phones), the manifest and icons under dist/field/. Files are looked up per request, so the
// routes answer a clean 404 while no field build exists. The console's security headers apply (plugins/security-headers.ts:
// worker-src 'self' blob: for the service worker and maplibre's workers, geolocation=(self)).
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

const isFile = (p: string) => {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
};

const notFound = (reply: FastifyReply) => reply.status(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not found');

/**
 * Registers /field and /field/*. `canSend` is false when the build directory did not exist at start (no reply.sendFile):
 * then every field path is a 404.
 */
export function registerFieldApp(app: FastifyInstance, webRoot: string, canSend: boolean): void {
  const fieldDir = path.join(webRoot, 'field');
  const page = async (_req: FastifyRequest, reply: FastifyReply) => {
    if (!canSend || !isFile(path.join(webRoot, 'field.html'))) return notFound(reply);
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('field.html', { maxAge: 0, cacheControl: false });
  };
  const route = { config: { access: 'public' as const }, schema: { hide: true } };
  app.get('/field', route, page);
  app.get('/field/*', route, async (req, reply) => {
    let rel: string;
    try {
      rel = decodeURIComponent((req.params as { '*': string })['*'] ?? '');
    } catch {
      return notFound(reply);
    }
    if (rel === '') return page(req, reply);
    const file = path.resolve(fieldDir, rel);
    if (!file.startsWith(fieldDir + path.sep)) return notFound(reply);
    if (canSend && isFile(file)) {
      const type = CONTENT_TYPES[path.extname(file)];
      if (type) reply.type(type);
      if (rel === 'sw.js') reply.header('service-worker-allowed', '/field/');
      // No hash in these names (sw.js, the manifest, icons): revalidated on every load (ETag), never stale.
      return reply.header('cache-control', 'no-cache').sendFile(path.relative(webRoot, file), { maxAge: 0, cacheControl: false });
    }
    // A missing file (a name with an extension) is a 404, never the page: a browser must not run HTML as a script.
    if (path.extname(rel)) return notFound(reply);
    return page(req, reply);
  });
}
