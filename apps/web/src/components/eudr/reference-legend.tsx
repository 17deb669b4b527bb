// The legend under a map that draws EUDR evidence: each reference layer drawn, with its kind's colour and name, and a
// line when nothing meets the farm or when the evidence was cut at its limit.
import type { ReferenceLayerKind, ScreeningEvidence } from '@farmland/contracts';
import { LAYER_KIND_LABEL } from './eudr-labels';
import { t } from '../../i18n';
import { eudrText as m } from './eudr.messages';

export function ReferenceLegend({ evidence }: { evidence: ScreeningEvidence }) {
  const layers = new Map<string, { name: string; kind: ReferenceLayerKind }>();
  for (const f of evidence.features) layers.set(f.properties.layer_id, { name: f.properties.layer_name, kind: f.properties.kind });
  if (layers.size === 0) {
    return (
      <div className="text-muted small mt-4" data-testid="reference-legend">
        {t(m.noFeature)}
      </div>
    );
  }
  return (
    <div className="inline-12 small mt-4" aria-label={t(m.legendLabel)} data-testid="reference-legend">
      {[...layers.entries()].map(([id, l]) => (
        <span key={id} className="inline-flex-4">
          <span aria-hidden="true" className="legend-swatch" data-kind={l.kind} />
          {/* One flex item: the name (data, not translated) and its kind read as one line. */}
          <span>
            <span translate="no">{l.name}</span> ({LAYER_KIND_LABEL[l.kind]})
          </span>
        </span>
      ))}
      {evidence.truncated && <span className="text-muted">{t(m.truncated, { count: evidence.features.length })}</span>}
    </div>
  );
}
