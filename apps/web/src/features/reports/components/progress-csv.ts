// The Reports download: one line per tenant and month (tenant, license type, month, farms mapped, area in sqm and
// hectares, agents active), so a spreadsheet can pivot it either way. The header is in the page's language; the values
// stay machine-readable (ISO months, plain decimals) in both.
import { toCsv, type TenantProgress } from '@farmland/contracts';
import { t } from '../../../i18n';
import { reportsText as m } from '../reports.messages';

export const progressCsvHeader = () =>
  [m.csvTenant, m.csvLicenseType, m.csvMonth, m.csvFarmsMapped, m.csvAreaSqm, m.csvHectares, m.csvAgentsActive].map((x) => t(x));

export function progressCsv(p: TenantProgress): string {
  const rows = p.results.flatMap((t) =>
    t.months.map((m) => [
      t.tenant_name,
      t.license_type ?? '',
      m.month,
      m.farms_mapped,
      Math.round(m.area_sqm * 100) / 100,
      Math.round(m.area_sqm / 100) / 100,
      m.agents_active,
    ]),
  );
  return toCsv(progressCsvHeader(), rows);
}
