// GET /analytics/agent-ranking/ (issue 33): the tenant's agents ranked on the server over all of them, by farms mapped
// then area mapped, checked against the farms themselves (not the rollup the route reads) with 130 agents, where the
// leaders are the oldest agents (beyond the first 100 of the newest-first agents list the console used to sort).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../../test/fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;

beforeAll(async () => {
  env = await testEnv();
});

describe('GET /analytics/agent-ranking/', () => {
  it('ranks all 130 agents of a tenant by farms mapped, then area, and answers the top 10 (or limit)', async () => {
    const t = await makeTenant(env);
    const admin = await makeUser(env, { tenantId: t.id, role: 'tenant_admin' });
    const caller = await env.sessionFor(admin.id);
    // Agent g is g minutes old: the newest-first agents list puts agents 1..100 on its first 100 rows.
    const agents = await env.sql<{ id: string; g: number }>(sql`
      INSERT INTO users (tenant_id, role, email, first_name, last_name, created_at)
      SELECT ${t.id}, 'agent', 'rank-' || ${t.id} || '-' || g || '@test.example', 'Rank', 'Agent ' || lpad(g::text, 3, '0'), now() - g * interval '1 minute'
        FROM generate_series(1, 130) g
      RETURNING id, (regexp_replace(last_name, '\\D', '', 'g'))::int AS g`);
    expect(agents).toHaveLength(130);
    const [farmer] = await env.sql<{ id: string }>(
      sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${t.id}, 'Ranked', 'Farmer', ${`RANK-${t.id}`}) RETURNING id`,
    );
    // Agents 116..130 map floor((g - 110) / 2) farms (ties between neighbours, broken by area: 1000 + g sqm a farm);
    // the others 0 to 2.
    await env.sql(sql`
      INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm, mapped_by)
      SELECT ${t.id}, ${farmer!.id}, 'Ranked farm ' || a.g || '-' || k,
             ST_MakeEnvelope(4 + a.g * 0.01, 9 + k * 0.001, 4 + a.g * 0.01 + 0.0005, 9 + k * 0.001 + 0.0005, 4326), 1000 + a.g, a.id
        FROM jsonb_to_recordset(${JSON.stringify(agents)}::jsonb) AS a(id uuid, g int)
        CROSS JOIN LATERAL generate_series(1, CASE WHEN a.g > 115 THEN (a.g - 110) / 2 ELSE a.g % 3 END) k`);

    // The reference: the farms themselves, grouped by agent
    const expected = await env.sql<{ id: string; farms: number; area: number }>(sql`
      SELECT u.id, count(f.id)::int AS farms, coalesce(sum(f.area_sqm), 0)::float8 AS area
        FROM users u LEFT JOIN farms f ON f.mapped_by = u.id AND f.tenant_id = ${t.id}
       WHERE u.tenant_id = ${t.id} AND u.role = 'agent'
       GROUP BY u.id, u.first_name, u.last_name
       ORDER BY count(f.id) DESC, coalesce(sum(f.area_sqm), 0) DESC, u.first_name, u.last_name, u.id`);
    const byId = new Map(agents.map((a) => [a.id, a.g]));
    expect(expected.slice(0, 10).map((e) => byId.get(e.id))).toEqual([130, 129, 128, 127, 126, 125, 124, 123, 122, 121]);

    const res = await caller.get('/api/analytics/agent-ranking/');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.total_agents).toBe(130);
    const top = res.body.data.results as Array<{
      rank: number;
      id: string;
      agent_name: string;
      mapped_farms_count: number;
      total_mapped_area: number;
      farmers_count: number;
      progress: number;
    }>;
    expect(top.map((r) => r.id)).toEqual(expected.slice(0, 10).map((e) => e.id));
    expect(top.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(top[0]).toMatchObject({ agent_name: 'Rank Agent 130', mapped_farms_count: 10, total_mapped_area: 11_300, farmers_count: 0, progress: 0 });
    // Neighbours with the same count are ordered by area
    expect([top[1]!.mapped_farms_count, top[2]!.mapped_farms_count]).toEqual([9, 9]);
    expect(top[1]!.total_mapped_area).toBeGreaterThan(top[2]!.total_mapped_area);
    // None of the leaders is on the first 100 rows of the agents list (the page the console used to sort)
    const page = await caller.get('/api/accounts/agents/?page_size=100');
    const firstHundred = new Set((page.body.data.results as Array<{ id: string }>).map((a) => a.id));
    expect(top.filter((r) => firstHundred.has(r.id))).toEqual([]);

    const more = await caller.get('/api/analytics/agent-ranking/?limit=25');
    expect((more.body.data.results as Array<{ id: string }>).map((r) => r.id)).toEqual(expected.slice(0, 25).map((e) => e.id));
    expect((await caller.get('/api/analytics/agent-ranking/?limit=101')).status).toBe(400);
    expect((await caller.get('/api/analytics/agent-ranking/?limit=0')).status).toBe(400);
  });

  it("shows a tenant admin only its own agents: another tenant's ranking is a 404, an agent gets 403", async () => {
    const a = await env.as('adminA').get('/api/analytics/agent-ranking/');
    expect(a.status).toBe(200);
    const [own] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM users WHERE tenant_id = ${env.fx.tenantA} AND role = 'agent'`);
    expect(a.body.data.total_agents).toBe(own!.n);
    const ids = (a.body.data.results as Array<{ id: string }>).map((r) => r.id);
    const foreign = await env.sql<{ id: string }>(
      sql`SELECT id FROM users WHERE role = 'agent' AND tenant_id <> ${env.fx.tenantA} AND id = ANY(${`{${ids.join(',')}}`}::uuid[])`,
    );
    expect(foreign).toEqual([]);
    expect((await env.as('adminA').get(`/api/analytics/agent-ranking/?tenant_id=${env.fx.tenantB}`)).status).toBe(404);
    expect((await env.as('agentA').get('/api/analytics/agent-ranking/')).status).toBe(403);
    const superB = await env.as('super').get(`/api/analytics/agent-ranking/?tenant_id=${env.fx.tenantB}`);
    expect(superB.status).toBe(200);
  });
});
