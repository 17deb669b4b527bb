// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The landmap's legend, 'Mapped Farmlands' (docs/requirements.md §2, §9): the count classes (above 50,000; 2,000 to 50,000; 1,000 to
// 20,000; below 1,000; none; the spec's ranges overlap, so each count takes the first class it fits) for the global
// map, and for the regional map the 1 to 30 colour scale of its circles with the farm counts at its ends.
import { LANDMAP_CLASSES, LANDMAP_SCALE_STEPS, landmapScaleColor } from './map-constants';

const formatCount = (n: number) => n.toLocaleString('en-US');

export function LandmapLegend({ mode, max }: { mode: 'global' | 'regional'; max: number }) {
  return (
    <div style={{ marginTop: 8, display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center' }} role="group" aria-label="Legend: Mapped Farmlands" data-testid="landmap-legend">
      <strong>Mapped Farmlands</strong>
      {mode === 'global' ? (
        LANDMAP_CLASSES.map((c) => (
          <span key={c.label} className="inline-flex-4">
            <span aria-hidden="true" style={{ width: 12, height: 12, background: c.color, border: '1px solid #9aa5b1', display: 'inline-block' }} />
            {c.label}
          </span>
        ))
      ) : (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }} data-testid="landmap-scale">
          <span>{max > 0 ? `${formatCount(1)} farm` : 'No farms'}</span>
          <span aria-hidden="true" style={{ display: 'inline-flex', border: '1px solid #9aa5b1' }}>
            {Array.from({ length: LANDMAP_SCALE_STEPS }, (_, i) => (
              <span key={i} data-step={i + 1} style={{ width: 5, height: 12, background: landmapScaleColor(i + 1) }} />
            ))}
          </span>
          <span>
            {formatCount(max)} farms (class 1 to {LANDMAP_SCALE_STEPS}; circle area = farms in the state)
          </span>
        </span>
      )}
    </div>
  );
}
