// The landmap's legend, 'Mapped Farmlands' (docs/requirements.md §2, §9): the count classes (above 50,000; 2,000 to 50,000; 1,000 to
// 20,000; below 1,000; none; the spec's ranges overlap, so each count takes the first class it fits) for the global
// map, and for the regional map the 1 to 30 colour scale of its circles with the farm counts at its ends.
import { LANDMAP_CLASSES, LANDMAP_SCALE_STEPS, landmapScaleColor } from './map-constants';
import { t } from '../../i18n';
import { mapText as m } from './map.messages';
import { formatNumber } from '../../lib/formatters';
import { Inline } from '../ui/layout';
import './map.css';

const formatCount = (n: number) => formatNumber(n);

export function LandmapLegend({ mode, max }: { mode: 'global' | 'regional'; max: number }) {
  return (
    <Inline gap={12} wrap className="mt-8" role="group" aria-label={t(m.legendMapped)} data-testid="landmap-legend">
      <strong>{t(m.mappedFarmlands)}</strong>
      {mode === 'global' ? (
        LANDMAP_CLASSES.map((c) => (
          <span key={c.min} className="inline-flex-4">
            <span aria-hidden="true" className="landmap-swatch" style={{ background: c.color }} />
            {t(c.text)}
          </span>
        ))
      ) : (
        <span className="inline-flex gap-6" data-testid="landmap-scale">
          <span>{max > 0 ? t(m.oneFarm, { count: formatCount(1) }) : t(m.noFarms)}</span>
          <span aria-hidden="true" className="landmap-scale-bar">
            {Array.from({ length: LANDMAP_SCALE_STEPS }, (_, i) => (
              <span key={i} data-step={i + 1} className="landmap-step" style={{ background: landmapScaleColor(i + 1) }} />
            ))}
          </span>
          <span>{t(m.scaleEnd, { count: formatCount(max), steps: LANDMAP_SCALE_STEPS })}</span>
        </span>
      )}
    </Inline>
  );
}
