// OpenTelemetry tracing, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. Off, nothing of OpenTelemetry is even loaded:
// no module, no hook, no cost. On, startTracing() loads the SDK lazily, exports spans over OTLP/HTTP (JSON) to
// <endpoint>/v1/traces, and the app gets one server span per request (named by method and route template, with the
// request id) in whose context the request runs; analysis runs get their own span (modules/analyses/analyses.job.ts).
// Database statements have no span of their own yet: pg is loaded before tracing can start (ESM), so its
// instrumentation cannot patch it; see docs/decisions/0071-opt-in-tracing.md.
// Type-only imports: erased at build, so they load nothing.
import type * as OtelApi from '@opentelemetry/api';
import type { Span, Tracer } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';

type Api = typeof OtelApi;
export type Tracing = { api: Api; tracer: Tracer; flush(): Promise<void>; shutdown(): Promise<void> };

let active: Tracing | null = null;

/** The running tracing, or null (not configured: nothing loaded). */
export const currentTracing = (): Tracing | null => active;

/** Starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (once per process); null otherwise. */
export async function startTracing(config: { otlpEndpoint: string | null | undefined }, serviceName = 'farmland-api', version = '0.0.0'): Promise<Tracing | null> {
  if (!config.otlpEndpoint) return null;
  if (active) return active;
  const [api, node, otlp, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const exporter = new otlp.OTLPTraceExporter({ url: `${config.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new node.NodeTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': serviceName, 'service.version': version }),
    spanProcessors: [new node.BatchSpanProcessor(exporter)],
  });
  provider.register();
  active = {
    api,
    tracer: api.trace.getTracer(serviceName, version),
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      await provider.shutdown();
      api.trace.disable();
      api.context.disable();
      active = null;
    },
  };
  return active;
}

/** Runs fn in a span when tracing is on; as it is otherwise. Attributes must carry no tenant data or secret. */
export async function inSpan<T>(name: string, attributes: Record<string, string | number>, fn: () => Promise<T>): Promise<T> {
  const t = active;
  if (!t) return fn();
  return t.tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: t.api.SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** One server span per request, the request running in its context (so that spans made during it are its children). */
export function registerTracing(app: FastifyInstance, t: Tracing): void {
  const spans = new WeakMap<object, Span>();
  app.addHook('onRequest', (req, _reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const span = t.tracer.startSpan(`${req.method} ${route}`, {
      kind: t.api.SpanKind.SERVER,
      // The route template, never the path asked for (ids, signed links); the request id ties the span to the log line.
      attributes: { 'http.request.method': req.method, 'http.route': route, 'farmland.request_id': req.id },
    });
    spans.set(req, span);
    t.api.context.with(t.api.trace.setSpan(t.api.context.active(), span), done);
  });
  app.addHook('onResponse', async (req, reply) => {
    const span = spans.get(req);
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: t.api.SpanStatusCode.ERROR });
    span.end();
  });
}
