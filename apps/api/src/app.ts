// buildApp(deps): registers the cross-cutting plugins, then every module under /api. It never listens (server.ts does).
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from './context.js';
import { problems } from './lib/problems.js';
import { registerAuth } from './plugins/auth.js';
import { clientErrorHandler, registerErrorHandling } from './plugins/errors.js';
import { registerEmptyBody } from './plugins/empty-body.js';
import { registerInputGuard } from './plugins/input-guard.js';
import { registerPayloadEncryption } from './plugins/payload-encryption.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerOpenApi } from './plugins/openapi/index.js';
import { registerLoadShedding } from './plugins/load-shedding.js';
import { registerMetrics } from './plugins/metrics.js';
import { currentTracing, registerTracing } from './lib/tracing.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { agentsRoutes } from './modules/agents/agents.routes.js';
import { analysesRoutes } from './modules/analyses/analyses.routes.js';
import { activityRoutes } from './modules/activity/activity.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { backupRoutes } from './modules/backup/backup.routes.js';
import { baseRoutes } from './modules/base/base.routes.js';
import { exportsRoutes } from './modules/exports/exports.routes.js';
import { filesRoutes } from './modules/files/files.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { consoleConfigRoutes } from './modules/console-config/console-config.routes.js';
import { farmersRoutes } from './modules/farmers/farmers.routes.js';
import { farmsRoutes } from './modules/farms/farms.routes.js';
import { fieldRoutes } from './modules/field/field.routes.js';
import { registerFieldApp } from './modules/field/field.web.js';
import { farmTilesRoutes } from './modules/farm-tiles/farm-tiles.routes.js';
import { eudrExportRoutes } from './modules/eudr-export/eudr-export.routes.js';
import { eudrReportsRoutes } from './modules/eudr-reports/eudr-reports.routes.js';
import { farmHistoryRoutes } from './modules/farm-history/farm-history.routes.js';
import { operationalAreasRoutes } from './modules/operational-areas/operational-areas.routes.js';
import { tenantSettingsRoutes } from './modules/tenant-settings/tenant-settings.routes.js';
import { analyticsRoutes } from './modules/analytics/analytics.routes.js';
import { mailRoutes } from './modules/mail/mail.routes.js';
import { tenantsRoutes } from './modules/tenants/tenants.routes.js';
import { licensesRoutes } from './modules/licenses/licenses.routes.js';
import { referenceLayersRoutes } from './modules/reference-layers/reference-layers.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { redactUrl } from './lib/log-redaction.js';
import { rememberJti } from './modules/auth/payload-replay.queries.js';

/** Log levels at which the access line is written. */
const INFO_LEVELS = new Set(['info', 'debug', 'trace']);

export type BuildOptions = { logger?: FastifyBaseLogger; serveWeb?: boolean };

export async function buildApp(deps: Deps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    genReqId: () => crypto.randomUUID(),
    // 431 (headers too large), 408 and 400 from Node's HTTP parser, in the Problem shape (plugins/errors.ts).
    clientErrorHandler,
    // One access line per request (onResponse below) instead of Fastify's two; errors are logged by plugins/errors.ts.
    logController: new LogController({ disableRequestLogging: true }),
    // A client's own request id is trusted only behind a proxy we run (TRUST_PROXY); otherwise the server makes one.
    requestIdHeader: deps.config.trustProxy ? 'x-request-id' : false,
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('deps', deps);
  app.decorate('routeTable', [] as FastifyInstance['routeTable']);
  app.addHook('onRoute', (route) => {
    // The documentation UI's own routes (registered by @fastify/swagger-ui) are public pages.
    if (route.url.startsWith('/api/docs')) route.config = { ...route.config, access: 'public' };
    // A public route needs no token, and the OpenAPI document says so (security: [] overrides the global bearer).
    if (route.config?.access === 'public' && route.schema?.security === undefined) route.schema = { ...(route.schema ?? {}), security: [] };
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      app.routeTable.push({ method, url: route.url, access: route.config?.access, action: route.config?.action });
    }
  });
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
    reply.header('x-content-type-options', 'nosniff');
  });
  // The access line: what was asked, by whom, the answer and its time (at info; server errors are also logged with their
  // cause by plugins/errors.ts).
  app.addHook('onResponse', async (req, reply) => {
    if (!INFO_LEVELS.has(req.log.level)) return;
    req.log.info(
      {
        // The query's secret values (tokens, keys, signatures) never reach the log: lib/log-redaction.ts.
        req: { method: req.method, url: redactUrl(req.url), ip: req.ip },
        res: { statusCode: reply.statusCode },
        ...(req.ctx?.actor ? { user: req.ctx.actor.userId, tenant: req.ctx.actor.tenantId } : {}),
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app, deps.config.bodyLimit);
  // First: the document's own onRoute hook must see every route, the metrics route included.
  await registerOpenApi(app, deps.config);
  // Before authentication: a shed request costs no session lookup, and the request metrics count it.
  registerMetrics(app, deps);
  // OpenTelemetry: only when server.ts (or a test) started it (OTEL_EXPORTER_OTLP_ENDPOINT); otherwise nothing is loaded.
  const tracing = currentTracing();
  if (tracing) registerTracing(app, tracing);
  await registerLoadShedding(app, deps.config);
  registerPayloadEncryption(app, deps.config, deps.keys.payload, (jti, until) => rememberJti(deps.db, jti, until));
  registerAuth(app);
  registerInputGuard(app);
  registerEmptyBody(app);
  registerSecurityHeaders(app, deps.config);

  await app.register(cookie);
  await app.register(multipart, {
    limits: { fileSize: deps.config.uploadLimit, files: 1, fields: 50, parts: 60, fieldSize: 64 * 1024, headerPairs: 200 },
    throwFileSizeLimit: true,
  });
  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(consoleConfigRoutes);
      await api.register(authRoutes);
      await api.register(accountsRoutes);
      await api.register(agentsRoutes);
      await api.register(activityRoutes);
      await api.register(backupRoutes);
      await api.register(baseRoutes);
      await api.register(exportsRoutes);
      await api.register(filesRoutes);
      await api.register(operationalAreasRoutes);
      await api.register(farmTilesRoutes);
      await api.register(eudrExportRoutes);
      await api.register(farmHistoryRoutes);
      await api.register(farmsRoutes);
      await api.register(farmersRoutes);
      await api.register(fieldRoutes);
      await api.register(tenantSettingsRoutes);
      await api.register(analyticsRoutes);
      await api.register(mailRoutes);
      await api.register(tenantsRoutes);
      await api.register(licensesRoutes);
      await api.register(analysesRoutes);
      await api.register(referenceLayersRoutes);
      await api.register(webhooksRoutes);
      await api.register(eudrReportsRoutes);
    },
    { prefix: '/api' },
  );

  if (opts.serveWeb) {
    const webRoot = path.resolve(deps.config.webDistDir);
    const built = fs.existsSync(webRoot);
    // serve: false — @fastify/static only lends reply.sendFile; the public routes below serve every file, so no
    // route without an access rule exists (plugins/auth.ts refuses those).
    if (built) await app.register(fastifyStatic, { root: webRoot, serve: false });
    // The field app (issue 31): /field and /field/*, a 404 until its build exists (modules/field/field.web.ts).
    registerFieldApp(app, webRoot, built);
  }

  if (opts.serveWeb && fs.existsSync(path.join(deps.config.webDistDir, 'index.html'))) {
    const webRoot = path.resolve(deps.config.webDistDir);
    // The console is a single-page app: unknown non-API GETs get index.html; unknown API paths stay JSON 404s.
    app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
      let rel: string;
      try {
        rel = decodeURIComponent(req.url.split('?')[0] ?? '/').replace(/^\/+/, '');
      } catch {
        throw problems.routeNotFound();
      }
      // Unknown API paths stay JSON 404s in the error shape; only console paths fall back to the page.
      if (rel === 'api' || rel.startsWith('api/')) throw problems.routeNotFound();
      const file = path.resolve(webRoot, rel);
      const inside = file.startsWith(webRoot + path.sep);
      if (rel && inside && fs.existsSync(file) && fs.statSync(file).isFile()) {
        // Vite's assets carry a content hash in their names: cache them for good; everything else is revalidated.
        return reply.sendFile(rel, { immutable: rel.startsWith('assets/'), maxAge: rel.startsWith('assets/') ? '365d' : 0 });
      }
      // A missing hashed asset is a 404, not the page: a browser must not run HTML as a script.
      if (rel.startsWith('assets/') || (!inside && rel)) return reply.status(404).type('text/plain').send('Not found');
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html', { maxAge: 0 });
    });
  }
  return app;
}
