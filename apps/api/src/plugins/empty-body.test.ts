// Body-less calls (issue 33, item 12): every write route that takes no input answers a call with no body, and one with
// an empty body under a JSON content type, exactly as it answers `{}`. Table-driven over the routes the app registered
// (plugins/empty-body.ts lists them as they are registered: body schema accepting `{}`, or no body schema at all), as
// a tenant admin and as the super-admin, each call on a fresh session (so that logout or refresh cannot spoil the next).
// Then the issue's own check: a body-less PUT …/suspend toggles the agent, both ways.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testEnv, type Res, type TestEnv } from '../test/harness.js';
import { bodylessRoutes } from './empty-body.js';

// Built before the tests are collected: the table is the routes the app registered.
const env: TestEnv = await testEnv();

const variants = {
  'no body, no content type': {},
  'empty body, JSON content type': { headers: { 'content-type': 'application/json' } },
  'blank body, JSON content type': { headers: { 'content-type': 'application/json; charset=utf-8' }, payload: ' \n' },
  '{}': { payload: {} },
} as const;

/** A body-refusal: a 400 naming the body as a whole, or an unsupported content type. */
const refusesBody = (r: Res) =>
  r.status === 415 || (r.status === 400 && (r.body?.code === 'invalid_json' || JSON.stringify(r.body?.errors ?? '').includes('"body"')));

describe('write routes without input accept a missing or empty body', () => {
  it('the table of routes holds the action routes of the spec', () => {
    const optional = [...bodylessRoutes].filter(([, kind]) => kind === 'optional').map(([route]) => route);
    expect(optional).toEqual(
      expect.arrayContaining(['PUT /api/accounts/agents/:id/suspend', 'PUT /api/accounts/users/:id/reset', 'PUT /api/base/licenses/:id/revoke/']),
    );
    expect([...bodylessRoutes.keys()]).toEqual(expect.arrayContaining(['POST /api/farms/:id/intersect']));
  });

  it.each([...bodylessRoutes].sort())('%s (%s): the same answer with no body, an empty body and {}', async (route, kind) => {
    const [method, path] = route.split(' ') as [string, string];
    const id = crypto.randomUUID();
    const url = path.replace(/:[A-Za-z_]+/g, id);
    for (const userId of [env.fx.adminA, env.fx.superId]) {
      const answers: Array<[string, Res]> = [];
      for (const [label, v] of Object.entries(variants)) {
        const caller = await env.sessionFor(userId);
        answers.push([label, await caller.request({ method: method, url, ...v })]);
      }
      const statuses = Object.fromEntries(answers.map(([label, r]) => [label, r.status]));
      const first = answers[0]![1].status;
      expect(statuses, JSON.stringify(answers.map(([l, r]) => [l, r.body]))).toEqual(Object.fromEntries(answers.map(([label]) => [label, first])));
      expect(first).toBeLessThan(500);
      if (kind === 'optional') for (const [label, r] of answers) expect(refusesBody(r), `${label}: ${JSON.stringify(r.body)}`).toBe(false);
    }
  });

  it('a body-less PUT /accounts/agents/{id}/suspend toggles the agent both ways', async () => {
    const suspended = async () => (await env.sql<{ s: boolean }>(sql`SELECT is_suspended AS s FROM users WHERE id = ${env.fx.agentB}`))[0]!.s;
    const admin = await env.sessionFor(env.fx.adminA);
    // tenant B's agent is not tenant A's: 404 with no body either.
    expect((await admin.request({ method: 'PUT', url: `/api/accounts/agents/${env.fx.agentB}/suspend` })).status).toBe(404);
    const [agent] = await env.sql<{ id: string }>(
      sql`SELECT id FROM users WHERE tenant_id = ${env.fx.tenantA} AND role = 'agent' AND id <> ${env.fx.agentA} ORDER BY created_at LIMIT 1`,
    );
    const state = async () => (await env.sql<{ s: boolean }>(sql`SELECT is_suspended AS s FROM users WHERE id = ${agent!.id}`))[0]!.s;
    const before = await state();
    const first = await admin.request({ method: 'PUT', url: `/api/accounts/agents/${agent!.id}/suspend` });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe(before ? 'Agent unsuspended successfully' : 'Agent suspended successfully');
    expect(await state()).toBe(!before);
    const second = await admin.request({ method: 'PUT', url: `/api/accounts/agents/${agent!.id}/suspend/`, headers: { 'content-type': 'application/json' } });
    expect(second.status).toBe(200);
    expect(await state()).toBe(before);
    expect(await suspended()).toBe(false);
  });

  it('a route that needs a body still refuses a missing one, naming the body', async () => {
    const admin = await env.sessionFor(env.fx.adminA);
    const res = await admin.request({ method: 'POST', url: '/api/operational-areas/', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/body/);
  });
});
