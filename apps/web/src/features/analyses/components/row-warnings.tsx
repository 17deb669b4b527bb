// The warnings of an analysis row (issue 28): each repair or doubtful input as a tag with its stable code and a plain
// explanation. Shown in the list drawers and the farm drawer; the row was analysed all the same.
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { AnalysisRowWarningCode } from '@farmland/contracts';
import { t, type Text } from '../../../i18n';
import { geolocationChecksText as geo } from '../../../components/eudr/geolocation-checks.messages';
import { analysesText as m } from '../analyses.messages';

export const WARNING_TEXT: Record<AnalysisRowWarningCode, { label: Text; detail: Text }> = {
  ring_closed: { label: m.warnRingClosed, detail: m.warnRingClosedDetail },
  duplicate_vertices_removed: { label: m.warnDuplicates, detail: m.warnDuplicatesDetail },
  fewer_than_6_decimals: { label: m.warnDecimals, detail: m.warnDecimalsDetail },
  point_not_polygon: { label: m.warnPoint, detail: m.warnPointDetail },
  // Issue 29: the EU information system's geolocation checks.
  has_holes: { label: geo.hasHoles, detail: geo.hasHolesDetail },
  point_over_4ha: { label: geo.pointOver4ha, detail: geo.pointOver4haDetail },
  outside_country: { label: geo.outsideCountry, detail: geo.outsideCountryDetail },
  area_mismatch: { label: geo.areaMismatch, detail: geo.areaMismatchDetail },
};

const known = (code: string) => WARNING_TEXT[code as AnalysisRowWarningCode] as { label: Text; detail: Text } | undefined;

/** The label of a warning code (an unknown code is shown as given). */
export const warningLabel = (code: string): string => {
  const w = known(code);
  return w ? t(w.label) : code;
};

export function RowWarnings({ codes, testId = 'row-warnings' }: { codes: readonly string[] | undefined; testId?: string }) {
  if (!codes || codes.length === 0) return null;
  return (
    <span data-testid={testId} className="inline-flex align-stretch wrap gap-4">
      {codes.map((c) => (
        <Tooltip key={c} title={known(c) ? t(known(c)!.detail) : undefined}>
          <Tag color="warning" data-warning={c} className="no-end-margin">
            {warningLabel(c)}
          </Tag>
        </Tooltip>
      ))}
    </span>
  );
}
