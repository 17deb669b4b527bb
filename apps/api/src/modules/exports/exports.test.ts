// Exports through the API: CSV shape and headers, tenant scoping (another tenant's rows never appear), filters,
// formula-injection neutralising, alias expansion, 400s that name the field, batching, and the Export audit entry.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { csvCell, csvLine } from '@farmland/contracts';
import { NAME_ALIASES, resolveColumns } from './exports.define.js';

let env: TestEnv;
const marker = `exp${process.pid}${Date.now().toString(36)}`;

beforeAll(async () => {
  env = await testEnv();
  await env.sql(sql`
    INSERT INTO activity_logs (tenant_id, user_name, role, action, description, platform, country)
    VALUES (${env.fx.tenantA}, 'Alice A', 'tenant_admin', 'Create', ${`${marker} belongs to tenant A`}, 'web', 'Nigeria'),
           (${env.fx.tenantB}, 'Bola B', 'tenant_admin', 'Update', ${`${marker} belongs to tenant B`}, 'mobile', 'Nigeria'),
           (${env.fx.tenantA}, 'Mallory', 'tenant_admin', 'Update', ${`=HYPERLINK("http://evil.example","${marker} click")`}, 'web', '+234'),
           (${env.fx.tenantA}, '@SUM(A1)', 'tenant_admin', 'Update', ${`-2+3 ${marker}`}, 'web', ${'\tTab'}),
           (${env.fx.tenantA}, 'Carriage', 'tenant_admin', 'Update', ${`\r${marker} cr`}, 'web', null)`);
});

const parseLines = (csv: string) => csv.split('\r\n').filter((l) => l.length > 0);
const exportAs = (who: 'adminA' | 'adminB' | 'super' | 'agentA' | 'anonymous', body: unknown, name = 'activity-logs') =>
  env.as(who).post(`/api/base/export/${name}/`, body);

describe('POST /base/export/activity-logs/', () => {
  it('downloads activity-logs.csv with the chosen columns, as labels, in the asked order', async () => {
    const res = await exportAs('adminA', { column_list: ['description', 'user', 'timestamp'], filters: { search: marker } });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="activity-logs.csv"');
    const lines = parseLines(res.raw);
    expect(lines[0]).toBe('Description,User,Timestamp');
    expect(lines.length).toBe(1 + 4);
    expect(lines.some((l) => l.startsWith(`${marker} belongs to tenant A,Alice A,`))).toBe(true);
  });

  it("never includes another tenant's rows (tenant A, tenant B, and the provider who sees both)", async () => {
    const a = (await exportAs('adminA', { column_list: ['description'], filters: { search: `${marker} belongs` } })).raw;
    const b = (await exportAs('adminB', { column_list: ['description'], filters: { search: `${marker} belongs` } })).raw;
    const all = (await exportAs('super', { column_list: ['description', 'tenant'], filters: { search: `${marker} belongs` } })).raw;
    expect(a).toContain('belongs to tenant A');
    expect(a).not.toContain('belongs to tenant B');
    expect(b).toContain('belongs to tenant B');
    expect(b).not.toContain('belongs to tenant A');
    expect(all).toContain('belongs to tenant A');
    expect(all).toContain('belongs to tenant B');
  });

  it('neutralises cells that start with = + - @ tab or CR against formula injection', async () => {
    const res = await exportAs('adminA', { column_list: ['user', 'description', 'country'], filters: { search: marker, action: 'Update' } });
    expect(res.status).toBe(200);
    const body = res.raw;
    expect(body).toContain(`"'=HYPERLINK(""http://evil.example"",""${marker} click"")"`);
    expect(body).toContain(`'-2+3 ${marker}`);
    expect(body).toContain("'@SUM(A1)");
    expect(body).toContain("'+234");
    expect(body).toContain("'\tTab");
    expect(body).toContain(`"'\r${marker} cr"`);
    for (const line of parseLines(body).slice(1)) expect(line).not.toMatch(/(^|,)[=+\-@]/);
  });

  it('applies the list filters (action, dates) and accepts column_list as comma-separated text', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await exportAs('adminA', { column_list: 'action, user', filters: { search: marker, action: 'Create', date_after: today, date_before: today } });
    expect(res.status).toBe(200);
    expect(parseLines(res.raw)).toEqual(['Action,User', 'Create,Alice A']);
    const none = await exportAs('adminA', { column_list: ['user'], filters: { search: marker, date_before: '2000-01-01' } });
    expect(parseLines(none.raw)).toEqual(['User']);
  });

  it('answers 400 naming the field for an unknown list, column or filter', async () => {
    const list = await exportAs('adminA', { column_list: ['user'] }, 'no-such-list');
    expect(list.status).toBe(400);
    expect(list.body.errors).toEqual({ name: [expect.stringContaining('no-such-list')] });

    const col = await exportAs('adminA', { column_list: ['user', 'password_hash'] });
    expect(col.status).toBe(400);
    expect(Object.keys(col.body.errors)[0]).toBe('column_list');
    expect(col.body.errors['column_list'][0]).toContain('"password_hash"');

    const filter = await exportAs('adminA', { column_list: ['user'], filters: { tenant_id: 'x' } });
    expect(filter.status).toBe(400);
    expect(Object.keys(filter.body.errors)[0]).toBe('filters.tenant_id');

    const badValue = await exportAs('adminA', { column_list: ['user'], filters: { action: 'Drop' } });
    expect(badValue.status).toBe(400);
    expect(Object.keys(badValue.body.errors)[0]).toBe('filters.action');

    const empty = await exportAs('adminA', { column_list: [] });
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors)[0]).toBe('column_list');
  });

  it('is refused to agents and to anonymous callers', async () => {
    expect((await exportAs('agentA', { column_list: ['user'] })).status).toBe(403);
    expect((await exportAs('anonymous', { column_list: ['user'] })).status).toBe(401);
  });

  it('records the export in the activity log (action Export) in the exporting tenant', async () => {
    const caller = await env.sessionFor(env.fx.adminB);
    const res = await caller.post('/api/base/export/activity-logs/', { column_list: ['user', 'role'] }, { 'x-platform': 'web' });
    expect(res.status).toBe(200);
    const rows = await env.sql<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM activity_logs
       WHERE tenant_id = ${env.fx.tenantB} AND action = 'Export' AND platform = 'web' AND description LIKE '%exported the activity log (user, role)%'`);
    expect(rows[0]!.n).toBeGreaterThanOrEqual(1);
  });

  it('streams every row across batch boundaries, newest first', async () => {
    const bulk = `${marker}bulk`;
    await env.sql(sql`
      INSERT INTO activity_logs (tenant_id, user_name, role, action, description, platform, created_at)
      SELECT ${env.fx.tenantA}, 'Bulk', 'tenant_admin', 'Update', ${bulk} || ' #' || g, 'web', now() - (g || ' seconds')::interval
        FROM generate_series(1, 2345) AS g`);
    const res = await exportAs('adminA', { column_list: ['description'], filters: { search: bulk } });
    const lines = parseLines(res.raw);
    expect(lines.length).toBe(1 + 2345);
    expect(lines[1]).toBe(`${bulk} #1`);
    expect(lines[2345]).toBe(`${bulk} #2345`);
    expect(new Set(lines).size).toBe(lines.length);
  });
});

describe('export building blocks', () => {
  it('quotes CSV cells and neutralises formula starts, but leaves numbers alone', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', 1, true, null])).toBe('a,1,true,\r\n');
  });

  it('expands agent_name and farmer_name to first and last name, dropping duplicates', () => {
    const people = { name: 'agents', columns: ['first_name', 'last_name', 'phone_number'].map((key) => ({ key, label: key })), aliases: NAME_ALIASES };
    expect(resolveColumns(people, ['agent_name', 'phone_number'])).toEqual(['first_name', 'last_name', 'phone_number']);
    expect(resolveColumns(people, ['farmer_name', 'first_name'])).toEqual(['first_name', 'last_name']);
    expect(() => resolveColumns(people, ['agent_name', 'salary'])).toThrow(/"salary"/);
  });
});
