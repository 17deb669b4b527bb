// The Farmers and Agents exports (POST /base/export/farmers/ and /agents/): farmer_name and agent_name expand to first and
// last name, the lists' filters apply, and each tenant exports only its own people.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

const lines = (csv: string) =>
  csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);

describe('people exports', () => {
  it('farmers.csv: farmer_name expands, filters apply, tenant B sees none of tenant A', async () => {
    const tag = `Exp${Date.now()}`;
    const made = (await env.as('adminA').post('/api/farmers/', { first_name: tag, last_name: 'Farmer', phone_number: '+2348030000001' })).body.data;
    const res = await env
      .as('adminA')
      .post('/api/base/export/farmers/', { column_list: ['farmer_name', 'folio_id', 'phone_number', 'number_of_farm', 'status'], filters: { search: tag } });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain('farmers.csv');
    expect(lines(res.raw)).toEqual([
      "First name,Last name,Farmer's id,Phone,Number of farms,Status",
      `${tag},Farmer,${made.folio_id},'+2348030000001,0,Unmapped`,
    ]);
    // (a leading + is neutralised with an apostrophe, as every export does against spreadsheet formulas)
    const mapped = await env.as('adminA').post('/api/base/export/farmers/', { column_list: ['first_name'], filters: { search: tag, is_mapped: 'true' } });
    expect(lines(mapped.raw)).toHaveLength(1);
    const b = await env.as('adminB').post('/api/base/export/farmers/', { column_list: ['id'], filters: { search: tag } });
    expect(lines(b.raw)).toHaveLength(1);
    expect((await env.as('adminA').post('/api/base/export/farmers/', { column_list: ['first_name'], filters: { is_mapped: 'perhaps' } })).status).toBe(400);
  });

  it('agents.csv: agent_name expands; status, totals and progress as the list shows them', async () => {
    const email = `exp-${Date.now()}@test.example`;
    const a = (await env.as('adminA').post('/api/accounts/agents/', { first_name: 'Export', last_name: 'Agent', email, phone_number: '+2348030000002' })).body
      .data;
    await env.as('adminA').put(`/api/accounts/agents/${a.id}/suspend`, {});
    await env.sql(
      sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id, created_by) VALUES (${env.fx.tenantA}, 'X', 'Y', ${`EXP-${a.id}`}, ${a.id})`,
    );
    const res = await env.as('adminA').post('/api/base/export/agents/', {
      column_list: ['agent_name', 'email', 'farmers', 'mapped_farmlands', 'progress', 'status'],
      filters: { search: email },
    });
    expect(res.status).toBe(200);
    expect(lines(res.raw)).toEqual(['First name,Last name,Email,Farmers,Mapped farmlands,Progress (%),Status', `Export,Agent,${email},1,0,0,Suspended`]);
    const b = await env.as('adminB').post('/api/base/export/agents/', { column_list: ['agent_name'], filters: { search: email } });
    expect(lines(b.raw)).toHaveLength(1);
    expect((await env.as('agentA').post('/api/base/export/agents/', { column_list: ['agent_name'] })).status).toBe(403);
  });
});
