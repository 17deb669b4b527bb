// Hostile uploads end as a 4xx in bounded time and memory: an xlsx zip bomb, formula cells, a __proto__ key or column,
// a wrong extension, binary content, and a file over the upload limit (a csv over the row cap: analyses.row-cap.test.ts).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { multipart } from '../../test/analysis-fixtures.js';
import { zip } from '../../test/zip-fixture.js';
import { withCpuMs } from '../../test/cpu-time.js';

describe('hostile analysis uploads', () => {
  let env: TestEnv;
  let areaId: string;
  const post = (filename: string, content: Buffer) =>
    env
      .as('adminA')
      .request({ method: 'POST', url: '/api/custom-analysis/', ...multipart({ name: 'Hostile', operational_areas: [areaId] }, filename, content) });

  beforeAll(async () => {
    env = await testEnv();
    const [a] = await env.sql<{ id: string }>(sql`SELECT id FROM operational_areas WHERE tenant_id = ${env.fx.tenantA} ORDER BY created_at LIMIT 1`);
    areaId = a!.id;
  });

  it('refuses an xlsx zip bomb before inflating it', async () => {
    const bomb = zip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(200 * 1024 * 1024, 0x20), deflate: true },
    ]);
    expect(bomb.length).toBeLessThan(3_145_728);
    const { value: res, cpuMs } = await withCpuMs(() => post('farms.xlsx', bomb));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('file_too_complex');
    expect(Object.keys(res.body.errors)[0]).toBe('file');
    expect(cpuMs).toBeLessThan(5000);
  });

  it('refuses a wrong extension, binary content, and unknown types', async () => {
    const xlsxAsCsv = await post('farms.csv', zip([{ name: 'a.xml', data: Buffer.from('<a/>') }]));
    expect(xlsxAsCsv.status).toBe(400);
    expect(xlsxAsCsv.body.code).toBe('file_type_mismatch');
    const csvAsXlsx = await post('farms.xlsx', Buffer.from('farm_name,farm_coordinates\na,b\n'));
    expect(csvAsXlsx.status).toBe(400);
    expect(csvAsXlsx.body.code).toBe('file_type_mismatch');
    const binary = await post('farms.csv', Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff]));
    expect(binary.status).toBe(400);
    const exe = await post('farms.exe', Buffer.from('MZ'));
    expect(exe.status).toBe(400);
    expect(exe.body.code).toBe('file_type_unsupported');
    const damaged = await post('farms.xlsx', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]));
    expect(damaged.status).toBe(400);
  });

  it('refuses a __proto__ column or key', async () => {
    const res = await post('farms.csv', Buffer.from('farm_name,farm_coordinates,__proto__\na,"[[1,2],[1,3],[2,3]]",x\n'));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('forbidden_column');
    const json = await env.as('adminA').request({
      method: 'POST',
      url: '/api/custom-analysis/',
      headers: { 'content-type': 'application/json' },
      payload: `{"operational_areas":["${areaId}"],"locations":[{"farm_name":"a","__proto__":{"polluted":true}}]}`,
    });
    expect(json.status).toBe(400);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('refuses a file over the upload limit with the field named', async () => {
    const big = Buffer.alloc(env.config.uploadLimit + 10, 0x61);
    const res = await post('farms.csv', big);
    expect(res.status).toBe(413);
    expect(Object.keys(res.body.errors)[0]).toBe('file');
  });

  it('never evaluates formula cells and treats CSV formulas as text', async () => {
    const res = await post('farms.csv', Buffer.from('farm_name,farm_coordinates\n=HYPERLINK("http://x"),"=1+1"\n'));
    expect(res.status).toBe(201);
    const id = res.body.data.id;
    for (let i = 0; i < 200; i++) {
      const d = await env.as('adminA').get(`/api/custom-analysis/${id}/`);
      if (d.body.data.status === 'completed') {
        const row = d.body.data.error_details['1'];
        expect(row.row_data.farm_name).toBe('=HYPERLINK("http://x")');
        expect(row.errors.map((e: { code: string }) => e.code)).toEqual(['coordinates_unreadable']);
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('analysis did not complete');
  });
});
