// Farmers through the capture API: multipart with a photo checked by content, JSON, folio ids, regions of the tenant,
// partial edits and tenant isolation.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSpot, insertFarmDirect, multipart, PNG_BYTES, square, tenantGeo, type TenantGeo } from '../../test/geo-fixtures.js';
import { queryRows, withScope } from '../../db/client.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { COUNT_EXACT_UP_TO } from '../../db/pagination.js';

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
      {
        first_name: 'Bisi',
        last_name: 'Ola',
        gender: 'Female',
        phone_number: '+2348030001234',
        email: 'bisi@example.com',
        address: '3 Farm Rd',
        region_id: geoA.regionId,
      },
      [{ field: 'image', filename: 'me.png', content: PNG_BYTES, type: 'image/png' }],
    );
    const res = await env
      .as('agentA')
      .request({ method: 'POST', url: '/api/farmers/', payload: mp.payload, headers: { ...mp.headers, 'x-platform': 'mobile' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      first_name: 'Bisi',
      last_name: 'Ola',
      gender: 'Female',
      region_id: geoA.regionId,
      country: 'Nigeria',
      number_of_farm: 0,
      is_mapped: false,
    });
    expect(res.body.data.folio_id).toMatch(/^FRM-/);
    expect(res.body.data.image).toMatch(/\/api\/files\//);
    const [log] = await env.sql<{ platform: string }>(
      sql`SELECT platform FROM activity_logs WHERE tenant_id = ${env.fx.tenantA} AND description LIKE '%created the farmer Bisi Ola%' ORDER BY created_at DESC LIMIT 1`,
    );
    expect(log!.platform).toBe('mobile');
  });

  it('an admin creates one as JSON; a taken folio id is a 409 on folio_id', async () => {
    const folio = `T-${Date.now()}`;
    const a = await env.as('adminA').post('/api/farmers/', { first_name: 'Kunle', last_name: 'Ade', folio_id: folio });
    expect(a.status).toBe(201);
    const b = await env.as('adminA').post('/api/farmers/', { first_name: 'Other', last_name: 'One', folio_id: folio });
    expect(b.status).toBe(409);
    expect(Object.keys(b.body.errors)[0]).toBe('folio_id');
  });

  it('names bad fields: missing names, email, gender, image content, foreign region', async () => {
    const res = await env.as('agentA').post('/api/farmers/', { email: 'nope', gender: 'Other' });
    expect(res.status).toBe(400);
    const fields = Object.keys(res.body.errors);
    expect(fields).toEqual(expect.arrayContaining(['first_name', 'last_name', 'email', 'gender']));
    const mp = multipart({ first_name: 'X', last_name: 'Y' }, [{ field: 'image', filename: 'x.png', content: Buffer.from('GIF-not-really') }]);
    const img = await env.as('agentA').request({ method: 'POST', url: '/api/farmers/', payload: mp.payload, headers: mp.headers });
    expect(img.status).toBe(400);
    expect(Object.keys(img.body.errors)[0]).toBe('image');
    const region = await env.as('agentA').post('/api/farmers/', { first_name: 'X', last_name: 'Y', region_id: geoB.regionId });
    expect(region.status).toBe(400);
    expect(Object.keys(region.body.errors)[0]).toBe('region_id');
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

describe('farmers list, read and delete', () => {
  it('pages a search in one statement per page: walked page by page, the pages are its matches newest first, with their exact count; tenant B sees none of them', async () => {
    const term = 'oya-1';
    const p = `%${term}%`;
    const expected = (
      await env.sql<{ id: string }>(
        sql`SELECT id FROM farmers WHERE tenant_id = ${env.fx.tenantA}
               AND (full_name ILIKE ${p} OR folio_id ILIKE ${p} OR phone_number ILIKE ${p} OR email ILIKE ${p})
             ORDER BY created_at DESC, id DESC`,
      )
    ).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(4);
    const size = 4;
    const pages = Math.ceil(expected.length / size);
    const seen: string[] = [];
    for (let page = 1; page <= pages + 1; page++) {
      const data = (await env.as('adminA').get(`/api/farmers/?search=${term}&page_size=${size}&page=${page}`)).body.data;
      expect(data.count, `page ${page}`).toBe(expected.length);
      expect(data.next === null, `page ${page}`).toBe(page >= pages);
      seen.push(...data.results.map((f: { id: string }) => f.id));
    }
    expect(seen).toEqual(expected);
    const other = (await env.as('adminB').get(`/api/farmers/?search=${term}&page_size=100`)).body.data.results.map((f: { id: string }) => f.id);
    expect(other.filter((id: string) => expected.includes(id))).toEqual([]);
  });

  it('lists with folio_id, number_of_farm, total_farm_size (4 decimals) and is_mapped; filters by is_mapped, search and region', async () => {
    const tag = `L${Date.now()}`;
    const mapped = (await env.as('adminA').post('/api/farmers/', { first_name: tag, last_name: 'Mapped', region_id: geoA.regionId })).body.data;
    const unmapped = (await env.as('adminA').post('/api/farmers/', { first_name: tag, last_name: 'Unmapped' })).body.data;
    const farmId = await insertFarmDirect(env, env.fx.tenantA, mapped.id, square(...freshSpot(), 40));
    await env.sql(sql`UPDATE farms SET area_sqm = 1600.987654 WHERE id = ${farmId}`);
    const all = await env.as('adminA').get(`/api/farmers/?search=${tag}`);
    expect(all.status).toBe(200);
    expect(all.body.data.count).toBe(2);
    const m = all.body.data.results.find((r: { id: string }) => r.id === mapped.id);
    expect(m).toMatchObject({ number_of_farm: 1, total_farm_size: 1600.9877, is_mapped: true, folio_id: mapped.folio_id });
    const onlyMapped = await env.as('adminA').get(`/api/farmers/?search=${tag}&is_mapped=true`);
    expect(onlyMapped.body.data.results.map((r: { id: string }) => r.id)).toEqual([mapped.id]);
    const onlyUnmapped = await env.as('adminA').get(`/api/farmers/?search=${tag}&is_mapped=false`);
    expect(onlyUnmapped.body.data.results.map((r: { id: string }) => r.id)).toEqual([unmapped.id]);
    const byRegion = await env.as('adminA').get(`/api/farmers/?search=${tag}&region=${geoA.regionId}`);
    expect(byRegion.body.data.results.map((r: { id: string }) => r.id)).toEqual([mapped.id]);
    const byFolio = await env.as('agentA').get(`/api/farmers/?search=${mapped.folio_id}`);
    expect(byFolio.body.data.results.map((r: { id: string }) => r.id)).toEqual([mapped.id]);
    expect((await env.as('adminA').get('/api/farmers/?is_mapped=maybe')).status).toBe(400);
    const page = await env.as('adminA').get(`/api/farmers/?search=${tag}&page_size=1&page=2`);
    expect(page.body.data).toMatchObject({ count: 2, next: null });
    expect(page.body.data.previous).toMatch(/page=1/);
  });

  it('reads one farmer; tenant B gets 404 and does not see it in its list', async () => {
    const one = await env.as('agentA').get(`/api/farmers/${geoA.farmerId}/`);
    expect(one.status).toBe(200);
    expect(one.body.data.id).toBe(geoA.farmerId);
    const foreign = await env.as('adminB').get(`/api/farmers/${geoA.farmerId}/`);
    const missing = await env.as('adminB').get('/api/farmers/00000000-0000-4000-8000-000000000000/');
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    const list = await env.as('adminB').get(`/api/farmers/?search=${one.body.data.folio_id}`);
    expect(list.body.data.count).toBe(0);
  });

  it('deletes a farmer without farms; one with farms is a 409 until delete_farms=true, which removes the farms and fixes overlaps', async () => {
    const lone = (await env.as('adminA').post('/api/farmers/', { first_name: 'Lone', last_name: 'Farmer' })).body.data;
    const del = await env.as('adminA').delete(`/api/farmers/${lone.id}/`);
    expect(del.status).toBe(200);
    expect(del.body.message).toBe('Farmer deleted successfully');
    expect((await env.as('adminA').get(`/api/farmers/${lone.id}/`)).status).toBe(404);

    const owner = (await env.as('adminA').post('/api/farmers/', { first_name: 'Has', last_name: 'Farms' })).body.data;
    const other = (await env.as('adminA').post('/api/farmers/', { first_name: 'Neighbour', last_name: 'Farmer' })).body.data;
    const [lng, lat] = freshSpot();
    const mine = await insertFarmDirect(env, env.fx.tenantA, owner.id, square(lng, lat, 50));
    const theirs = await insertFarmDirect(env, env.fx.tenantA, other.id, square(lng, lat, 60));
    await env.sql(sql`UPDATE farms SET is_overlapping = true, overlap_group_id = ${mine < theirs ? mine : theirs} WHERE id IN (${mine}, ${theirs})`);
    const refused = await env.as('adminA').delete(`/api/farmers/${owner.id}/`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('farmer_has_farms');
    expect(await env.sql(sql`SELECT 1 FROM farms WHERE id = ${mine}`)).toHaveLength(1);
    const cascade = await env.as('adminA').delete(`/api/farmers/${owner.id}/?delete_farms=true`);
    expect(cascade.status).toBe(200);
    expect(cascade.body.message).toBe('Farmer and 1 farm deleted successfully');
    expect(await env.sql(sql`SELECT 1 FROM farms WHERE id = ${mine}`)).toHaveLength(0);
    const [left] = await env.sql<{ is_overlapping: boolean; overlap_group_id: string | null }>(
      sql`SELECT is_overlapping, overlap_group_id FROM farms WHERE id = ${theirs}`,
    );
    expect(left).toEqual({ is_overlapping: false, overlap_group_id: null });
  });

  it("tenant B and agents cannot delete tenant A's farmer", async () => {
    const f = (await env.as('adminA').post('/api/farmers/', { first_name: 'Keep', last_name: 'Me' })).body.data;
    expect((await env.as('adminB').delete(`/api/farmers/${f.id}/`)).status).toBe(404);
    expect((await env.as('agentA').delete(`/api/farmers/${f.id}/`)).status).toBe(403);
    expect(await env.sql(sql`SELECT 1 FROM farmers WHERE id = ${f.id}`)).toHaveLength(1);
  });
});

describe('farmers search and count at scale', () => {
  it('a search matches a full name, a folio id, a phone or an email; a first page that is not full is its own count', async () => {
    const tag = `S${Date.now()}`;
    const f = (
      await env
        .as('adminA')
        .post('/api/farmers/', { first_name: 'Zainab', last_name: `Trigram${tag}`, phone_number: '+2348035550199', email: `zainab.${tag}@example.com` })
    ).body.data;
    for (const q of [`Zainab Trigram${tag}`, `trigram${tag.toLowerCase()}`, f.folio_id, '8035550199', `zainab.${tag}@EXAMPLE`]) {
      const res = await env.as('adminA').get(`/api/farmers/?search=${encodeURIComponent(q)}`);
      expect(
        res.body.data.results.map((r: { id: string }) => r.id),
        q,
      ).toEqual([f.id]);
      expect(res.body.data.count).toBe(1);
      expect(res.body.data.count_estimated).toBeUndefined();
    }
    // A LIKE wildcard in the search is text, not a pattern.
    expect((await env.as('adminA').get(`/api/farmers/?search=${encodeURIComponent(`Zainab%${tag}`)}`)).body.data.count).toBe(0);
  });

  it('the name, folio, phone and email searches are index conditions under row-level security (LIKE/ILIKE are LEAKPROOF)', async () => {
    const plan = await withScope(env.deps.db, { kind: 'tenant', tenantId: env.fx.tenantA }, async (tx) => {
      await tx.execute(sql`SELECT set_config('enable_seqscan', 'off', true)`);
      const rows = await queryRows<Record<string, string>>(
        tx,
        // No tenant condition of its own (the policy is the scope), so the trigram indexes are the only ones that can serve.
        sql`EXPLAIN SELECT id FROM farmers fr WHERE (fr.full_name ILIKE '%zainab%' OR fr.folio_id ILIKE '%zainab%' OR fr.phone_number ILIKE '%zainab%' OR fr.email ILIKE '%zainab%')`,
      );
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
    for (const idx of ['farmers_full_name_trgm_idx', 'farmers_folio_id_trgm_idx', 'farmers_phone_number_trgm_idx', 'farmers_email_trgm_idx'])
      expect(plan).toContain(idx);
    expect(plan).toMatch(/Index Cond: \(full_name ~~\* /);
  });

  it('the trigram indexes keep no pending list (fastupdate off, migration 0018): searches stay fast without autovacuum', async () => {
    const rows = await withScope(env.deps.db, { kind: 'system' }, (tx) =>
      queryRows<{ relname: string; opts: string | null }>(
        tx,
        sql`SELECT relname, array_to_string(reloptions, ',') AS opts FROM pg_class WHERE relkind = 'i' AND relname LIKE '%\_trgm\_idx' ORDER BY relname`,
      ),
    );
    expect(rows.map((r) => r.relname)).toEqual([
      'farmers_email_trgm_idx',
      'farmers_folio_id_trgm_idx',
      'farmers_full_name_trgm_idx',
      'farmers_phone_number_trgm_idx',
      'farms_name_trgm_idx',
      'users_email_trgm_idx',
      'users_full_name_trgm_idx',
      'users_phone_number_trgm_idx',
    ]);
    for (const r of rows) expect(r.opts, r.relname).toContain('fastupdate=off');
  });

  it(`counts exactly up to ${COUNT_EXACT_UP_TO.toLocaleString('en')} matches, then estimates (count_estimated); the unfiltered and is_mapped counts stay exact; deep pages are refused`, async () => {
    const tag = `CAP${Date.now()}`;
    const n = COUNT_EXACT_UP_TO + 25;
    await env.sql(sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id, created_at)
                      SELECT ${env.fx.tenantB}, 'Many', ${tag} || '-' || g, ${tag} || '-' || g, now() - (g || ' seconds')::interval FROM generate_series(1, ${n}::int) g`);
    try {
      const [{ total, mapped }] = (await env.sql<{ total: number; mapped: number }>(
        sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE EXISTS (SELECT 1 FROM farms f WHERE f.farmer_id = fr.id))::int AS mapped FROM farmers fr WHERE tenant_id = ${env.fx.tenantB}`,
      )) as [{ total: number; mapped: number }];
      expect(total).toBeGreaterThan(COUNT_EXACT_UP_TO);
      // Unfiltered, mapped, unmapped: exact at any size (tenant_stats), never estimated.
      const all = await env.as('adminB').get('/api/farmers/?page_size=10');
      expect(all.status).toBe(200);
      expect(all.body.data.count).toBe(total);
      expect(all.body.data.count_estimated).toBeUndefined();
      expect(all.body.data.results).toHaveLength(10);
      expect(all.body.data.next).toMatch(/page=2/);
      const unmapped = await env.as('adminB').get('/api/farmers/?is_mapped=false&page=2');
      expect(unmapped.body.data).toMatchObject({ count: total - mapped });
      expect(unmapped.body.data.count_estimated).toBeUndefined();
      expect(unmapped.body.data.results.every((r: { number_of_farm: number }) => r.number_of_farm === 0)).toBe(true);
      // A broad search (more than 10,000 matches, no counter): the newest first, and an estimate above 10,000, flagged.
      const broad = await env.as('adminB').get(`/api/farmers/?search=${tag}&page_size=5`);
      expect(broad.body.data.count_estimated).toBe(true);
      expect(broad.body.data.count).toBeGreaterThan(COUNT_EXACT_UP_TO);
      expect(broad.body.data.next).toMatch(/page=2/);
      expect(broad.body.data.results.map((r: { folio_id: string }) => r.folio_id)).toEqual([1, 2, 3, 4, 5].map((g) => `${tag}-${g}`));
      // The last page that starts within the first 10,000 rows is served; the one after it is a 400 naming page.
      const last = await env.as('adminB').get(`/api/farmers/?search=${tag}&page_size=10&page=1000`);
      expect(last.status).toBe(200);
      expect(last.body.data.results.map((r: { folio_id: string }) => r.folio_id)).toEqual(Array.from({ length: 10 }, (_, i) => `${tag}-${9_991 + i}`));
      expect(last.body.data.next).toBeNull();
      const deep = await env.as('adminB').get(`/api/farmers/?search=${tag}&page_size=10&page=1001`);
      expect(deep.status).toBe(400);
      expect(Object.keys(deep.body.errors)[0]).toBe('page');
      // A bounded count: a narrower search is exact.
      const narrow = await env.as('adminB').get(`/api/farmers/?search=${tag}-1000`);
      // ${tag}-1000 and ${tag}-10000 … ${tag}-10009
      expect(narrow.body.data.count).toBe(11);
      expect(narrow.body.data.count_estimated).toBeUndefined();
      // Tenant A's list does not see them, nor count them.
      const a = await env.as('adminA').get(`/api/farmers/?search=${tag}`);
      expect(a.body.data).toMatchObject({ count: 0, results: [] });
      expect((await env.as('adminA').get('/api/farmers/?page_size=1')).body.data.count).toBe(
        (await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farmers WHERE tenant_id = ${env.fx.tenantA}`))[0]!.n,
      );
    } finally {
      await env.sql(sql`DELETE FROM farmers WHERE tenant_id = ${env.fx.tenantB} AND folio_id LIKE ${`${tag}-%`}`);
    }
  });
});
