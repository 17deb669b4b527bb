// The farm map's legend: the four category colours with their labels (the registry calls orange "Flagged (unrecognized)"),
// or, with the "Colour by EUDR risk" switch on (issue 29), the verdict colours: low, review, high, none. One component
// for every map that can colour by verdict (Farmlands, the analysis result): the page keeps the choice and hands it to
// the map as colorBy.
import Switch from 'antd/es/switch';
import { CATEGORY_COLORS, CATEGORY_LABELS, VERDICT_COLORS, VERDICT_LABELS, type MapCategory, type MapColorBy, type MapVerdict } from './map-constants';
import { t } from '../../i18n';
import { mapText as m } from './map.messages';
import { Inline } from '../ui/layout';

type Props = {
  unrecognizedLabel?: string;
  /** The "Colour by EUDR risk" switch: left out when absent. */
  colorBy?: MapColorBy;
  onColorByChange?: (colorBy: MapColorBy) => void;
  /** The map shows clusters of several farms (vector tiles at low zoom): they stay grey while colouring by verdict. */
  clusters?: boolean;
};

const swatch = (key: string, color: string, label: string) => (
  <span key={key} className="inline-flex-4" data-legend={key}>
    <span aria-hidden="true" className="legend-swatch" style={{ background: color }} />
    {label}
  </span>
);

export function MapLegend({ unrecognizedLabel, colorBy, onColorByChange, clusters = false }: Props) {
  const byVerdict = colorBy === 'verdict';
  return (
    <Inline
      gap={12}
      wrap
      align="stretch"
      className="small mt-8 mb-8"
      aria-label={t(m.mapLegend)}
      data-testid="map-legend"
      data-color-by={colorBy ?? 'category'}
    >
      {onColorByChange && (
        <label className="inline-flex gap-8">
          <Switch
            size="small"
            checked={byVerdict}
            onChange={(on) => onColorByChange(on ? 'verdict' : 'category')}
            aria-label={t(m.colourByRisk)}
            data-testid="colour-by-risk"
          />
          {t(m.colourByRisk)}
        </label>
      )}
      {byVerdict
        ? (Object.keys(VERDICT_COLORS) as MapVerdict[]).map((v) => swatch(v, VERDICT_COLORS[v], VERDICT_LABELS[v]))
        : (Object.keys(CATEGORY_COLORS) as MapCategory[]).map((c) =>
            swatch(c, CATEGORY_COLORS[c], c === 'unrecognized' ? (unrecognizedLabel ?? t(m.flaggedUnrecognized)) : CATEGORY_LABELS[c]),
          )}
      {byVerdict && clusters && <span className="text-muted">{t(m.riskClusters)}</span>}
    </Inline>
  );
}
