// The EUDR export's companion CSV (issue 29, verdicts=companion, file=companion): each written feature's verdict and
// warnings, so the geolocation file can hold only the properties the EU information system expects. One line per
// feature the geolocation file writes (a plot split into hole-free parts has one line per part), in the same order,
// for the same plots: the service writes it through the same part plan (made on the geolocation file's sizes) and the
// same reader, so part N of the companion lists the plots of part N of the geolocation file.
import { csvLine } from '@farmland/contracts';
import type { EudrRow } from './eudr-export.queries.js';
import { geolocationWarnings, pieces, riskOf } from './eudr-formats.js';

export const COMPANION_INFO = { extension: 'csv', mime: 'text/csv; charset=utf-8' } as const;

/** The companion CSV as a formatter (head, tail, separator, one plot's lines). */
export function companionFormatter(): { head: string; tail: string; separator: string; item: (r: EudrRow) => string } {
  return {
    head: csvLine(['farm_id', 'farm_name', 'part', 'warnings', 'risk', 'risk_reasons']),
    tail: '',
    separator: '',
    item: (r) => {
      const warnings = geolocationWarnings(r).join(';');
      const { risk, risk_reasons } = riskOf(r);
      return pieces(r)
        .map((p) => csvLine([r.id, r.name, p.part?.part ?? '', warnings, risk ?? '', risk_reasons.join(';')]))
        .join('');
    },
  };
}
