// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The warnings of an analysis row (issue 28): each repair or doubtful input as a tag with its stable code and a plain
// explanation. Shown in the list drawers and the farm drawer; the row was analysed all the same.
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { AnalysisRowWarningCode } from '@farmland/contracts';
import { t } from '../../../i18n';
import { geolocationChecksText as geo } from '../../../components/eudr/geolocation-checks.messages';

export const WARNING_TEXT: Record<AnalysisRowWarningCode, { label: string; detail: string }> = {
  ring_closed: { label: 'Ring closed', detail: 'The outline did not end where it began; it was closed for you. The EU information system refuses unclosed rings.' },
  duplicate_vertices_removed: { label: 'Repeated points removed', detail: 'A point repeated the one before it; the repeat was removed.' },
  fewer_than_6_decimals: { label: 'Fewer than 6 decimals', detail: 'No coordinate has 6 decimals (about 0.1 m); the EUDR asks for at least 6.' },
  point_not_polygon: { label: 'Point, not polygon', detail: 'A point has no area; the EUDR accepts a point only for plots up to 4 ha.' },
  // Issue 29: the EU information system's geolocation checks (read when shown, in the chosen language).
  has_holes: { get label() { return t(geo.hasHoles); }, get detail() { return t(geo.hasHolesDetail); } },
  point_over_4ha: { get label() { return t(geo.pointOver4ha); }, get detail() { return t(geo.pointOver4haDetail); } },
  outside_country: { get label() { return t(geo.outsideCountry); }, get detail() { return t(geo.outsideCountryDetail); } },
  area_mismatch: { get label() { return t(geo.areaMismatch); }, get detail() { return t(geo.areaMismatchDetail); } },
};

/** The label of a warning code (an unknown code is shown as given). */
export const warningLabel = (code: string): string => WARNING_TEXT[code as AnalysisRowWarningCode]?.label ?? code;

export function RowWarnings({ codes, testId = 'row-warnings' }: { codes: readonly string[] | undefined; testId?: string }) {
  if (!codes || codes.length === 0) return null;
  return (
    <span data-testid={testId} style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 4 }}>
      {codes.map((c) => (
        <Tooltip key={c} title={WARNING_TEXT[c as AnalysisRowWarningCode]?.detail}>
          <Tag color="warning" data-warning={c} style={{ marginInlineEnd: 0 }}>
            {warningLabel(c)}
          </Tag>
        </Tooltip>
      ))}
    </span>
  );
}
