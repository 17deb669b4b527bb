// A farm's boundary history through the API: Retain keeps the cut farm's earlier boundary, which the history lists
// (reason retain, the retained farm, the old area and ring); another tenant's farm is a 404, like a missing one.
import { beforeAll, describe, expect, it } from 'vitest';
import { overlappingPair } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

describe('GET /farms/{id}/history/', () => {
  it('lists the boundary that Retain cut, with its reason, area and ring; empty for an uncut farm', async () => {
    const { a, b } = await overlappingPair(env);
    const before = (await env.as('adminA').get(`/api/farms/${b}/`)).body.data;
    expect((await env.as('adminA').get(`/api/farms/${b}/history/`)).body.data).toEqual([]);
    expect((await env.as('adminA').post(`/api/farms/${a}/intersect`)).status).toBe(200);
    const res = await env.as('adminA').get(`/api/farms/${b}/history/`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const h = res.body.data[0];
    expect(h).toMatchObject({ reason: 'retain', retained_farm_id: a });
    expect(h.area).toBeCloseTo(before.area, 2);
    expect(h.polygon.type).toBe('Polygon');
    expect(h.coordinates.length).toBeGreaterThanOrEqual(4);
    expect(new Date(h.created_at).getTime()).toBeGreaterThan(0);
    expect((await env.as('adminA').get(`/api/farms/${a}/history/`)).body.data).toEqual([]);
  });

  it("answers 404 for another tenant's farm or a missing one, and 400 for a bad id", async () => {
    const { b } = await overlappingPair(env);
    expect((await env.as('adminB').get(`/api/farms/${b}/history/`)).status).toBe(404);
    expect((await env.as('adminA').get('/api/farms/00000000-0000-4000-8000-000000000000/history/')).status).toBe(404);
    expect((await env.as('adminA').get('/api/farms/not-a-uuid/history/')).status).toBe(400);
  });
});
