// GeoJSON uploads through the API (the stream reader's own tests are in geojson-stream.test.ts): hostile GeoJSON uploads
// get a 4xx naming the file, odd values (1e999, NUL and lone-surrogate escapes, duplicate keys) complete as row errors
// or rows, and the row cap is ANALYSIS_MAX_ROWS.
import { beforeAll, describe, expect, it } from 'vitest';
import { arrangeTenant, multipart, outcome as analysisOutcome, rect, settled, square } from '../test/analysis-fixtures.js';
import { testEnv, type TestEnv } from '../test/harness.js';
import { withCpuMs } from '../test/cpu-time.js';

describe('GeoJSON uploads through the API', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;
  const post = (filename: string, content: Buffer, name = 'GeoJSON upload') =>
    t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ name, operational_areas: t.areaIds, minimum_farm_size: '1', require_farm_recognition: 'false' }, filename, content),
    });
  const feature = (props: Record<string, unknown>, geometry: unknown) => JSON.stringify({ type: 'Feature', properties: props, geometry });
  const poly = (x: number, y: number) => ({ type: 'Polygon', coordinates: [square(x, y)] });

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [{ name: 'Block', ring: rect(10, 10, 10.1, 10.1) }]);
  });

  it('refuses hostile GeoJSON with a 4xx naming the file, in bounded time', async () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const cases: Array<[string, string | Buffer, number, string]> = [
      ['truncated.geojson', `{"type":"FeatureCollection","features":[${feature({ farm_name: 'A' }, poly(10.01, 10.01))},{"type":"Feat`, 400, 'file_unreadable'],
      ['topology.json', '{"type":"Topology","objects":{},"arcs":[]}', 400, 'file_unreadable'],
      ['trailing.geojson', `{"type":"FeatureCollection","features":[${feature({ farm_name: 'A' }, poly(10.01, 10.01))}]}{}`, 400, 'file_unreadable'],
      ['deep.geojson', `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"x":${deep(1_000_000)}}}]}`, 400, 'file_too_complex'],
      ['twice.geojson', `{"type":"FeatureCollection","features":[${feature({ farm_name: 'A' }, null)}],"features":[]}`, 400, 'file_unreadable'],
      ['empty.geojson', '{"type":"FeatureCollection","features":[]}', 400, 'file_empty'],
      [
        'nul.geojson',
        Buffer.concat([Buffer.from(`{"type":"FeatureCollection","features":[${feature({ farm_name: 'A' }, null)}`), Buffer.from([0]), Buffer.from(']}')]),
        400,
        'file_type_unsupported',
      ],
      ['proto.geojson', '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"__proto__":{"x":1}}}]}', 400, 'forbidden_column'],
    ];
    for (const [name, content, status, code] of cases) {
      const { value: res, cpuMs } = await withCpuMs(() => post(name, Buffer.isBuffer(content) ? content : Buffer.from(content)));
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(status);
      expect(res.body.code, name).toBe(code);
      expect(Object.keys(res.body.errors ?? {})[0], name).toBe('file');
      expect(cpuMs, name).toBeLessThan(15_000);
    }
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  }, 120_000);

  it('completes odd but readable values as rows or row errors: 1e999, NUL and lone surrogates, duplicate keys, a BOM, Latin-1', async () => {
    const text =
      '\ufeff{"features":[' +
      [
        feature({ farm_name: 'Plain' }, poly(10.01, 10.01)),
        '{"type":"Feature","properties":{"farm_name":"Huge","n":1e999},"geometry":{"type":"Polygon","coordinates":[[[1e999,10],[10.02,10.02],[10.021,10.02],[1e999,10]]]}}',
        '{"type":"Feature","properties":{"farm_name":"Nul\\u0000 and \\ud800","note":"\\udc00x"},"geometry":' + JSON.stringify(poly(10.03, 10.03)) + '}',
        '{"type":"Feature","properties":{"farm_name":"First","farm_name":"Dup","ref":1,"ref":2},"geometry":' + JSON.stringify(poly(10.05, 10.05)) + '}',
        '{"type":"Feature","properties":{"farm_name":"Point"},"geometry":{"type":"Point","coordinates":[10.07,10.07]}}',
      ].join(',') +
      '],"type":"FeatureCollection"}';
    const res = await post('odd.geojson', Buffer.from(text, 'utf8'), 'Odd values');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { rows, detail } = await analysisOutcome(t.caller, res.body.data.id);
    expect(detail.total_uploaded_data_count).toBe(5);
    expect(rows.get(1)!.category).toBe('within');
    expect(rows.get(2)!.category).toBe('error');
    // NUL and lone surrogates cannot be stored (jsonb): a row error on each field holding one, as before.
    expect(rows.get(3)).toMatchObject({ category: 'error', errors: ['invalid_characters', 'invalid_characters'] });
    expect(rows.get(4)!.category).toBe('within');
    expect(rows.get(5)!.category).toBe('within');
    const within = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/within/?page_size=100`);
    const byRow = new Map<number, { name: string; row_data: Record<string, unknown> }>(
      within.body.data.results.map((f: { row_number: number }) => [f.row_number, f]),
    );
    expect(byRow.get(4)!.name).toBe('Dup');
    expect(byRow.get(4)!.row_data['ref']).toBe(2);

    // Not UTF-8: read as Latin-1, as the whole-file reader did.
    const latin = await post(
      'latin.geojson',
      Buffer.from(`{"type":"FeatureCollection","features":[${feature({ farm_name: 'Ferme à Lomé' }, poly(10.01, 10.01))}]}`, 'latin1'),
      'Latin-1',
    );
    expect(latin.status, JSON.stringify(latin.body)).toBe(201);
    const l = await analysisOutcome(t.caller, latin.body.data.id);
    expect([...l.rows.values()].map((r) => r.category)).toEqual(['within']);
    const named = await t.caller.get(`/api/custom-analysis/${latin.body.data.id}/within/`);
    expect(named.body.data.results[0].name).toBe('Ferme à Lomé');
  }, 120_000);

  it('applies ANALYSIS_MAX_ROWS (413 naming it), not the whole-file cap, and runs a file at the cap', async () => {
    const before = env.config.analysisMaxRows;
    env.config.analysisMaxRows = 40;
    const fcOf = (k: number) =>
      Buffer.from(
        `{"type":"FeatureCollection","features":[${Array.from({ length: k }, (_, i) => feature({ farm_name: `F${i}` }, poly(10.001 + (i % 40) * 0.002, 10.05))).join(',')}]}`,
      );
    try {
      const over = await post('over.geojson', fcOf(41));
      expect(over.status).toBe(413);
      expect(over.body.code).toBe('too_many_rows');
      expect(Object.keys(over.body.errors)[0]).toBe('file');
      expect(over.body.message).toMatch(/more than 40 features/);
      const at = await post('at.geojson', fcOf(40));
      expect(at.status, JSON.stringify(at.body)).toBe(201);
      const detail = await settled(t.caller, at.body.data.id);
      expect(detail.status).toBe('completed');
      expect(detail.total_uploaded_data_count).toBe(40);
    } finally {
      env.config.analysisMaxRows = before;
    }
  }, 120_000);
});
