// The worker's own port (WORKER_HEALTH_PORT): `npm run worker` has no API, so an orchestrator could not ask it whether it
// is ready, and Prometheus could not read its analysis-run metrics. This small app serves the API's own handlers for
// liveness (/api/health), readiness (/api/ready, /api/health/ready: database, migrations, file store, job runner) and
// /api/metrics (the same access rule), and nothing else: every other path is a 404. Never called by the API process.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from './context.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerMetrics } from './plugins/metrics.js';
import { healthRoutes } from './modules/health/health.routes.js';

export async function buildOpsApp(deps: Deps, opts: { logger?: FastifyBaseLogger } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: () => crypto.randomUUID(),
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();
  app.decorate('deps', deps);
  app.decorate('routeTable', [] as FastifyInstance['routeTable']);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Unknown paths: the Problem-shaped 404 of the API.
  registerErrorHandling(app, 1024);
  registerMetrics(app, deps);
  await app.register(healthRoutes, { prefix: '/api' });
  return app;
}
