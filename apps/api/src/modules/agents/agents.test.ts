// Agents through the API: create (JSON and multipart with a photo checked by content) with its onboarding mail, the list
// with totals and progress, edit, suspend/unsuspend (sessions end, capture refused with a code), account reset, delete,
// bulk upload with every cell's errors, and tenant isolation.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { multipart, PNG_BYTES, freshSpot, insertFarmDirect, square, tenantGeo, type TenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type Caller, type TestEnv } from '../../test/harness.js';
import { progressOf } from './agents.presenter.js';

let env: TestEnv;
let geoA: TenantGeo;
let geoB: TenantGeo;
let seq = 0;
const email = () => `agent-${process.pid}-${Date.now()}-${++seq}@test.example`;

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
  geoB = await tenantGeo(env, env.fx.tenantB);
});

const newAgent = async (over: Record<string, unknown> = {}) => {
  const res = await env
    .as('adminA')
    .post('/api/accounts/agents/', { first_name: 'Ada', last_name: 'Field', email: email(), phone_number: '+2348031112222', gender: 'Female', ...over });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; email: string };
};

function upload(caller: Caller, url: string, filename: string, content: Buffer | string) {
  const mp = multipart({}, [{ field: 'file', filename, content: Buffer.from(content), type: 'text/csv' }]);
  return caller.request({ method: 'POST', url, payload: mp.payload, headers: mp.headers });
}

describe('agents', () => {
  it('creates an agent as JSON, mails an onboarding link, and lists it with zero totals', async () => {
    const a = await newAgent({ operational_area_id: geoA.areaId });
    const one = await env.as('adminA').get(`/api/accounts/agents/${a.id}/`);
    expect(one.body.data).toMatchObject({
      agent_name: 'Ada Field',
      operational_area_id: geoA.areaId,
      is_suspended: false,
      farmers_count: 0,
      mapped_farms_count: 0,
      total_mapped_area: 0,
      progress: 0,
    });
    const [user] = await env.sql<{ role: string; tenant_id: string; password_hash: string | null }>(
      sql`SELECT role, tenant_id, password_hash FROM users WHERE id = ${a.id}`,
    );
    expect(user).toEqual({ role: 'agent', tenant_id: env.fx.tenantA, password_hash: null });
    const mail = await env.sql<{ body: string }>(sql`SELECT body FROM outbox_emails WHERE to_address = ${a.email}`);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body).toMatch(/onboarding#signed_key=/);
    const list = await env.as('adminA').get(`/api/accounts/agents/?search=${encodeURIComponent(a.email)}`);
    expect(list.body.data.count).toBe(1);
    expect(list.body.data.results[0].id).toBe(a.id);
  });

  it('the onboarding link sets a password and the agent can sign in', async () => {
    const a = await newAgent();
    const [mail] = await env.sql<{ body: string }>(sql`SELECT body FROM outbox_emails WHERE to_address = ${a.email}`);
    const key = decodeURIComponent(/signed_key=([^\s]+)/.exec(mail!.body)![1]!);
    const accept = await env.as('anonymous').post(`/api/onboarding/tenant-admin/?signed_key=${encodeURIComponent(key)}`, { password: 'Agent-Password-1' });
    expect(accept.status, JSON.stringify(accept.body)).toBe(200);
    const login = await env.as('anonymous').post('/api/auth/login/', { email: a.email, password: 'Agent-Password-1' });
    expect(login.status).toBe(200);
  });

  it('creates one as multipart with a photo checked by content; a fake image is a 400 on image', async () => {
    const fields = { first_name: 'Pic', last_name: 'Agent', email: email(), phone_number: '08031234567' };
    const ok = multipart(fields, [{ field: 'image', filename: 'me.png', content: PNG_BYTES, type: 'image/png' }]);
    const res = await env.as('adminA').request({ method: 'POST', url: '/api/accounts/agents/', payload: ok.payload, headers: ok.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.image).toMatch(/\/api\/files\//);
    const bad = multipart({ ...fields, email: email() }, [
      { field: 'image', filename: 'x.png', content: Buffer.from('<svg onload=alert(1)>'), type: 'image/png' },
    ]);
    const refused = await env.as('adminA').request({ method: 'POST', url: '/api/accounts/agents/', payload: bad.payload, headers: bad.headers });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)[0]).toBe('image');
  });

  it('names each bad field: email, phone, gender, missing names, a foreign operational area, a duplicate email', async () => {
    const before = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM users WHERE role = 'agent'`);
    const res = await env.as('adminA').post('/api/accounts/agents/', { email: 'not-an-email', phone_number: 'call me', gender: 'Other' });
    expect(res.status).toBe(400);
    const fields = Object.keys(res.body.errors);
    expect(fields).toEqual(expect.arrayContaining(['first_name', 'last_name', 'email', 'phone_number', 'gender']));
    const area = await env
      .as('adminA')
      .post('/api/accounts/agents/', { first_name: 'A', last_name: 'B', email: email(), phone_number: '+2348030000000', operational_area_id: geoB.areaId });
    expect(area.status).toBe(400);
    expect(Object.keys(area.body.errors)[0]).toBe('operational_area_id');
    const a = await newAgent();
    const dup = await env
      .as('adminA')
      .post('/api/accounts/agents/', { first_name: 'A', last_name: 'B', email: a.email.toUpperCase(), phone_number: '+2348030000000' });
    expect(dup.status).toBe(400);
    expect(dup.body.errors).toEqual({ email: ['A user with this email already exists'] });
    // An email of another tenant's user is taken too (sign-in emails are unique platform-wide).
    const [adminB] = await env.sql<{ email: string }>(sql`SELECT email FROM users WHERE id = ${env.fx.adminB}`);
    const cross = await env
      .as('adminA')
      .post('/api/accounts/agents/', { first_name: 'A', last_name: 'B', email: adminB!.email, phone_number: '+2348030000000' });
    expect(cross.status).toBe(400);
    expect(Object.keys(cross.body.errors)[0]).toBe('email');
    const after = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM users WHERE role = 'agent'`);
    expect(after[0]!.n).toBe(before[0]!.n + 1);
  });

  it('counts farmers, mapped farms, area (4 decimals) and progress (one decimal)', async () => {
    const a = await newAgent();
    const farmerIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const [f] = await env.sql<{ id: string }>(sql`
        INSERT INTO farmers (tenant_id, first_name, last_name, folio_id, created_by) VALUES (${env.fx.tenantA}, 'F', ${String(i)}, ${`AG-${a.id}-${i}`}, ${a.id}) RETURNING id`);
      farmerIds.push(f!.id);
    }
    const farmId = await insertFarmDirect(env, env.fx.tenantA, farmerIds[0]!, square(...freshSpot(), 50));
    await env.sql(sql`UPDATE farms SET mapped_by = ${a.id}, area_sqm = 2500.123456 WHERE id = ${farmId}`);
    const res = await env.as('adminA').get(`/api/accounts/agents/${a.id}/`);
    expect(res.body.data).toMatchObject({ farmers_count: 3, mapped_farms_count: 1, total_mapped_area: 2500.1235, progress: 33.3 });
    expect(res.body.data.recent_captures).toEqual([
      expect.objectContaining({ farm_id: farmId, farmer_id: farmerIds[0], farmer_name: 'F 0', area: 2500.12, is_overlapping: false }),
    ]);
    // The list carries the totals but not the captures.
    const list = await env.as('adminA').get(`/api/accounts/agents/?search=${encodeURIComponent(a.email)}`);
    expect(list.body.data.results[0].recent_captures).toBeUndefined();
    expect(progressOf(2, 3)).toBe(66.7);
    expect(progressOf(5, 0)).toBe(0);
  });

  it('filters by operational area and region', async () => {
    const a = await newAgent({ operational_area_id: geoA.areaId });
    const byArea = await env.as('adminA').get(`/api/accounts/agents/?operational_area=${geoA.areaId}&page_size=100`);
    expect(byArea.body.data.results.map((r: { id: string }) => r.id)).toContain(a.id);
    expect(byArea.body.data.results.every((r: { operational_area_id: string }) => r.operational_area_id === geoA.areaId)).toBe(true);
    const byRegion = await env.as('adminA').get(`/api/accounts/agents/?region=${geoA.regionId}&page_size=100`);
    expect(byRegion.body.data.results.map((r: { id: string }) => r.id)).toContain(a.id);
    const [region] = await env.sql<{ name: string }>(sql`SELECT name FROM regions WHERE id = ${geoA.regionId}`);
    const byName = await env.as('adminA').get(`/api/accounts/agents/?region=${encodeURIComponent(region!.name)}&page_size=100`);
    expect(byName.body.data.results.map((r: { id: string }) => r.id)).toContain(a.id);
  });

  it('edits only the fields sent', async () => {
    const a = await newAgent();
    const res = await env.as('adminA').put(`/api/accounts/agents/${a.id}/`, { phone_number: '+2348099999999', operational_area_id: geoA.areaId });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Agent edited successfully');
    expect(res.body.data).toMatchObject({ first_name: 'Ada', phone_number: '+2348099999999', operational_area_id: geoA.areaId });
    expect((await env.as('adminA').put(`/api/accounts/agents/${a.id}/`, {})).status).toBe(400);
    expect(Object.keys((await env.as('adminA').put(`/api/accounts/agents/${a.id}/`, { email: 'broken' })).body.errors)[0]).toBe('email');
  });

  it('suspends (sessions end at once; capture refused with account_suspended) and unsuspends with the same call', async () => {
    const [u] = await env.sql<{ id: string }>(sql`SELECT id FROM users WHERE id = ${(await newAgent()).id}`);
    const session = await env.sessionFor(u!.id);
    expect((await session.get(`/api/accounts/users/${u!.id}/`)).status).toBe(200);
    const s = await env.as('adminA').put(`/api/accounts/agents/${u!.id}/suspend`, {});
    expect(s.status).toBe(200);
    expect(s.body.message).toBe('Agent suspended successfully');
    expect(s.body.data.is_suspended).toBe(true);
    const capture = await session.post('/api/farms/', { farmer_id: geoA.farmerId, coordinates: square(...freshSpot(), 60) });
    expect(capture.status).toBe(403);
    expect(capture.body.code).toBe('account_suspended');
    const [open] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${u!.id} AND revoked_at IS NULL`);
    expect(open!.n).toBe(0);
    const un = await env.as('adminA').put(`/api/accounts/agents/${u!.id}/suspend`, {});
    expect(un.body.message).toBe('Agent unsuspended successfully');
    expect(un.body.data.is_suspended).toBe(false);
    // The old session stays ended; a new sign-in works again.
    expect((await session.get(`/api/accounts/users/${u!.id}/`)).status).toBe(401);
    expect((await (await env.sessionFor(u!.id)).get(`/api/accounts/users/${u!.id}/`)).status).toBe(200);
  });

  it('resets an agent account through PUT /accounts/users/{id}/reset', async () => {
    const a = await newAgent();
    const session = await env.sessionFor(a.id);
    const res = await env.as('adminA').put(`/api/accounts/users/${a.id}/reset`, {});
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Account reset successfully');
    expect((await session.get(`/api/accounts/users/${a.id}/`)).status).toBe(401);
  });

  it('deletes an agent: its sessions end, its farmers stay', async () => {
    const a = await newAgent();
    const session = await env.sessionFor(a.id);
    const [f] = await env.sql<{ id: string }>(
      sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id, created_by) VALUES (${env.fx.tenantA}, 'Kept', 'Farmer', ${`DEL-${a.id}`}, ${a.id}) RETURNING id`,
    );
    const res = await env.as('adminA').delete(`/api/accounts/agents/${a.id}/`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Agent deleted successfully');
    expect((await session.post('/api/farms/', { farmer_id: geoA.farmerId, coordinates: square(...freshSpot(), 60) })).status).toBe(401);
    expect((await env.as('adminA').get(`/api/accounts/agents/${a.id}/`)).status).toBe(404);
    const kept = await env.sql<{ created_by: string | null }>(sql`SELECT created_by FROM farmers WHERE id = ${f!.id}`);
    expect(kept).toEqual([{ created_by: null }]);
  });

  it("tenant B cannot read, change, suspend or delete tenant A's agent (404), and nothing changes", async () => {
    const a = await newAgent();
    const b = env.as('adminB');
    const missing = await b.get('/api/accounts/agents/00000000-0000-4000-8000-000000000000/');
    const foreign = await b.get(`/api/accounts/agents/${a.id}/`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect((await b.put(`/api/accounts/agents/${a.id}/`, { first_name: 'Hijacked' })).status).toBe(404);
    expect((await b.put(`/api/accounts/agents/${a.id}/suspend`, {})).status).toBe(404);
    expect((await b.delete(`/api/accounts/agents/${a.id}/`)).status).toBe(404);
    expect((await b.get(`/api/accounts/agents/?search=${encodeURIComponent(a.email)}`)).body.data.count).toBe(0);
    const [row] = await env.sql<{ first_name: string; is_suspended: boolean }>(sql`SELECT first_name, is_suspended FROM users WHERE id = ${a.id}`);
    expect(row).toEqual({ first_name: 'Ada', is_suspended: false });
    // Tenant B naming tenant A is a 404; provider staff may narrow the list to tenant A.
    expect((await b.get(`/api/accounts/agents/?tenant_id=${env.fx.tenantA}`)).status).toBe(404);
    const provider = await env.as('super').get(`/api/accounts/agents/?tenant_id=${env.fx.tenantA}&search=${encodeURIComponent(a.email)}`);
    expect(provider.body.data.results.map((r: { id: string }) => r.id)).toEqual([a.id]);
    expect((await env.as('super').get(`/api/accounts/agents/?tenant_id=${env.fx.tenantB}&search=${encodeURIComponent(a.email)}`)).body.data.count).toBe(0);
    // Agents are not people of tenant B's list, and an agent may not manage agents.
    expect((await env.as('agentA').get('/api/accounts/agents/')).status).toBe(403);
  });
});

describe('agents bulk upload', () => {
  const url = '/api/accounts/agents/bulk-upload/';

  it('creates the valid rows, reports every error of every failed row, and creates nothing for them', async () => {
    const a = await newAgent();
    const good1 = email();
    const good2 = email();
    const csv = [
      'First Name,last_name,email,phone_number,gender,operational_area_id,notes',
      `Bola,Ade,${good1},+2348030000011,female,${geoA.areaId},ok`,
      `Chi,Obi,${good2},08030000012,Male,,ok`,
      `,Nobody,not-an-email,12,Other,${geoB.areaId},bad`,
      `Dup,Email,${a.email},+2348030000013,,,taken`,
      `Twice,Inside,${good2},+2348030000014,,,repeat`,
    ].join('\n');
    const before = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM users WHERE tenant_id = ${env.fx.tenantA} AND role = 'agent'`);
    const res = await upload(env.as('adminA'), url, 'agents.csv', csv);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ total_rows: 5, created_count: 2, failed_count: 3 });
    const [bad, dup, twice] = res.body.data.failed_rows;
    expect(bad.row).toBe(3);
    expect(bad.row_data).toMatchObject({ first_name: '', last_name: 'Nobody', email: 'not-an-email', notes: 'bad' });
    expect(Object.keys(bad.errors).sort()).toEqual(['email', 'first_name', 'gender', 'operational_area_id', 'phone_number']);
    expect(bad.errors.operational_area_id).toEqual(['No such operational area in your organisation']);
    expect(dup).toMatchObject({ row: 4, errors: { email: ['A user with this email already exists'] } });
    expect(twice).toMatchObject({ row: 5, errors: { email: ['This email is already used in row 2 of the file'] } });
    const after = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM users WHERE tenant_id = ${env.fx.tenantA} AND role = 'agent'`);
    expect(after[0]!.n).toBe(before[0]!.n + 2);
    const created = await env.sql<{ gender: string; operational_area_id: string | null }>(
      sql`SELECT gender, operational_area_id FROM users WHERE email = ${good1}`,
    );
    expect(created).toEqual([{ gender: 'Female', operational_area_id: geoA.areaId }]);
    expect(await env.sql(sql`SELECT 1 FROM outbox_emails WHERE to_address IN (${good1}, ${good2})`)).toHaveLength(2);
  });

  it("a foreign operational area is a row error, and the row's agent is not created", async () => {
    const e = email();
    const res = await upload(
      env.as('adminA'),
      url,
      'a.csv',
      `first_name,last_name,email,phone_number,operational_area_id\nX,Y,${e},+2348030000099,${geoB.areaId}\n`,
    );
    expect(res.body.data.failed_rows[0].errors).toEqual({ operational_area_id: ['No such operational area in your organisation'] });
    expect(await env.sql(sql`SELECT 1 FROM users WHERE email = ${e}`)).toHaveLength(0);
  });

  it('refuses files: missing columns, wrong type by content, over 3,145,728 bytes (413), JSON', async () => {
    const missing = await upload(env.as('adminA'), url, 'a.csv', 'first_name,email\nA,a@b.co\n');
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('missing_columns');
    expect(Object.keys(missing.body.errors)[0]).toBe('file');
    const fake = await upload(env.as('adminA'), url, 'a.xlsx', 'first_name,last_name,email,phone_number\n');
    expect(fake.status).toBe(400);
    expect(fake.body.code).toBe('file_type_mismatch');
    const big = Buffer.alloc(3_145_728 + 1, 'a');
    const tooLarge = await upload(env.as('adminA'), url, 'a.csv', big);
    expect(tooLarge.status).toBe(413);
    expect((await env.as('adminA').post(url, { file: 'x' })).status).toBe(415);
  });

  it('serves agents-template.csv, which uploads cleanly', async () => {
    const t = await env.as('anonymous').get('/api/accounts/agents/template.csv');
    expect(t.status).toBe(200);
    expect(t.headers['content-disposition']).toMatch(/agents-template\.csv/);
    const unique = t.raw.replace(/@example\.com/g, `-${Date.now()}@example.com`);
    const res = await upload(env.as('adminA'), url, 'agents-template.csv', unique);
    expect(res.body.data).toMatchObject({ created_count: 2, failed_count: 0 });
    expect(res.body.message).toBe('Bulk upload successful');
  });
});
