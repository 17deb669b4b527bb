// The Reports download: one line per tenant and month (tenant, license type, month, farms mapped, area in sqm and
// hectares, agents active), so a spreadsheet can pivot it either way.
import { toCsv, type TenantProgress } from '@farmland/contracts';

export const PROGRESS_CSV_HEADER = ['Tenant', 'License type', 'Month', 'Farms mapped', 'Area (sqm)', 'Hectares', 'Agents active'] as const;

export function progressCsv(p: TenantProgress): string {
  const rows = p.results.flatMap((t) =>
    t.months.map((m) => [t.tenant_name, t.license_type ?? '', m.month, m.farms_mapped, Math.round(m.area_sqm * 100) / 100, Math.round(m.area_sqm / 100) / 100, m.agents_active]),
  );
  return toCsv(PROGRESS_CSV_HEADER, rows);
}
