// Farmers through the capture API: multipart with a photo checked by content, JSON, folio ids, regions of the tenant,
// partial edits and tenant isolation.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { multipart, PNG_BYTES, tenantGeo, type TenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
let geoA: TenantGeo;
let geoB: TenantGeo;

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
  geoB = await tenantGeo(env, env.fx.tenantB);
});

describe('farmers (capture API)', () => {
  it('an agent creates a farmer as multipart with a photo; folio id generated; country from the region', async () => {
    const mp = multipart(
      { first_name: 'Bisi', last_name: 'Ola', gender: 'Female', phone_number: '+2348030001234', email: 'bisi@example.com', address: '3 Farm Rd', region_id: geoA.regionId },
      [{ field: 'image', filename: 'me.png', content: PNG_BYTES, type: 'image/png' }],
    );
    const res = await env.as('agentA').request({ method: 'POST', url: '/api/farmers/', payload: mp.payload, headers: { ...mp.headers, 'x-platform': 'mobile' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ first_name: 'Bisi', last_name: 'Ola', gender: 'Female', region_id: geoA.regionId, country: 'Nigeria', number_of_farm: 0, is_mapped: false });
    expect(res.body.data.folio_id).toMatch(/^FRM-/);
    expect(res.body.data.image).toMatch(/\/api\/files\//);
    const [log] = await env.sql<{ platform: string }>(sql`SELECT platform FROM activity_logs WHERE tenant_id = ${env.fx.tenantA} AND description LIKE '%created the farmer Bisi Ola%' ORDER BY created_at DESC LIMIT 1`);
    expect(log!.platform).toBe('mobile');
  });

  it('an admin creates one as JSON; a taken folio id is a 409 on folio_id', async () => {
    const folio = `T-${Date.now()}`;
    const a = await env.as('adminA').post('/api/farmers/', { first_name: 'Kunle', last_name: 'Ade', folio_id: folio });
    expect(a.status).toBe(201);
    const b = await env.as('adminA').post('/api/farmers/', { first_name: 'Other', last_name: 'One', folio_id: folio });
    expect(b.status).toBe(409);
    expect(b.body.errors[0].field).toBe('folio_id');
  });

  it('names bad fields: missing names, email, gender, image content, foreign region', async () => {
    const res = await env.as('agentA').post('/api/farmers/', { email: 'nope', gender: 'Other' });
    expect(res.status).toBe(400);
    const fields = res.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['first_name', 'last_name', 'email', 'gender']));
    const mp = multipart({ first_name: 'X', last_name: 'Y' }, [{ field: 'image', filename: 'x.png', content: Buffer.from('GIF-not-really') }]);
    const img = await env.as('agentA').request({ method: 'POST', url: '/api/farmers/', payload: mp.payload, headers: mp.headers });
    expect(img.status).toBe(400);
    expect(img.body.errors[0].field).toBe('image');
    const region = await env.as('agentA').post('/api/farmers/', { first_name: 'X', last_name: 'Y', region_id: geoB.regionId });
    expect(region.status).toBe(400);
    expect(region.body.errors[0].field).toBe('region_id');
  });

  it('edits only the fields sent', async () => {
    const created = (await env.as('adminA').post('/api/farmers/', { first_name: 'Edit', last_name: 'Me', address: 'Old' })).body.data;
    const res = await env.as('agentA').put(`/api/farmers/${created.id}/`, { address: 'New address' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ first_name: 'Edit', last_name: 'Me', address: 'New address' });
    expect((await env.as('agentA').put(`/api/farmers/${created.id}/`, {})).status).toBe(400);
  });

  it("tenant B cannot change tenant A's farmer (404), and the farmer is unchanged", async () => {
    const res = await env.as('adminB').put(`/api/farmers/${geoA.farmerId}/`, { first_name: 'Hijacked' });
    expect(res.status).toBe(404);
    const agentB = await env.sessionFor(env.fx.agentB);
    expect((await agentB.put(`/api/farmers/${geoA.farmerId}/`, { first_name: 'Hijacked' })).status).toBe(404);
    const [row] = await env.sql<{ first_name: string }>(sql`SELECT first_name FROM farmers WHERE id = ${geoA.farmerId}`);
    expect(row!.first_name).not.toBe('Hijacked');
  });
});
