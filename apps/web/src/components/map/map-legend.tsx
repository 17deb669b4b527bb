// The farm map's legend: the four category colours with their labels (the registry calls orange "Flagged (unrecognized)").
import { CATEGORY_COLORS, CATEGORY_LABELS, type MapCategory } from './map-constants';
import { t } from '../../i18n';
import { mapText as m } from './map.messages';
import { Inline } from '../ui/layout';

export function MapLegend({ unrecognizedLabel }: { unrecognizedLabel?: string }) {
  return (
    <Inline gap={12} wrap align="stretch" className="small mt-8 mb-8" aria-label={t(m.mapLegend)}>
      {(Object.keys(CATEGORY_COLORS) as MapCategory[]).map((c) => (
        <span key={c} className="inline-flex-4">
          <span aria-hidden="true" className="legend-swatch" style={{ background: CATEGORY_COLORS[c] }} />
          {c === 'unrecognized' ? (unrecognizedLabel ?? t(m.flaggedUnrecognized)) : CATEGORY_LABELS[c]}
        </span>
      ))}
    </Inline>
  );
}
