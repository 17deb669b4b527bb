// The provider's agents drawer (issue 33): provider staff list and export one tenant's agents with tenant_id; a tenant
// admin naming another tenant gets a 404 on the list and an empty file on the export, never that tenant's agents.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
const lines = (csv: string) =>
  csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);

beforeAll(async () => {
  env = await testEnv();
});

describe("a tenant's agents, for provider staff", () => {
  it('lists and exports only the named tenant’s agents', async () => {
    const own = await env.sql<{ email: string }>(sql`SELECT email FROM users WHERE tenant_id = ${env.fx.tenantA} AND role = 'agent' ORDER BY email`);
    expect(own.length).toBeGreaterThan(0);
    // Every page of the list (other test files sharing this database add agents: there can be more than a page).
    const listed: string[] = [];
    for (let page = 1; ; page++) {
      const list = await env.as('super').get(`/api/accounts/agents/?tenant_id=${env.fx.tenantA}&page_size=100&page=${page}`);
      expect(list.status).toBe(200);
      const results = list.body.data.results as Array<{ email: string }>;
      listed.push(...results.map((a) => a.email));
      if (results.length < 100 || !list.body.data.next) break;
    }
    expect(listed.sort()).toEqual(own.map((a) => a.email));
    const res = await env.as('super').post('/api/base/export/agents/', { column_list: ['email'], filters: { tenant_id: env.fx.tenantA } });
    expect(res.status).toBe(200);
    expect(lines(res.raw).slice(1).sort()).toEqual(own.map((a) => a.email));
    // Another tenant's admin: 404 on the list, an empty file on the export
    expect((await env.as('adminB').get(`/api/accounts/agents/?tenant_id=${env.fx.tenantA}`)).status).toBe(404);
    const foreign = await env.as('adminB').post('/api/base/export/agents/', { column_list: ['email'], filters: { tenant_id: env.fx.tenantA } });
    expect(foreign.status).toBe(200);
    expect(lines(foreign.raw)).toEqual(['Email']);
    expect((await env.as('super').post('/api/base/export/agents/', { column_list: ['email'], filters: { tenant_id: 'nope' } })).status).toBe(400);
  });
});
