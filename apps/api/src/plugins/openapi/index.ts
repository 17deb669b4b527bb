// The OpenAPI document, completed in one place: @fastify/swagger builds it from the routes' zod schemas, then
// completeDocument() gives every operation its operationId (operations.ts, a hand-kept table) and its 4xx answers in the
// one Problem shape of plugins/errors.ts, each listing the codes the route can answer (lib/problems.ts is the catalogue).
// Route files stay as they are: nothing here needs a module to change.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { version } from '../../version.js';
import { operations } from './operations.js';

/** What the document needs to know of a route that the document itself does not carry. */
type RouteFacts = { access: unknown; hasQuery: boolean; hasParams: boolean; hasBody: boolean; namesTenant: boolean };

/** The Problem body every error answer has (plugins/errors.ts). */
export const problemSchema = {
  type: 'object',
  description: 'Every error answer. code is stable (the catalogue lib/problems.ts); message is for people; errors names the fields at fault.',
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', description: 'A stable machine-readable code, e.g. validation_failed, not_found, forbidden.', examples: ['validation_failed'] },
    message: { type: 'string', description: 'A sentence for people, in English.' },
    errors: {
      description: 'Field errors keyed by field, each with its messages in order (errors.<field>[0]); or one text that is about no field.',
      oneOf: [{ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }, { type: 'string' }],
    },
    request_id: { type: 'string', description: 'The request id (also in the x-request-id header), on 5xx answers and values the database refused.' },
  },
} as const;

const STATUS_TEXT: Record<number, string> = {
  400: 'The request is malformed or a field is invalid',
  401: 'No valid credentials (bearer token, or SDK license key where accepted)',
  403: 'The caller may not do this',
  404: 'No such record (a record of another tenant looks the same)',
  409: 'A conflict with the current state; nothing was changed',
  413: 'The body is larger than the limit',
  415: 'The content type is not accepted here',
  431: 'The request headers are too large (16 KB in all)',
  429: 'Too many requests; see Retry-After',
  503: 'Overloaded or a dependency is down; see Retry-After',
};

/** Codes every route of a kind can answer (plugins/errors.ts, plugins/auth.ts, plugins/payload-encryption.ts, load shedding). */
const GENERIC = {
  400: ['validation_failed', 'invalid_json', 'bad_request', 'invalid_value'],
  body400: [
    'payload_encryption_required',
    'payload_client_key_required',
    'payload_key_unknown',
    'payload_misdirected',
    'payload_undecryptable',
    'payload_unbound',
    'payload_stale',
    'payload_session_mismatch',
  ],
  401: ['not_authenticated'],
  403: ['forbidden', 'account_suspended', 'tenant_inactive', 'tenant_suspended', 'license_revoked', 'license_expired'],
  404: ['not_found'],
  409: ['transaction_conflict'],
  body409: ['payload_replayed'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  431: ['header_too_large'],
  503: ['overloaded', 'storage_unavailable'],
} as const;

/** Routes never shed under load (plugins/load-shedding.ts): they report on the server itself. */
export const UNSHED_ROUTES = new Set(['/api/health', '/api/health/ready', '/api/ready', '/api/metrics']);

/** The Idempotency-Key header of the capture API's create routes (modules/idempotency/idempotency.ts). */
export const idempotencyKeyParameter = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes a retry safe: the same key with the same body answers the first answer again (header Idempotent-Replayed: true) ' +
    'instead of creating a second record; the key with another body is 409 idempotency_key_reused, while the first request ' +
    'still runs 409 idempotency_key_in_progress (Retry-After). Kept 24 hours, per tenant and caller. A UUID per queued item is usual.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
  example: '3f1c2a9e-6d1b-4c7e-9a55-0b8e2f4d7c10',
} as const;

/** `/api/farms/:id/` → `/api/farms/{id}/`, as @fastify/swagger writes paths. */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

/** The error statuses and codes a route can answer, from its kind (access, parts) and its row in operations.ts. */
export function errorCodes(method: string, url: string, facts: RouteFacts): Map<number, string[]> {
  const out = new Map<number, Set<string>>();
  const add = (status: number, codes: readonly string[]) => {
    const set = out.get(status) ?? new Set<string>();
    for (const c of codes) set.add(c);
    out.set(status, set);
  };
  const writes = method !== 'GET' && method !== 'DELETE';
  if (facts.hasQuery || facts.hasParams || facts.hasBody || writes) add(400, GENERIC[400]);
  if (writes) {
    add(400, GENERIC.body400);
    add(409, [...GENERIC[409], ...GENERIC.body409]);
    add(413, GENERIC[413]);
    add(415, GENERIC[415]);
  } else if (method === 'DELETE') add(409, GENERIC[409]);
  if (facts.access !== 'public') {
    add(401, GENERIC[401]);
    add(403, GENERIC[403]);
  }
  // A record named in the path, or a tenant named by provider staff (tenant_id), may not exist.
  if (facts.hasParams || facts.namesTenant) add(404, GENERIC[404]);
  // Node's HTTP parser answers oversized headers before any route runs (plugins/errors.ts clientErrorHandler).
  add(431, GENERIC[431]);
  if (!UNSHED_ROUTES.has(url)) add(503, GENERIC[503]);
  for (const [status, codes] of Object.entries(operations[`${method} ${url}`]?.codes ?? {})) add(Number(status), codes);
  return new Map([...out].sort((a, b) => a[0] - b[0]).map(([s, set]) => [s, [...set]]));
}

type Operation = { operationId?: string; responses?: Record<string, unknown>; [k: string]: unknown };
type Doc = { paths?: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } };

function completeDocument(doc: Doc, facts: Map<string, RouteFacts>): Doc {
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, Problem: problemSchema } };
  const byPath = new Map<string, { method: string; url: string; facts: RouteFacts }>();
  for (const [key, f] of facts) {
    const [method, url] = key.split(' ') as [string, string];
    byPath.set(`${method.toLowerCase()} ${openApiPath(url)}`, { method, url, facts: f });
  }
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const [m, op] of Object.entries(item)) {
      const route = byPath.get(`${m} ${p}`);
      if (!route) continue;
      const row = operations[`${route.method} ${route.url}`];
      if (row) op.operationId = row.id;
      if (row?.body && !op['requestBody']) {
        // What the client sends (the schema's input side): JSON, or the same fields as multipart/form-data.
        const schema = z.toJSONSchema(row.body, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
        delete schema['$schema'];
        op['requestBody'] = {
          required: true,
          content: {
            'application/json': { schema },
            'multipart/form-data': {
              schema: {
                type: 'object',
                description: 'The same fields as the JSON body (objects and arrays as JSON text), and the files the operation describes.',
              },
            },
          },
        };
      }
      if (row?.idempotencyKey) {
        const params = (op['parameters'] as Array<{ in: string; name: string }> | undefined) ?? [];
        if (!params.some((p) => p.in === 'header' && p.name === idempotencyKeyParameter.name)) op['parameters'] = [...params, idempotencyKeyParameter];
      }
      // Capture routes that take an SDK license key say so: a bearer token or the key (plugins/auth.ts).
      if (Array.isArray(route.facts.access) && route.facts.access.includes('sdk_license')) op['security'] = [{ bearer: [] }, { licenseKey: [] }];
      const responses = (op.responses ??= {});
      for (const [status, codes] of errorCodes(route.method, route.url, route.facts)) {
        // A route's own declared answer for the status (the health check's 503 body) stays.
        if (responses[String(status)]) continue;
        responses[String(status)] = {
          description: `${STATUS_TEXT[status] ?? 'Error'}. Codes: ${codes.join(', ')}.`,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } },
        };
      }
    }
  }
  return doc;
}

/** Whether a zod object schema (or one wrapped in optional, default, pipe or effects) has the key. */
function hasKey(schema: unknown, key: string, depth = 0): boolean {
  if (!schema || typeof schema !== 'object' || depth > 5) return false;
  const z = schema as { shape?: Record<string, unknown>; def?: { innerType?: unknown; in?: unknown; schema?: unknown } };
  if (z.shape && typeof z.shape === 'object') return key in z.shape;
  return hasKey(z.def?.innerType ?? z.def?.in ?? z.def?.schema, key, depth + 1);
}

export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  const facts = new Map<string, RouteFacts>();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const s = (route.schema ?? {}) as Record<string, unknown>;
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      facts.set(`${method} ${route.url}`, {
        access: route.config?.access,
        hasQuery: s['querystring'] !== undefined,
        hasParams: route.url.includes(':'),
        hasBody: s['body'] !== undefined,
        namesTenant: hasKey(s['querystring'], 'tenant_id') || hasKey(s['body'], 'tenant_id'),
      });
    }
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Farmland-mapping platform API',
        version,
        description:
          'Every error answer is a Problem (components.schemas.Problem) with a stable code; each operation lists the codes it can answer. A client for TypeScript is in packages/sdk.',
        license: { name: 'Proprietary: licensed to tenants by the service provider' },
      },
      servers: [{ url: config.publicUrl, description: 'This deployment (PUBLIC_URL)' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          licenseKey: { type: 'apiKey', in: 'header', name: 'X-License-Key', description: "A tenant's SDK license key, on the capture routes that accept it" },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (documentObject) =>
      completeDocument(('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject) as Doc, facts) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
