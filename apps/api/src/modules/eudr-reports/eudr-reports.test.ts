// Issue 29, the EUDR readiness reports through the API. Tenant A gets an operational area of its own with four plots
// mapped by an agent of its own: one inside a tree-cover-loss layer (high), one inside a forest-2020 layer (review),
// one away from both (low, ready) and one away with a hole (low, has_holes). The summary's area and agent groups, the
// needing-action list and its csv, and the due-diligence report agree with it and with each farm's own screening
// (GET /farms/{id}/screening/); tenant B sees none of it; agents, SDK keys and provider staff are refused where the
// policy says; bad input names its field. The database is shared with other files: only this file's area and agent
// are counted exactly.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PLOT_RISK_DEFAULTS } from '@farmland/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller, TestEnv } from '../../test/harness.js';
import { testEnv } from '../../test/harness.js';
import { makeUser } from '../../test/fixtures.js';
import { nigeriaSpot, insertAreaDirect, insertFarmDirect, multipart, offset, square, tenantGeo, type Ring } from '../../test/geo-fixtures.js';
import { withScope } from '../../db/client.js';
import { screenFarms } from '../reference-layers/reference-layers.screening.js';

let env: TestEnv;
let areaId = '';
let agentId = '';
const farms: Record<'low' | 'high' | 'review' | 'holed', string> = { low: '', high: '', review: '', holed: '' };

const closed = (r: Ring) => [...r, r[0]!];
const collection = (rings: Ring[]) =>
  Buffer.from(
    JSON.stringify({
      type: 'FeatureCollection',
      features: rings.map((r, i) => ({ type: 'Feature', properties: { name: `F${i + 1}` }, geometry: { type: 'Polygon', coordinates: [closed(r)] } })),
    }),
  );

async function uploadLayer(caller: Caller, kind: string, ring: Ring): Promise<string> {
  const body = multipart({ name: `Report ${kind}`, kind, reference_date: '2020-12-31', source: 'Synthetic test layer', licence: 'CC0-1.0' }, [
    { field: 'file', filename: `${kind}.geojson`, content: collection([ring]) },
  ]);
  const res = await caller.request({ method: 'POST', url: '/api/reference-layers/', payload: body.payload, headers: body.headers });
  expect(res.status, res.raw).toBe(202);
  const id = res.body.data.id as string;
  let status = 'queued';
  for (const end = Date.now() + 60_000; Date.now() < end && !['ready', 'failed'].includes(status);) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await caller.get(`/api/reference-layers/${id}/progress/`)).body.data.status;
  }
  expect(status).toBe('ready');
  return id;
}

beforeAll(async () => {
  env = await testEnv();
  const g = await tenantGeo(env, env.fx.tenantA);
  // In the tenant's country (Nigeria): a plot elsewhere carries outside_country.
  const [lng, lat] = nigeriaSpot();
  areaId = await insertAreaDirect(env, env.fx.tenantA, square(...offset(lng, lat, -5000, -5000), 10_000));
  agentId = (await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' })).id;
  farms.high = await insertFarmDirect(env, env.fx.tenantA, g.farmerId, square(...offset(lng, lat, 100, 100), 200));
  farms.review = await insertFarmDirect(env, env.fx.tenantA, g.farmerId, square(...offset(lng, lat, 2000, 100), 200));
  farms.low = await insertFarmDirect(env, env.fx.tenantA, g.farmerId, square(...offset(lng, lat, 3500, 3500), 100));
  farms.holed = await insertFarmDirect(env, env.fx.tenantA, g.farmerId, square(...offset(lng, lat, 3500, 1500), 200));
  const outer = square(...offset(lng, lat, 3500, 1500), 200);
  const hole = square(...offset(lng, lat, 3550, 1550), 50).reverse();
  const holedGeo = JSON.stringify({ type: 'Polygon', coordinates: [closed(outer), closed(hole)] });
  await env.sql(sql`UPDATE farms SET geom = ST_SetSRID(ST_GeomFromGeoJSON(${holedGeo}), 4326) WHERE id = ${farms.holed}`);
  await env.sql(
    sql`UPDATE farms SET operational_area_id = ${areaId}, mapped_by = ${agentId}, name = 'Report plot ' || left(id::text, 4) WHERE id = ANY(${`{${Object.values(farms).join(',')}}`}::uuid[])`,
  );
  // The verdicts below follow the default thresholds; other files of this worker (the hostile fuzz) may have changed
  // tenant A's.
  const reset = await env.as('adminA').put('/api/reference-layers/risk-settings/', PLOT_RISK_DEFAULTS);
  expect(reset.status, reset.raw).toBe(200);
  await uploadLayer(env.as('adminA'), 'tree_cover_loss', square(...offset(lng, lat, 0, 0), 600));
  await uploadLayer(env.as('adminA'), 'forest_2020', square(...offset(lng, lat, 1900, 0), 600));
  // Layers other files left in use get these plots' figures too (capture would have screened them).
  await withScope(env.deps.db, { kind: 'system' }, (tx) => screenFarms(tx, env.fx.tenantA, Object.values(farms)));
}, 180_000);

type Group = { id: string | null; plots: number; screened: number; low: number; review: number; high: number; with_warnings: number; ready: number };

describe('EUDR readiness: the tenant summary', () => {
  it('counts its area and its agent by verdict and warning, like each farm screening', async () => {
    const res = await env.as('adminA').get('/api/eudr-reports/summary/');
    expect(res.status, res.raw).toBe(200);
    const s = res.body.data;
    const expected = { plots: 4, screened: 4, low: 2, review: 1, high: 1, with_warnings: 1, ready: 1 };
    expect(s.by_area.find((a: Group) => a.id === areaId)).toMatchObject(expected);
    expect(s.by_agent.find((a: Group) => a.id === agentId)).toMatchObject(expected);
    expect(s.by_warning.has_holes).toBeGreaterThanOrEqual(1);
    expect(s.layers).toBeGreaterThanOrEqual(2);
    expect(s.plots).toBe(s.low + s.review + s.high);
    const month = new Date().toISOString().slice(0, 7);
    expect(s.trend.at(-1).month).toBe(month);
    expect(s.trend.at(-1).high).toBeGreaterThanOrEqual(1);
    for (const [name, id] of Object.entries(farms)) {
      const own = await env.as('adminA').get(`/api/farms/${id}/screening/`);
      expect(own.body.data.verdict.level, name).toBe(name === 'holed' ? 'low' : name);
    }
  });

  it('shows tenant B none of tenant A', async () => {
    const s = (await env.as('adminB').get('/api/eudr-reports/summary/')).body.data;
    expect(s.by_area.some((a: Group) => a.id === areaId)).toBe(false);
    expect(s.by_agent.some((a: Group) => a.id === agentId)).toBe(false);
  });
});

describe('EUDR readiness: plots needing action', () => {
  it('lists the review, high and warned plots of the area, with the verdict of their own screening', async () => {
    const res = await env.as('adminA').get(`/api/eudr-reports/plots/?area_id=${areaId}`);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data.count).toBe(3);
    const byId = new Map(res.body.data.results.map((p: { farm_id: string }) => [p.farm_id, p]));
    expect([...byId.keys()].sort()).toEqual([farms.high, farms.review, farms.holed].sort());
    for (const id of [farms.high, farms.review, farms.holed]) {
      const own = (await env.as('adminA').get(`/api/farms/${id}/screening/`)).body.data.verdict;
      expect(byId.get(id)).toMatchObject({ verdict: own.level, reasons: own.reasons, area_id: areaId, agent_id: agentId });
    }
    expect(byId.get(farms.holed)).toMatchObject({ warnings: ['has_holes'] });
    expect(byId.get(farms.high)).toMatchObject({ warnings: [] });
  });

  it('filters by verdict, warning and agent, and pages', async () => {
    const ask = async (qs: string) => (await env.as('adminA').get(`/api/eudr-reports/plots/?area_id=${areaId}&${qs}`)).body.data;
    expect((await ask('verdict=high')).results.map((p: { farm_id: string }) => p.farm_id)).toEqual([farms.high]);
    expect((await ask('verdict=review')).results.map((p: { farm_id: string }) => p.farm_id)).toEqual([farms.review]);
    expect((await ask('warning=has_holes')).results.map((p: { farm_id: string }) => p.farm_id)).toEqual([farms.holed]);
    expect((await ask(`agent_id=${agentId}`)).count).toBe(3);
    const name = (await env.sql<{ name: string }>(sql`SELECT name FROM farms WHERE id = ${farms.high}`))[0]!.name;
    expect((await ask(`search=${encodeURIComponent(name.toUpperCase())}`)).results.map((p: { farm_id: string }) => p.farm_id)).toEqual([farms.high]);
    const page = await ask('page_size=2&page=2');
    expect(page.count).toBe(3);
    expect(page.results).toHaveLength(1);
    expect(page.previous).toContain('page=1');
  });

  it('exports the same list as a csv, in a stream', async () => {
    const res = await env.as('adminA').get(`/api/eudr-reports/plots/export/?area_id=${areaId}`);
    expect(res.status, res.raw).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/csv');
    expect(String(res.headers['content-disposition'])).toContain('eudr-plots-needing-action.csv');
    const lines = res.raw.trim().split('\r\n');
    expect(lines[0]).toBe('farm_id,farm_name,farmer,operational_area,agent,area_ha,captured_at,verdict,reasons,warnings');
    expect(lines).toHaveLength(4);
    expect(lines.find((l) => l.startsWith(farms.high))).toContain(',high,');
    expect(lines.find((l) => l.startsWith(farms.holed))).toMatch(/has_holes$/);
  });

  it('gives tenant B nothing of tenant A (list and csv)', async () => {
    expect((await env.as('adminB').get(`/api/eudr-reports/plots/?area_id=${areaId}`)).body.data.count).toBe(0);
    const csv = await env.as('adminB').get(`/api/eudr-reports/plots/export/?area_id=${areaId}`);
    expect(csv.raw.trim().split('\r\n')).toHaveLength(1);
  });

  it('names the field of bad input', async () => {
    for (const [qs, field] of [
      ['verdict=bogus', 'verdict'],
      ['warning=nope', 'warning'],
      ['area_id=x', 'area_id'],
      ['page=0', 'page'],
      ['page=1001&page_size=10', 'page'],
    ] as const) {
      const res = await env.as('adminA').get(`/api/eudr-reports/plots/?${qs}`);
      expect(res.status, qs).toBe(400);
      expect(Object.keys(res.body.errors ?? {}), qs).toContain(field);
    }
  });
});

describe('EUDR readiness: the due-diligence report', () => {
  it("reads an area's plots with the evidence per plot, highest verdict first", async () => {
    const res = await env.as('adminA').get(`/api/eudr-reports/due-diligence/?area_id=${areaId}`);
    expect(res.status, res.raw).toBe(200);
    const r = res.body.data;
    expect(r.selection).toMatchObject({ kind: 'area', area_id: areaId, area_name: 'Probe area', requested: 4 });
    expect(r.summary).toMatchObject({ plots: 4, low: 2, review: 1, high: 1, with_warnings: 1, ready: 1 });
    expect(r.summary.by_warning.has_holes).toBe(1);
    expect(r.plots.map((p: { verdict: string }) => p.verdict)).toEqual(['high', 'review', 'low', 'low']);
    const high = r.plots[0];
    expect(high.farm_id).toBe(farms.high);
    expect(high.polygon.type).toBe('Polygon');
    const loss = high.figures.find((f: { kind: string; share: number }) => f.kind === 'tree_cover_loss' && f.share > 0);
    expect(loss.share).toBeCloseTo(1, 6);
    expect(r.layers.some((l: { kind: string; owner: string }) => l.kind === 'forest_2020' && l.owner === 'tenant')).toBe(true);
  });

  it('reads named farms, and refuses more than 500 or another tenant', async () => {
    const res = await env.as('adminA').get(`/api/eudr-reports/due-diligence/?farm_ids=${farms.high},${farms.low}`);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data.plots.map((p: { farm_id: string }) => p.farm_id)).toEqual([farms.high, farms.low]);
    const many = Array.from({ length: 501 }, () => crypto.randomUUID()).join(',');
    const tooMany = await env.as('adminA').get(`/api/eudr-reports/due-diligence/?farm_ids=${many}`);
    expect(tooMany.status).toBe(400);
    expect(Object.keys(tooMany.body.errors)).toContain('farm_ids');
    const b = await env.as('adminB').get(`/api/eudr-reports/due-diligence/?farm_ids=${farms.high}`);
    expect([b.status, Object.keys(b.body.errors ?? {})]).toEqual([400, ['farm_ids']]);
    const bArea = await env.as('adminB').get(`/api/eudr-reports/due-diligence/?area_id=${areaId}`);
    expect([bArea.status, Object.keys(bArea.body.errors ?? {})]).toEqual([400, ['area_id']]);
    for (const qs of ['', `area_id=${areaId}&farm_ids=${farms.high}`, 'farm_ids=abc']) {
      const bad = await env.as('adminA').get(`/api/eudr-reports/due-diligence/?${qs}`);
      expect(bad.status, qs).toBe(400);
    }
  });
});

describe('EUDR readiness: who may read it', () => {
  it("gives provider staff each tenant's readiness, and refuses it to tenants", async () => {
    const res = await env.as('super').get('/api/eudr-reports/tenant-readiness/');
    expect(res.status, res.raw).toBe(200);
    const a = res.body.data.results.find((t: { tenant_id: string }) => t.tenant_id === env.fx.tenantA);
    expect(a.plots).toBeGreaterThanOrEqual(4);
    expect(a.high).toBeGreaterThanOrEqual(1);
    expect(a.plots).toBe(a.low + a.review + a.high);
    expect(a.ready_share).toBeCloseTo(a.ready / a.plots, 9);
    expect(a.layers).toBeGreaterThanOrEqual(2);
    expect(res.body.data.results.some((t: { tenant_id: string }) => t.tenant_id === env.fx.tenantB)).toBe(true);
    expect((await env.as('adminA').get('/api/eudr-reports/tenant-readiness/')).status).toBe(403);
  });

  it('refuses agents (403), provider staff on tenant reports (403) and SDK license keys (401)', async () => {
    const key = `SDK-reports-${Date.now()}`;
    await env.sql(sql`INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, key_hash, key_hint, is_revoked)
                      VALUES (${env.fx.tenantA}, 'SDK', '2021-01-01', '2099-01-01', ${crypto.createHash('sha256').update(key).digest('hex')}, ${key.slice(0, 10)}, false)`);
    for (const url of [
      '/api/eudr-reports/summary/',
      '/api/eudr-reports/plots/',
      '/api/eudr-reports/plots/export/',
      `/api/eudr-reports/due-diligence/?area_id=${areaId}`,
    ]) {
      expect((await env.as('agentA').get(url)).status, url).toBe(403);
      expect((await env.as('super').get(url)).status, url).toBe(403);
      expect((await env.as('anonymous').get(url, { 'x-license-key': key })).status, url).toBe(401);
    }
    expect((await env.as('anonymous').get('/api/eudr-reports/tenant-readiness/', { 'x-license-key': key })).status).toBe(401);
  });
});
