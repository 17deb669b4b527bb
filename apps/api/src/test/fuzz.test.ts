// A generative fuzz of the whole API (issue 17): requests built by fast-check from the OpenAPI document the app makes of
// its own route schemas: every route, its query values, its path parameters (our own ids, the other tenant's ids, random
// ids, hostile text) and JSON bodies generated from each body schema, with hostile values mixed in (huge strings, deep
// nesting, NaN-like text, out-of-range coordinates, bow-ties, SQL, prototype keys, control characters). Sent as the five
// personas. Every answer must be below 500, the server must log no unexpected error, and no tenant persona's answer may
// contain an id of the other tenant's records. Runs on both engines in CI.
//
// It must not disturb the other test files sharing this worker's database, so: the personas' own records are only ever
// read (writes aim at the other tenant's ids, which must be refused, or at random ids), the tenant configuration is not
// written, and routes that end a session get a session of their own.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { matrix } from './authz-matrix.js';
import { testEnv, type Caller, type Persona, type TestEnv } from './harness.js';

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
};
type Operation = { parameters?: { name: string; in: string; schema?: JsonSchema }[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } };

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 10_000);
/** Routes that end or reset the caller's own session or account: each such request gets a fresh session. */
const SESSION_ENDING = /\/auth\/logout\/|\/reset-mfa\/|\/users\/:id\/reset|\/password\/update\//;
/** Writes that change a tenant as a whole: only invalid bodies are sent (other tests read the configuration). */
const TENANT_WRITES = new Set(['PUT /api/base/tenant-configurations']);

let env: TestEnv;
let spec: { paths: Record<string, Record<string, Operation>> };
let ids: { a: string[]; b: string[] };
const callers = new Map<Persona, Caller>();
const userOf = (p: Persona): string | null =>
  ({ anonymous: null, super: env.fx.superId, adminA: env.fx.adminA, agentA: env.fx.agentA, adminB: env.fx.adminB })[p];

async function tenantIds(tenantId: string): Promise<string[]> {
  const rows = await env.sql<{ id: string }>(sql`
    SELECT id::text FROM farms WHERE tenant_id = ${tenantId}
    UNION ALL SELECT id::text FROM farmers WHERE tenant_id = ${tenantId}
    UNION ALL SELECT id::text FROM operational_areas WHERE tenant_id = ${tenantId}
    UNION ALL SELECT id::text FROM custom_analyses WHERE tenant_id = ${tenantId}
    UNION ALL SELECT id::text FROM regions WHERE tenant_id = ${tenantId}
    UNION ALL SELECT id::text FROM users WHERE tenant_id = ${tenantId}`);
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  env = await testEnv();
  spec = (await env.as('anonymous').get('/api/openapi.json')).body;
  ids = { a: await tenantIds(env.fx.tenantA), b: await tenantIds(env.fx.tenantB) };
  for (const p of ['anonymous', 'super', 'adminA', 'agentA', 'adminB'] as Persona[]) {
    const u = userOf(p);
    callers.set(p, u ? await env.sessionFor(u) : env.as('anonymous'));
  }
}, 180_000);

// ---------- values ----------
const hostileText = fc.constantFrom(
  '',
  ' ',
  'a\u0000b',
  '\u0007',
  '\uD800',
  '\u202E\uFEFF',
  'x'.repeat(70_000),
  "' OR 1=1 --",
  '%_\\',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-0',
  '1e999',
  '2026-02-30',
  '0000-00-00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '{"$gt":""}',
  'POLYGON((0 0,1 1,1 0,0 1,0 0))',
  '00000000-0000-0000-0000-000000000000',
);
const hostileNumber = fc.constantFrom(0, -1, -0, 1.5, 1e308, -1e308, 2 ** 31, 2 ** 53 + 1, 99999999999);
const ring = fc.constantFrom(
  [
    [-180, -90],
    [180, -90],
    [180, 90],
    [-180, 90],
  ],
  [
    [3.77, 7.64],
    [3.78, 7.65],
    [3.78, 7.64],
    [3.77, 7.65],
  ],
  [
    [179.99, 10],
    [-179.99, 10],
    [-179.99, 10.01],
  ],
  [
    [0, 90],
    [90, 90],
    [180, 90],
  ],
  [
    [3.77, 7.64],
    [3.77, 7.64],
    [3.77, 7.64],
  ],
  [
    [1e308, 1],
    [2, 2],
    [3, 3],
  ],
  [
    [200, 100],
    [201, 100],
    [201, 101],
  ],
  [[3.77, 7.64]],
);
const deep = fc.integer({ min: 30, max: 3000 }).map((n) => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = [v];
  return v;
});
const protoKeys = fc.constantFrom({ ['__proto__']: { admin: true } }, { constructor: { prototype: { x: 1 } } });
const anyHostile: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  hostileNumber,
  ring,
  deep,
  protoKeys,
  fc.constant(null),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
);

/** A value for a JSON schema: usually one that fits it, sometimes a hostile one. */
function valueFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return anyHostile;
  const fitting = (): fc.Arbitrary<unknown> => {
    if (schema.enum?.length) return fc.constantFrom(...schema.enum);
    if (schema.anyOf?.length) return fc.oneof(...schema.anyOf.map((s) => valueFor(s, depth + 1)));
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'string':
        if (schema.format === 'uuid') return fc.oneof(fc.uuid(), fc.constantFrom(...ids.a.slice(0, 20), ...ids.b.slice(0, 20)));
        if (schema.format === 'email') return fc.emailAddress();
        return fc.string({ maxLength: schema.maxLength ?? 40 });
      case 'integer':
        return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
      case 'number':
        return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(valueFor(schema.items, depth + 1), { maxLength: 4 });
      case 'object':
        return bodyFor(schema, depth + 1);
      default:
        return fc.oneof(ring, fc.string(), fc.integer());
    }
  };
  return fc.oneof({ weight: 4, arbitrary: fitting() }, { weight: 1, arbitrary: anyHostile });
}

function bodyFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const props = schema?.properties ?? {};
  const entries = Object.entries(props);
  if (entries.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), anyHostile, { maxKeys: 3 });
  return fc.record(Object.fromEntries(entries.map(([k, s]) => [k, valueFor(s, depth)])), { requiredKeys: [] });
}

// ---------- requests ----------
type Req = { persona: Persona; method: string; url: string; body?: unknown; raw?: string };

function routeArb(key: string): fc.Arbitrary<Req> {
  const [method, path] = key.split(' ') as [string, string];
  const op: Operation = spec.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()] ?? {};
  const pathParams = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const query = (op.parameters ?? []).filter((p) => p.in === 'query');
  const body = op.requestBody?.content?.['application/json']?.schema;
  const reading = method === 'GET';
  const persona = fc.constantFrom<Persona>('anonymous', 'super', 'adminA', 'agentA', 'adminB');
  return persona.chain((who) => {
    // Writes never aim at records the caller may change: a tenant persona writes to the other tenant's ids (which must
    // be refused), provider staff (who may change any tenant) only to random ids; reads go anywhere.
    const own = who === 'adminB' ? ids.b : ids.a;
    const other = who === 'adminB' ? ids.a : ids.b;
    const targets = reading ? [...own.slice(0, 30), ...other.slice(0, 30)] : who === 'super' ? [] : other.slice(0, 30);
    const idValue = fc.oneof(
      fc.uuid(),
      hostileText.map((s) => s.slice(0, 200)),
      ...(targets.length ? [fc.constantFrom(...targets)] : []),
    );
    const tile = fc.oneof(
      fc.integer({ min: -5, max: 30 }).map(String),
      hostileText.map((s) => s.slice(0, 50)),
    );
    const params = fc.tuple(
      ...pathParams.map((n) =>
        ['z', 'x', 'y'].includes(n) ? tile : n === 'name' ? fc.oneof(fc.constantFrom('activity-logs', 'farms', 'mappings'), hostileText) : idValue,
      ),
    );
    const q = fc.array(
      fc.oneof(
        ...(query.length ? [fc.constantFrom(...query).chain((p) => fc.tuple(fc.constant(p.name), fc.oneof(valueFor(p.schema).map(String), hostileText)))] : []),
        fc.tuple(fc.string({ maxLength: 10 }), hostileText),
      ),
      { maxLength: 3 },
    );
    const jsonBody = reading
      ? fc.constant(undefined)
      : TENANT_WRITES.has(key)
        ? fc.oneof(anyHostile, fc.constant({ minimum_farm_size: -5 }))
        : fc.oneof({ weight: 5, arbitrary: bodyFor(body) }, { weight: 1, arbitrary: anyHostile });
    const raw = reading ? fc.constant(undefined) : fc.option(fc.constantFrom('{', '[1,', '"\\u0000"', '{"a":1}}', '\uFEFF{}', 'null'), { freq: 8 });
    return fc.tuple(params, q, jsonBody, raw).map(([ps, qs, b, r]) => {
      let url = path;
      const enc = (v: string) => {
        try {
          return encodeURIComponent(v).replace(/\./g, '%2E');
        } catch {
          return '%ED%A0%80'; // a lone surrogate, as raw bytes
        }
      };
      pathParams.forEach((n, i) => (url = url.replace(`:${n}`, enc(String(ps[i])))));
      const search = new URLSearchParams();
      for (const [k, v] of qs) {
        try {
          search.append(k, v);
        } catch {
          search.append(k, 'x');
        }
      }
      const qstr = search.toString();
      return { persona: who, method, url: `${url}${qstr ? `?${qstr}` : ''}`, ...(b !== undefined ? { body: b } : {}), ...(r ? { raw: r } : {}) };
    });
  });
}

async function send(req: Req) {
  const persona = req.persona;
  const endsSession = SESSION_ENDING.test(req.url) || SESSION_ENDING.test(req.method + ' ' + req.url);
  const caller = endsSession && persona !== 'anonymous' ? await env.sessionFor(userOf(persona)!) : callers.get(persona)!;
  const payload = req.raw ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
  return caller.request({
    method: req.method,
    url: req.url,
    ...(payload !== undefined ? { payload, headers: { 'content-type': 'application/json' } } : {}),
  });
}

describe('generative fuzz of every route', () => {
  it(`answers ${RUNS} generated requests as five personas with no 5xx and no other tenant's ids`, async () => {
    const keys = Object.keys(matrix).filter((k) => !k.startsWith('GET /api/openapi.json'));
    const seenStart = env.serverLog.length;
    let sent = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...keys).chain(routeArb), async (req) => {
        const res = await send(req);
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) {
          const err: { message?: string; stack?: string } | undefined = env.serverLog.filter((l) => l.msg === 'unhandled error').pop()?.err;
          expect.fail(
            `${req.persona} ${req.method} ${req.url.slice(0, 200)} ${String(req.raw ?? JSON.stringify(req.body) ?? '').slice(0, 200)}: ${res.raw.slice(0, 200)}; server: ${err?.stack?.slice(0, 600) ?? err?.message}`,
          );
        }
        if (req.persona === 'adminA' || req.persona === 'agentA' || req.persona === 'adminB') {
          const foreign = req.persona === 'adminB' ? ids.a : ids.b;
          const text = res.raw;
          const leak =
            text.length < 5_000_000
              ? foreign.find((id) => text.includes(id) && !req.url.includes(id) && !String(req.raw ?? JSON.stringify(req.body ?? '')).includes(id))
              : undefined;
          expect(leak, `${req.persona} ${req.method} ${req.url.slice(0, 200)} answered another tenant's id`).toBeUndefined();
        }
      }),
      { numRuns: RUNS, seed: Number(process.env['FUZZ_SEED'] ?? 20261123), endOnFailure: true },
    );
    const bad = env.serverLog.slice(seenStart).filter((l) => l.msg === 'unhandled error');
    expect(bad.map((l) => l.err?.message)).toEqual([]);
    expect(sent).toBe(RUNS);
    // What the fuzz reached (a fuzz that only ever got 401s would prove nothing).
    const ok = [...statuses.entries()].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0);
    const refused = [...statuses.entries()].filter(([s]) => s >= 400).reduce((n, [, c]) => n + c, 0);
    console.log(
      `fuzz: ${sent} requests; statuses ${[...statuses.entries()]
        .sort((x, y) => x[0] - y[0])
        .map(([st, c]) => `${st}×${c}`)
        .join(' ')}`,
    );
    expect(ok).toBeGreaterThan(RUNS / 20);
    expect(refused).toBeGreaterThan(RUNS / 4);
  }, 600_000);
});
