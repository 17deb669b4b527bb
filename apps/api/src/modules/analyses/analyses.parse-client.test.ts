// A large csv is staged by two threads: the joined result must be exactly what one thread stages, row numbers and all.
import { describe, expect, it } from 'vitest';
import { parseFile } from './analyses.parse.js';
import { parseInWorker, SPLIT_MIN_BYTES } from './analyses.parse-client.js';
import { STAGE_LINE_ROWS, stageLine } from './analyses.rows.js';

describe.skipIf(Boolean(process.env['TEST_DATABASE_URL']))('parse threads', () => {
  it('stages a csv above the split size in two halves that join into the single-thread result', async () => {
    const lines = ['farm_name,farm_coordinates,operational_area_id,note'];
    for (let i = 0; i < 4321; i++) {
      const x = 3 + i * 1e-4;
      const ring = i % 97 === 0 ? 'not coordinates' : JSON.stringify([[x, 7], [x + 5e-5, 7], [x + 5e-5, 7.00005], [x, 7]]);
      lines.push(`Farm ${i + 1},"${ring.replace(/"/g, '""')}",,${'n'.repeat(200)}`);
    }
    const data = Buffer.from(lines.join('\n'), 'utf8');
    expect(data.byteLength).toBeGreaterThan(SPLIT_MIN_BYTES);

    const { rows } = parseFile(new Uint8Array(data), 'farms.csv');
    const expected: string[] = [];
    for (let i = 0; i < rows.length; i += STAGE_LINE_ROWS) expected.push(stageLine(rows, i, Math.min(rows.length, i + STAGE_LINE_ROWS), new Set()));

    const r = await parseInWorker({ data: new Uint8Array(data), filename: 'farms.csv', areaIds: [] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.total).toBe(4321);
    const staged = Buffer.concat(r.staged).toString('utf8').split('\n');
    expect(staged).toHaveLength(expected.length);
    expect(staged).toEqual(expected);
  });

  it('refuses a hostile csv the same way when it is split', async () => {
    const big = Buffer.from(`farm_name,farm_coordinates\n${'a,b\n'.repeat(300_000)}`, 'utf8');
    expect(big.byteLength).toBeGreaterThan(SPLIT_MIN_BYTES);
    const r = await parseInWorker({ data: new Uint8Array(big), filename: 'farms.csv', areaIds: [] });
    expect(r).toMatchObject({ ok: false, status: 413 });
  });
});
