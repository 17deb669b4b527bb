// POST /farmers/bulk-upload/: good rows land (farmers and their farms, overlaps kept), every error of every failed cell is
// reported and a failed row creates nothing (rows counted before and after); csv, xlsx, hostile files, the template.
import { sql } from 'drizzle-orm';
import * as XLSX from '@e965/xlsx';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSpot, multipart, square, tenantGeo, type TenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type Caller, type TestEnv } from '../../test/harness.js';
import { zip } from '../../test/zip-fixture.js';
import { withCpuMs } from '../../test/cpu-time.js';

let env: TestEnv;
let geoA: TenantGeo;
let geoB: TenantGeo;
const url = '/api/farmers/bulk-upload/';

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
  geoB = await tenantGeo(env, env.fx.tenantB);
});

function upload(caller: Caller, filename: string, content: Buffer | string) {
  const mp = multipart({}, [{ field: 'file', filename, content: Buffer.from(content), type: 'application/octet-stream' }]);
  return caller.request({ method: 'POST', url, payload: mp.payload, headers: mp.headers });
}

const csvCell = (v: unknown) => `"${JSON.stringify(v).replace(/"/g, '""')}"`;
const counts = async () => {
  const [r] = await env.sql<{ farmers: number; farms: number }>(sql`
    SELECT (SELECT count(*)::int FROM farmers WHERE tenant_id = ${env.fx.tenantA}) AS farmers, (SELECT count(*)::int FROM farms WHERE tenant_id = ${env.fx.tenantA}) AS farms`);
  return r!;
};

describe('farmers bulk upload', () => {
  it('5 good rows land with their farms; 3 bad rows report every cell error and create nothing', async () => {
    const tag = `B${Date.now()}`;
    const [lng, lat] = freshSpot();
    const farmA = square(lng, lat, 50);
    const farmB = square(lng + 0.0003, lat, 50); // overlaps farmA
    const bowtie = [
      [lng, lat],
      [lng + 0.001, lat + 0.001],
      [lng + 0.001, lat],
      [lng, lat + 0.001],
    ];
    const header = 'first_name,last_name,email,phone_number,gender,address,location,folio_id,farm_name,operational_area_id,farm_coordinates,own_ref';
    const lines = [
      `${tag},One,one@example.com,+2348030000001,Female,1 Road,Oyo,${tag}-1,Farm One,,${csvCell(farmA)},r1`,
      `${tag},Two,,08030000002,male,2 Road,Oyo,,Farm Two,${geoA.areaId},${csvCell({ type: 'Polygon', coordinates: [[...farmB, farmB[0]]] })},r2`,
      `${tag},Three,,,,,,,,,,r3`,
      `${tag},Four,,,FEMALE,,,${tag}-4,,,,r4`,
      `${tag},Five,five@example.com,,,,,,Farm Five,,${csvCell(square(lng + 0.01, lat, 40))},r5`,
      `,Bad,not-an-email,12,Other,,,${tag}-1,,${geoB.areaId},${csvCell(bowtie)},bad1`,
      `${tag},BadFarm,,,,,,,,,${csvCell([
        [lng, lat],
        [200, lat],
        [lng, lat + 0.001],
      ])},bad2`,
      `${tag},Bowtie,,,,,,,No Coordinates,not-a-uuid,,bad3`,
    ];
    const before = await counts();
    const res = await upload(env.as('adminA'), 'farmers.csv', [header, ...lines].join('\n'));
    expect(res.status, JSON.stringify(res.body) + JSON.stringify(env.serverLog.slice(-3))).toBe(200);
    expect(res.body.data).toMatchObject({ total_rows: 8, created_count: 5, failed_count: 3 });
    expect(res.body.message).toMatch(/5 farmers created; 3 rows failed/);
    const [bad1, bad2, bad3] = res.body.data.failed_rows;
    expect(bad1.row).toBe(6);
    expect(bad1.row_data).toMatchObject({ first_name: '', last_name: 'Bad', email: 'not-an-email', own_ref: 'bad1' });
    expect(Object.keys(bad1.errors).sort()).toEqual([
      'email',
      'farm_coordinates',
      'farm_name',
      'first_name',
      'folio_id',
      'gender',
      'operational_area_id',
      'phone_number',
    ]);
    expect(bad1.errors.folio_id).toEqual(['This folio id is already used in row 1 of the file']);
    expect(bad1.errors.operational_area_id).toEqual(['No such operational area in your organisation']);
    // The bowtie passes the contract's rules (4 distinct positions) but not ST_IsValid; farm_name is missing too.
    expect(bad1.errors.farm_coordinates?.[0] ?? '').toMatch(/not valid: Self-intersection/);
    expect(bad2).toMatchObject({ row: 7 });
    expect(Object.keys(bad2.errors)).toEqual(['farm_name', 'farm_coordinates']);
    expect(bad2.errors.farm_coordinates[0]).toMatch(/longitude/i);
    expect(bad3.errors).toEqual({
      operational_area_id: ['Use the id of one of your operational areas'],
      farm_coordinates: [
        'Farm coordinates are required for a farm: a JSON list of [longitude, latitude] pairs (or, for a plot of 4 ha or less, farm_point with farm_declared_area_sqm)',
      ],
    });
    const after = await counts();
    expect(after).toEqual({ farmers: before.farmers + 5, farms: before.farms + 3 });
    const made = await env.sql<{ last_name: string; gender: string | null; folio_id: string; farms: number; overlapping: boolean | null }>(sql`
      SELECT fr.last_name, fr.gender, fr.folio_id, count(f.id)::int AS farms, bool_or(f.is_overlapping) AS overlapping
        FROM farmers fr LEFT JOIN farms f ON f.farmer_id = fr.id WHERE fr.tenant_id = ${env.fx.tenantA} AND fr.first_name = ${tag}
       GROUP BY 1, 2, 3 ORDER BY 1`);
    expect(made.map((m) => m.last_name)).toEqual(['Five', 'Four', 'One', 'Three', 'Two']);
    expect(made.find((m) => m.last_name === 'Two')).toMatchObject({ gender: 'Male', farms: 1, overlapping: true });
    expect(made.find((m) => m.last_name === 'One')).toMatchObject({ folio_id: `${tag}-1`, overlapping: true });
    expect(made.find((m) => m.last_name === 'Four')).toMatchObject({ gender: 'Female', farms: 0 });
    // The corrected rows uploaded again land, and nothing is duplicated.
    const fixed = [
      header,
      `${tag},Bad,bad@example.com,+2348030000003,Female,,,${tag}-6,Fixed Farm,${geoA.areaId},${csvCell(square(lng + 0.02, lat, 40))},bad1`,
    ].join('\n');
    const again = await upload(env.as('adminA'), 'fixed.csv', fixed);
    expect(again.body.data).toMatchObject({ created_count: 1, failed_count: 0 });
    expect(again.body.message).toBe('Bulk upload successful');
    expect(await counts()).toEqual({ farmers: before.farmers + 6, farms: before.farms + 4 });
  });

  it('a folio id already in the registry fails its row; a file where every row fails changes nothing', async () => {
    const [existing] = await env.sql<{ folio_id: string }>(sql`SELECT folio_id FROM farmers WHERE id = ${geoA.farmerId}`);
    const before = await counts();
    const res = await upload(env.as('adminA'), 'f.csv', `first_name,last_name,folio_id\nA,B,${existing!.folio_id}\n,C,\n`);
    expect(res.body.data).toMatchObject({ created_count: 0, failed_count: 2 });
    expect(res.body.data.failed_rows[0].errors).toEqual({ folio_id: ['A farmer with this folio id already exists'] });
    expect(await counts()).toEqual(before);
  });

  it('reads an xlsx workbook (type by content) with numbers in cells', async () => {
    const tag = `X${Date.now()}`;
    const ws = XLSX.utils.aoa_to_sheet([
      ['First Name', 'Last Name', 'Phone Number', 'Farm Name', 'Farm Coordinates'],
      [tag, 'Sheet', 2348030000001, 'Sheet Farm', JSON.stringify(square(...freshSpot(), 30))],
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Farmers');
    const buf = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    const res = await upload(env.as('adminA'), 'farmers.xlsx', buf);
    expect(res.body.data, JSON.stringify(res.body)).toMatchObject({ created_count: 1, failed_count: 0 });
    const [f] = await env.sql<{ phone_number: string; farms: number }>(sql`
      SELECT fr.phone_number, (SELECT count(*)::int FROM farms WHERE farmer_id = fr.id) AS farms FROM farmers fr WHERE fr.first_name = ${tag}`);
    expect(f).toEqual({ phone_number: '2348030000001', farms: 1 });
  });

  it('refuses hostile and wrong files with a 4xx on "file", in bounded time: over the limit, 700,000 rows, an xlsx zip bomb, binary, wrong type', async () => {
    const big = await upload(env.as('adminA'), 'f.csv', Buffer.alloc(3_145_728 + 1, 'a'));
    expect(big.status).toBe(413);
    expect(Object.keys(big.body.errors)[0]).toBe('file');
    const { value: rows, cpuMs: rowsCpuMs } = await withCpuMs(() => upload(env.as('adminA'), 'f.csv', `first_name,last_name\n${'a,b\n'.repeat(700_000)}`));
    expect(rows.status).toBe(413);
    expect(rows.body.code).toBe('too_many_rows');
    expect(rowsCpuMs).toBeLessThan(10_000);
    const bomb = zip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(200 * 1024 * 1024, 0x20), deflate: true },
    ]);
    const { value: bombed, cpuMs: bombCpuMs } = await withCpuMs(() => upload(env.as('adminA'), 'farmers.xlsx', bomb));
    expect(bombed.status).toBe(413);
    expect(bombed.body.code).toBe('file_too_complex');
    expect(Object.keys(bombed.body.errors)[0]).toBe('file');
    expect(bombCpuMs).toBeLessThan(5000);
    const binary = await upload(env.as('adminA'), 'f.csv', Buffer.from([0x00, 0x01, 0x02, 0x03]));
    expect(binary.status).toBe(400);
    expect(binary.body.code).toBe('file_type_unsupported');
    const pdf = await upload(env.as('adminA'), 'f.pdf', 'first_name,last_name\nA,B\n');
    expect(pdf.status).toBe(400);
    const missing = await upload(env.as('adminA'), 'f.csv', 'name,surname\nA,B\n');
    expect(missing.body.code).toBe('missing_columns');
    const none = await env.as('adminA').request({
      method: 'POST',
      url,
      ...(() => {
        const m = multipart({ note: 'x' });
        return { payload: m.payload, headers: m.headers };
      })(),
    });
    expect(none.status).toBe(400);
    expect(Object.keys(none.body.errors)[0]).toBe('file');
  });

  it('agents and other tenants: agents may not bulk upload; tenant B cannot place farms in tenant A', async () => {
    expect((await upload(env.as('agentA'), 'f.csv', 'first_name,last_name\nA,B\n')).status).toBe(403);
    const before = await counts();
    const res = await upload(
      env.as('adminB'),
      'f.csv',
      `first_name,last_name,farm_name,operational_area_id,farm_coordinates\nA,B,F,${geoA.areaId},${csvCell(square(...freshSpot(), 30))}\n`,
    );
    expect(res.body.data.failed_rows[0].errors).toEqual({ operational_area_id: ['No such operational area in your organisation'] });
    expect(await counts()).toEqual(before);
  });

  it('serves farmers-template.csv, which uploads cleanly', async () => {
    const t = await env.as('anonymous').get('/api/farmers/template.csv');
    expect(t.status).toBe(200);
    expect(t.headers['content-disposition']).toMatch(/farmers-template\.csv/);
    const res = await upload(env.as('adminA'), 'farmers-template.csv', t.raw.replace('FR-0002', `FR-${Date.now()}`));
    expect(res.body.data, JSON.stringify(res.body)).toMatchObject({ created_count: 3, failed_count: 0 });
  });
});
