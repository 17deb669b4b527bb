// OpenTelemetry tracing, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. Off, nothing of OpenTelemetry is even loaded:
// no module, no hook, no cost. On, startTracing() loads the SDK lazily, exports spans over OTLP/HTTP (JSON) to
// <endpoint>/v1/traces, and the app gets one server span per request (named by method and route template, with the
// request id) in whose context the request runs; each job attempt gets its own span (analysis runs, reference-layer loads,
// their dead-letter handlers: jobSpan), and each database round trip made inside a request or a job a client span
// (statementSpan, called by db/client.ts for PostgreSQL and db/pglite-remote.ts for PGlite). pg is loaded before tracing
// can start (ESM), so @opentelemetry/instrumentation-pg cannot patch it: the spans are made by hand at the two places
// every statement passes (docs/decisions/0071-opt-in-tracing.md, docs/decisions/0080-database-and-job-spans.md).
// Type-only imports: erased at build, so they load nothing.
import type * as OtelApi from '@opentelemetry/api';
import type { Span, Tracer } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';
import type { FastifyInstance } from 'fastify';

type Api = typeof OtelApi;
export type Tracing = { api: Api; tracer: Tracer; flush(): Promise<void>; shutdown(): Promise<void> };

let active: Tracing | null = null;

/** The running tracing, or null (not configured: nothing loaded). */
export const currentTracing = (): Tracing | null => active;

/**
 * Starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (once per process); null otherwise. opts.exporter (tests): spans
 * go there, each as it ends, instead of to the endpoint in batches.
 */
export async function startTracing(
  config: { otlpEndpoint: string | null | undefined },
  serviceName = 'farmland-api',
  version = '0.0.0',
  opts: { exporter?: SpanExporter } = {},
): Promise<Tracing | null> {
  if (!config.otlpEndpoint) return null;
  if (active) return active;
  const [api, node, otlp, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const processor = opts.exporter
    ? new node.SimpleSpanProcessor(opts.exporter)
    : new node.BatchSpanProcessor(new otlp.OTLPTraceExporter({ url: `${config.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` }));
  const provider = new node.NodeTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': serviceName, 'service.version': version }),
    spanProcessors: [processor],
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

/** A job attempt as a root span of its own (a job runs outside any request): name `job <queue>`. */
export function jobSpan<T>(queue: string, attributes: Record<string, string | number>, fn: () => Promise<T>): Promise<T> {
  const t = active;
  if (!t) return fn();
  return t.api.context.with(t.api.ROOT_CONTEXT, () =>
    inSpan(`job ${queue}`, { 'messaging.system': 'pg-boss', 'messaging.destination.name': queue, ...attributes }, fn),
  );
}

/** `SELECT`, `INSERT`, `BEGIN`, … : the statement's first word, upper-cased (no value can be in it). */
const operationOf = (text: string): string => /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? 'UNKNOWN';

/**
 * One database round trip as a client span, a child of the request's or the job's span; without one (pg-boss's pollers,
 * boot), no span: a poll every second would be a trace of its own. Off (no tracing), fn runs as it is, behind one null
 * check. The statement's text is recorded only when its values travel apart from it (parameters): a text with values
 * written in (the simple-protocol reads of db/client.ts, the row-level-security scope's tenant id) is named by its
 * operation alone, so no tenant id or user value reaches a span.
 */
export function statementSpan<T>(engine: 'postgresql' | 'pglite', text: string, parameterised: boolean, fn: () => Promise<T>): Promise<T> {
  const t = active;
  if (!t || !t.api.trace.getSpan(t.api.context.active())) return fn();
  const operation = operationOf(text);
  const attributes: Record<string, string> = { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'farmland.db_engine': engine };
  if (parameterised) attributes['db.query.text'] = text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  return t.tracer.startActiveSpan(`db ${operation}`, { kind: t.api.SpanKind.CLIENT, attributes }, async (span) => {
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

/** Whether a span would be made now (tracing on, inside a request or a job): lets a caller skip building its arguments. */
export const tracingStatements = (): boolean => active !== null && active.api.trace.getSpan(active.api.context.active()) !== undefined;
