import { describe, expect, it } from 'vitest';
import { progressCsv } from './progress-csv';

describe('progressCsv', () => {
  it('writes one line per tenant and month, with hectares and a neutralised name', () => {
    const csv = progressCsv({
      year: 2026,
      results: [
        {
          tenant_id: '00000000-0000-4000-8000-000000000001',
          tenant_name: '=Evil, Ltd',
          license_type: 'SDK',
          agents_total: 3,
          agents_active: 2,
          farms_mapped: 5,
          area_sqm: 25000,
          months: [
            { month: '2026-01', farms_mapped: 2, area_sqm: 10000, agents_active: 1 },
            { month: '2026-02', farms_mapped: 3, area_sqm: 15000.456, agents_active: 2 },
          ],
        },
      ],
      totals: { farms_mapped: 5, area_sqm: 25000, agents_active: 2, months: [] },
    });
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Tenant,License type,Month,Farms mapped,Area (sqm),Hectares,Agents active');
    expect(lines[1]).toBe(`"'=Evil, Ltd",SDK,2026-01,2,10000,1,1`);
    expect(lines[2]).toBe(`"'=Evil, Ltd",SDK,2026-02,3,15000.46,1.5,2`);
    expect(lines).toHaveLength(3);
  });
});
