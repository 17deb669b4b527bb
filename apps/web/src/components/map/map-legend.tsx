// The farm map's legend: the four category colours with their labels (the registry calls orange "Flagged (unrecognized)").
import { CATEGORY_COLORS, CATEGORY_LABELS, type MapCategory } from './map-constants';
import { t } from '../../i18n';
import { mapText as m } from './map.messages';

export function MapLegend({ unrecognizedLabel }: { unrecognizedLabel?: string }) {
  return (
    <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', fontSize: 12, margin: '8px 0' }} aria-label={t(m.mapLegend)}>
      {(Object.keys(CATEGORY_COLORS) as MapCategory[]).map((c) => (
        <span key={c} className="inline-flex-4">
          <span aria-hidden="true" style={{ width: 12, height: 12, borderRadius: 3, background: CATEGORY_COLORS[c], opacity: 0.8 }} />
          {c === 'unrecognized' ? (unrecognizedLabel ?? t(m.flaggedUnrecognized)) : CATEGORY_LABELS[c]}
        </span>
      ))}
    </div>
  );
}
