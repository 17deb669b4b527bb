// Every route × {anonymous, super-admin, admin of A, agent of A, admin of B}, each with an explicit expected status,
// generated from the app's own route table: a route without a row in authz-matrix.ts fails here. Every 4xx answer a
// probe gets must be declared for its route in the OpenAPI document: its status, and its code among the status's codes.
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../plugins/openapi/index.js';
import { matrix } from './authz-matrix.js';
import { PERSONAS, testEnv, type Caller, type Persona, type TestEnv } from './harness.js';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>> };
let env: TestEnv;
let doc: Doc;
beforeAll(async () => {
  env = await testEnv();
  doc = (await env.as('anonymous').get('/api/openapi.json')).body as Doc;
});

/** The 4xx answer is declared for the route (hidden routes, not in the document, have nothing to declare): null, or what is missing. */
function undeclared(method: string, path: string, status: number, code: unknown): string | null {
  if (status < 400 || status >= 500) return null;
  const op = doc.paths[openApiPath(path)]?.[method.toLowerCase()];
  if (!op) return null;
  const declared = op.responses[String(status)];
  if (!declared) return `${status} is not declared`;
  const codes = /Codes: ([a-z0-9_, ]+)\./.exec(declared.description ?? '')?.[1]?.split(', ') ?? [];
  return typeof code === 'string' && !codes.includes(code) ? `${status} ${code} is not among the declared codes (${codes.join(', ')})` : null;
}

const personaUser = (p: Persona): string | null =>
  ({ anonymous: null, super: env.fx.superId, adminA: env.fx.adminA, agentA: env.fx.agentA, adminB: env.fx.adminB })[p];

async function callerFor(p: Persona): Promise<Caller> {
  const user = personaUser(p);
  // A fresh session per probe: a probe that logs out or resets never disturbs the next one.
  return user ? env.sessionFor(user) : env.as('anonymous');
}

function multipartBody(m: { field: string; filename: string; content: Buffer; contentType: string; fields?: Record<string, string> }) {
  const boundary = `----matrix${Date.now()}`;
  const payload = Buffer.concat([
    ...Object.entries(m.fields ?? {}).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${m.field}"; filename="${m.filename}"\r\nContent-Type: ${m.contentType}\r\n\r\n`),
    m.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('authorization matrix', () => {
  it('has a row for every registered route, and no row for a route that does not exist', () => {
    const registered = env.app.routeTable.map((r) => `${r.method} ${r.url}`);
    const missing = registered.filter((k) => !(k in matrix));
    const stale = Object.keys(matrix).filter((k) => !registered.includes(k));
    expect(missing, 'routes without an authorization-matrix row').toEqual([]);
    expect(stale, 'matrix rows for routes that are not registered').toEqual([]);
  });

  it('declares an access rule on every route', () => {
    const open = env.app.routeTable.filter((r) => r.access === undefined);
    expect(open).toEqual([]);
  });

  it.each(Object.entries(matrix))('%s', async (key, row) => {
    const [method, path] = key.split(' ') as [string, string];
    const results: Record<string, number> = {};
    const notDeclared: string[] = [];
    for (const persona of PERSONAS) {
      const ctx = row.probe?.setup ? await row.probe.setup(env) : {};
      const url = row.probe?.url ? row.probe.url(env.fx, ctx) : path;
      const caller = await callerFor(persona);
      const mp = row.probe?.multipart ? multipartBody(row.probe.multipart) : null;
      const body = row.probe?.body?.(env.fx, ctx);
      const res = await caller.request({
        method: method,
        url,
        ...(mp ? { payload: mp.payload, headers: mp.headers } : body !== undefined ? { payload: body as object } : {}),
      });
      results[persona] = res.status;
      const missing = undeclared(method, path, res.status, (res.body as { code?: unknown } | null)?.code);
      if (missing) notDeclared.push(`${persona}: ${missing}`);
    }
    expect(results, `${key}: ${JSON.stringify(results)}`).toEqual(row.expect);
    expect(notDeclared, 'answers the OpenAPI document does not declare for this route').toEqual([]);
  });
});
