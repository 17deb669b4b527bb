// Bad input is a 4xx naming the field, never a 5xx (issue 14). Walks the route table (the OpenAPI document the app
// builds from its own route schemas, with the authorization matrix's probes as the valid baseline of each route) and
// sends every route the five classes of input that once answered 500: U+0000 and other control characters in every
// query value, path parameter and JSON text field; malformed multipart; JSON nested thousands of levels deep; polygons
// covering the globe or crossing the antimeridian; impossible calendar dates. Each answer must be a 4xx, and the server
// must log no unexpected error and no "input refused by the database" (a value that got past validation).
// Runs on both engines (the API suite runs on PGlite and on PostgreSQL).
import { afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { matrix, type Row } from './authz-matrix.js';
import { testEnv, type Caller, type Persona, type Res, type TestEnv } from './harness.js';
import { freshSpot, square } from './geo-fixtures.js';

let env: TestEnv;
/** The tests that walk every route grow with the route table (about 125 routes): a minute each, more on a loaded machine. */
const WALK_TIMEOUT = 180_000;
type OpenApiParam = { name: string; in: 'query' | 'path'; schema?: JsonSchema };
type JsonSchema = {
  type?: string | string[];
  pattern?: string;
  format?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
};
type Operation = { parameters?: OpenApiParam[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } };
let spec: { paths: Record<string, Record<string, Operation>> };

beforeAll(async () => {
  env = await testEnv();
  spec = (await env.as('anonymous').get('/api/openapi.json')).body;
});

/** After each test: nothing the server logged as an unexpected error, or as a value the database had to refuse. */
let seen = 0;
afterEach(() => {
  const lines = env.serverLog.slice(seen);
  seen = env.serverLog.length;
  const bad = lines.filter((l) => l.msg === 'unhandled error' || l.msg === 'input refused by the database');
  expect(bad.map((l) => `${l.msg}: ${l.route ?? ''} ${l.err?.message ?? ''}`)).toEqual([]);
});

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');
const operationOf = (method: string, path: string): Operation => spec.paths[openApiPath(path)]?.[method.toLowerCase()] ?? {};
const typesOf = (s: JsonSchema | undefined): string[] => {
  if (!s) return [];
  const own = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  return [...own, ...(s.anyOf ?? []).flatMap(typesOf)];
};
const isFreeText = (s: JsonSchema | undefined) => typesOf(s).includes('string') && !s?.enum;

/** The persona that passes the route's access rule (the best status of the matrix row), so validation is reached. */
function personaFor(row: Row): Persona {
  const order: Persona[] = ['adminA', 'agentA', 'super', 'adminB', 'anonymous'];
  const ok = order.filter((p) => row.expect[p] < 300);
  return ok[0] ?? 'adminA';
}

type Probe = { method: string; path: string; persona: Persona; caller: Caller; url: string; body: Record<string, unknown> | undefined; op: Operation };
const userOf = (p: Persona): string | null =>
  ({ anonymous: null, super: env.fx.superId, adminA: env.fx.adminA, agentA: env.fx.agentA, adminB: env.fx.adminB })[p];
const probes = async (filter: (method: string, path: string, row: Row) => boolean): Promise<Probe[]> => {
  const out: Probe[] = [];
  for (const [key, row] of Object.entries(matrix)) {
    const [method, path] = key.split(' ') as [string, string];
    if (!filter(method, path, row)) continue;
    const ctx = row.probe?.setup ? await row.probe.setup(env) : {};
    const url = row.probe?.url ? row.probe.url(env.fx, ctx) : path;
    const body = row.probe?.body?.(env.fx, ctx) as Record<string, unknown> | undefined;
    // A session of its own per route: a probe that signs out (or resets an account) never disturbs another.
    const persona = personaFor(row);
    const user = userOf(persona);
    const caller = user ? await env.sessionFor(user) : env.as('anonymous');
    out.push({ method, path, persona, caller, url, body, op: operationOf(method, path) });
  }
  return out;
};

const withQuery = (url: string, name: string, value: string) => {
  const u = new URL(url, 'http://local');
  u.searchParams.set(name, value);
  return `${u.pathname}${u.search}`;
};

function send(p: Probe, opts: { url?: string; body?: unknown; payload?: string | Buffer; headers?: Record<string, string> }): Promise<Res> {
  const hasBody = !['GET', 'DELETE'].includes(p.method);
  return p.caller.request({
    method: p.method,
    url: opts.url ?? p.url,
    ...(opts.payload !== undefined
      ? { payload: opts.payload, headers: opts.headers ?? { 'content-type': 'application/json' } }
      : hasBody || opts.body !== undefined
        ? { payload: opts.body ?? p.body ?? {} }
        : {}),
  });
}

/** A 4xx whose errors name the field (a 401/403/404 from the access rule does not count where validation was the point). */
function expectFieldNamed(res: Res, field: string, what: string) {
  expect(res.status, `${what}: ${res.raw.slice(0, 300)}`).toBe(400);
  // Keyed by field, each with its messages (errors.<field>[0]).
  const errors: unknown = res.body?.errors;
  const keyed = typeof errors === 'object' && errors !== null && !Array.isArray(errors) ? (errors as Record<string, unknown>) : {};
  expect(Object.keys(keyed), `${what}: ${res.raw.slice(0, 300)}`).toContain(field);
  expect(keyed[field], `${what}: ${res.raw.slice(0, 300)}`).toEqual([expect.any(String), ...(keyed[field] as string[]).slice(1).map(() => expect.any(String))]);
}

describe('class 1: NUL and control characters in text', () => {
  it(
    'every query value and path parameter: U+0000 (and a control character in free text) is a 400 naming it',
    async () => {
      let checked = 0;
      for (const p of await probes(() => true)) {
        for (const param of p.op.parameters ?? []) {
          if (param.in === 'query') {
            const nul = await send(p, { url: withQuery(p.url, param.name, 'a\u0000b') });
            expectFieldNamed(nul, param.name, `${p.method} ${p.path} ?${param.name}=NUL`);
            if (isFreeText(param.schema)) {
              const bell = await send(p, { url: withQuery(p.url, param.name, 'a\u0007b') });
              expectFieldNamed(bell, param.name, `${p.method} ${p.path} ?${param.name}=BEL`);
            }
            const surrogate = await send(p, { url: withQuery(p.url, param.name, 'a\uD800b') });
            expect(surrogate.status, `${p.method} ${p.path} ?${param.name}=lone surrogate`).toBeLessThan(500);
            checked++;
          } else if (param.in === 'path') {
            const url = p.url.split('?')[0]!;
            const segments = p.path.split('/');
            const at = segments.findIndex((s) => s.startsWith(`:${param.name}`));
            const parts = url.split('/');
            parts[at] = parts[at]!.replace(/^[^.]*/, '%00');
            const res = await send(p, { url: parts.join('/') });
            expect(res.status, `${p.method} ${p.path} :${param.name}=NUL`).toBeGreaterThanOrEqual(400);
            expect(res.status, `${p.method} ${p.path} :${param.name}=NUL`).toBeLessThan(500);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(40);
    },
    WALK_TIMEOUT,
  );

  it(
    'every JSON text field of every route: U+0000 and a control character are a 400 naming it',
    async () => {
      let checked = 0;
      for (const p of await probes((m) => m !== 'GET')) {
        const properties = p.op.requestBody?.content?.['application/json']?.schema?.properties ?? {};
        for (const [name, schema] of Object.entries(properties)) {
          if (!typesOf(schema).includes('string')) continue;
          const nul = await send(p, { body: { ...(p.body ?? {}), [name]: 'a\u0000b' } });
          expectFieldNamed(nul, name, `${p.method} ${p.path} ${name}=NUL`);
          if (isFreeText(schema)) {
            const bell = await send(p, { body: { ...(p.body ?? {}), [name]: 'a\u0007b' } });
            expectFieldNamed(bell, name, `${p.method} ${p.path} ${name}=BEL`);
          }
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(20);
    },
    WALK_TIMEOUT,
  );

  it('JSON keys, nested values and whole-string bodies with U+0000 are 400s', async () => {
    const [farmers] = await probes((m, path) => m === 'POST' && path === '/api/farmers/');
    expectFieldNamed(await send(farmers!, { body: { first_name: 'A', last_name: 'B', 'x\u0000': 1 } }), 'x\u0000', 'a key with NUL');
    expectFieldNamed(
      await send(farmers!, { body: { first_name: 'A', last_name: 'B', extra: [{ deep: ['ok', 'a\u0000'] }] } }),
      'extra.0.deep.1',
      'a nested NUL',
    );
    expectFieldNamed(await send(farmers!, { payload: JSON.stringify('a\u0000') }), 'body', 'a string body');
  });

  it('multipart text fields (farms, farmers, agents, analyses) with U+0000 or a control character are a 400 naming the field', async () => {
    const cases: [Probe, string, Record<string, string>][] = [];
    for (const p of await probes(
      (m, path) => (m === 'POST' || m === 'PUT') && /\/api\/(farms|farmers|custom-analysis|accounts\/agents)\/(:id\/)?$/.test(path),
    )) {
      const fields = Object.fromEntries(
        Object.entries(p.body ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : JSON.stringify(v)]),
      );
      delete fields['locations'];
      for (const field of p.path.includes('farmers')
        ? ['first_name', 'address']
        : p.path.includes('agents')
          ? ['first_name', 'last_name']
          : p.path.includes('custom-analysis')
            ? ['name', 'description']
            : ['name', 'gps_device_id', 'location']) {
        cases.push([p, field, { ...fields, [field]: 'a\u0000b' }]);
        cases.push([p, field, { ...fields, [field]: 'a\u0001b' }]);
      }
    }
    expect(cases.length).toBeGreaterThanOrEqual(16);
    for (const [p, field, fields] of cases) {
      const file = p.path.includes('custom-analysis')
        ? { name: 'file', filename: 'a.csv', content: 'farm_name,farm_coordinates\nx,"[[3.7,7.6],[3.701,7.6],[3.701,7.601]]"\n' }
        : null;
      const { payload, contentType } = multipart(fields, file);
      const res = await send(p, { payload, headers: { 'content-type': contentType } });
      expectFieldNamed(res, field, `${p.method} ${p.path} multipart ${field}=${JSON.stringify(fields[field])}`);
    }
  });
});

function multipart(fields: Record<string, string>, file: { name: string; filename: string; content: string } | null, boundary = 'xBoundary42') {
  const chunks = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  if (file)
    chunks.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: text/csv\r\n\r\n${file.content}\r\n`,
    );
  chunks.push(`--${boundary}--\r\n`);
  return { payload: Buffer.from(chunks.join('')), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('class 2: malformed multipart', () => {
  it('every multipart route: no boundary, a truncated body, an oversized boundary and too many parts are 400s with a stable code', async () => {
    const routes = await probes(
      (m, path, row) =>
        Boolean(row.probe?.multipart) ||
        (m === 'POST' && /\/api\/(farms|farmers|custom-analysis|accounts\/agents)\/$/.test(path)) ||
        (m === 'PUT' && /\/api\/(farms|farmers|accounts\/agents)\/:id\/$/.test(path)),
    );
    expect(routes.length).toBeGreaterThanOrEqual(6);
    // Text parts only (each route names its file field differently): cut inside the second part's value.
    const whole = multipart({ name: 'Farm', notes: 'x'.repeat(100) }, null).payload;
    const long = 'b'.repeat(300);
    const variants: [string, Buffer, string, string[]][] = [
      ['no boundary', whole, 'multipart/form-data', ['invalid_multipart']],
      ['an empty boundary', whole, 'multipart/form-data; boundary=', ['invalid_multipart']],
      ['a truncated body', whole.subarray(0, whole.length - 60), 'multipart/form-data; boundary=xBoundary42', ['invalid_multipart']],
      ['a body cut inside the headers', whole.subarray(0, 30), 'multipart/form-data; boundary=xBoundary42', ['invalid_multipart']],
      ['a 300-character boundary', multipart({ a: '1' }, null, long).payload, `multipart/form-data; boundary=${long}`, ['invalid_multipart']],
      [
        'too many parts',
        multipart(Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`f${i}`, 'v'])), null).payload,
        'multipart/form-data; boundary=xBoundary42',
        ['multipart_too_many_parts'],
      ],
      ['garbage', Buffer.from('\u0000\u0001 not multipart at all'), 'multipart/form-data; boundary=xBoundary42', ['invalid_multipart', 'validation_failed']],
    ];
    for (const p of routes) {
      for (const [what, payload, contentType, codes] of variants) {
        const res = await send(p, { payload, headers: { 'content-type': contentType } });
        expect(res.status, `${p.method} ${p.path} with ${what}: ${res.raw.slice(0, 200)}`).toBe(400);
        expect(codes, `${p.method} ${p.path} with ${what}: ${res.raw.slice(0, 200)}`).toContain(res.body.code);
      }
    }
  });
});

describe('class 3: JSON nested too deeply', () => {
  const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
  const deepList = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  it(
    'every route that takes a body: 5,000 levels of objects or of lists are a 400 (json_too_deep), before any walk',
    async () => {
      const routes = await probes((m) => m !== 'GET');
      expect(routes.length).toBeGreaterThan(25);
      for (const p of routes) {
        for (const payload of [deep(5000), deepList(5000), `{"x":${deepList(40)}}`]) {
          const res = await send(p, { payload });
          expect(res.status, `${p.method} ${p.path}: ${res.raw.slice(0, 200)}`).toBe(400);
          expect(res.body.code, `${p.method} ${p.path}`).toBe('json_too_deep');
        }
      }
    },
    WALK_TIMEOUT,
  );

  it('an analysis row with a value 5,000 levels deep is a 400 naming the row and the field', async () => {
    const [p] = await probes((m, path) => m === 'POST' && path === '/api/custom-analysis/');
    const body = p!.body as { locations: Record<string, unknown>[] };
    const payload = JSON.stringify({ ...body, locations: [body.locations[0], { farm_name: 'deep', notes: '@@' }] }).replace('"@@"', deep(5000));
    const res = await send(p!, { payload });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('json_too_deep');
    expect(Object.keys(res.body.errors)[0]).toMatch(/^locations\.1\.notes(\.a)*$/);
  });
});

describe('class 4: polygons larger than a farm or an operational area', () => {
  const globe = [
    [-180, -90],
    [180, -90],
    [180, 90],
    [-180, 90],
  ];
  const hemisphere = [
    [-90, 0],
    [90, 0],
    [90, 60],
    [-90, 60],
  ];
  const acrossAntimeridian = [
    [179.99, 10],
    [-179.99, 10],
    [-179.99, 10.01],
    [179.99, 10.01],
  ];
  const bigFarm = square(...freshSpot(), 150_000);

  it('farms and operational areas (create and edit): the globe, a hemisphere, an antimeridian ring and an oversized farm are 400s naming coordinates', async () => {
    const routes = await probes((m, path) => (m === 'POST' || m === 'PUT') && /\/api\/(farms|operational-areas)\/(:id\/)?$/.test(path));
    expect(routes.length).toBe(4);
    for (const p of routes) {
      const shapes: [string, unknown][] = [
        ['the globe', globe],
        ['a hemisphere', hemisphere],
        ['a ring across the antimeridian', acrossAntimeridian],
        ['the globe as GeoJSON', { type: 'Polygon', coordinates: [globe] }],
      ];
      if (p.path.startsWith('/api/farms')) shapes.push(['a farm 150 km across', bigFarm]);
      for (const [what, coordinates] of shapes) {
        const res = await send(p, { body: { ...(p.body ?? {}), coordinates } });
        expectFieldNamed(res, 'coordinates', `${p.method} ${p.path} with ${what}`);
        if (what.includes('antimeridian')) expect(res.body.errors.coordinates[0]).toMatch(/antimeridian/);
      }
    }
  });

  it('an operational area the size of a country is accepted', async () => {
    const [p] = await probes((m, path) => m === 'POST' && path === '/api/operational-areas/');
    // Far from the demo farms (an area takes in the farms it contains), and deleted again.
    const res = await send(p!, {
      body: {
        ...(p!.body ?? {}),
        name: 'Country-sized area',
        coordinates: [
          [-60, -40],
          [-48, -40],
          [-48, -30],
          [-60, -30],
        ],
      },
    });
    expect(res.status, res.raw.slice(0, 300)).toBe(201);
    expect((await p!.caller.delete(`/api/operational-areas/${res.body.data.id}/`)).status).toBe(200);
  });
});

describe('class 5: impossible calendar dates', () => {
  it(
    'every date query value: 2026-02-30, 2025-02-29, 0000-01-01 and 2026-13-01 are 400s naming it; 2024-02-29 is a date',
    async () => {
      let checked = 0;
      for (const p of await probes((m) => m === 'GET')) {
        for (const param of p.op.parameters ?? []) {
          if (param.in !== 'query' || !/date/.test(param.name)) continue;
          for (const bad of ['2026-02-30', '2025-02-29', '0000-01-01', '2026-13-01', '2026-04-31']) {
            expectFieldNamed(await send(p, { url: withQuery(p.url, param.name, bad) }), param.name, `${p.path} ?${param.name}=${bad}`);
          }
          const leap = await send(p, { url: withQuery(p.url, param.name, '2024-02-29') });
          expect(leap.status).toBe(200);
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(2);
    },
    WALK_TIMEOUT,
  );

  it('the export of a list checks its date filters the same way', async () => {
    const [p] = await probes((m, path) => m === 'POST' && path === '/api/base/export/:name/');
    const res = await send(p!, { body: { column_list: ['user'], filters: { date_after: '2026-02-30' } } });
    expect(res.status).toBe(400);
  });
});

describe('hostile numbers and sizes', () => {
  it(
    'every query value: huge, negative, fractional and non-numeric numbers are 4xx, never 5xx',
    async () => {
      for (const p of await probes(() => true)) {
        for (const param of p.op.parameters ?? []) {
          if (param.in !== 'query') continue;
          for (const v of [
            '1e308',
            '-1',
            '1.5',
            '99999999999999999999',
            'NaN',
            'Infinity',
            'x'.repeat(5000),
            '\\',
            'a\\',
            '%_%',
            "' OR 1=1 --",
            '\u202E\uFEFF',
            '\uFFFF',
          ]) {
            const res = await send(p, { url: withQuery(p.url, param.name, v) });
            expect(res.status, `${p.method} ${p.path} ?${param.name}=${v.slice(0, 20)}: ${res.raw.slice(0, 200)}`).toBeLessThan(500);
          }
        }
      }
    },
    WALK_TIMEOUT,
  );

  it(
    'every JSON field: values of the wrong type and oversized strings are 4xx, never 5xx',
    async () => {
      // Some of these are valid after coercion (true as a minimum farm size is 1): tenant A's configuration is put back.
      const config = (await env.as('adminA').get('/api/base/tenant-configurations')).body.data;
      onTestFinished(async () => {
        const res = await env
          .as('adminA')
          .put('/api/base/tenant-configurations', { minimum_farm_size: config.minimum_farm_size, recognition_threshold: config.recognition_threshold });
        expect(res.status).toBe(200);
      });
      for (const p of await probes((m) => m !== 'GET')) {
        const properties = Object.keys(p.op.requestBody?.content?.['application/json']?.schema?.properties ?? p.body ?? {});
        for (const name of properties) {
          for (const v of [1e308, -1, [], {}, true, 'x'.repeat(100_000), [[['deep']]], null]) {
            const res = await send(p, { body: { ...(p.body ?? {}), [name]: v } });
            expect(res.status, `${p.method} ${p.path} ${name}=${JSON.stringify(v).slice(0, 20)}: ${res.raw.slice(0, 200)}`).toBeLessThan(500);
          }
        }
      }
    },
    WALK_TIMEOUT,
  );
});
