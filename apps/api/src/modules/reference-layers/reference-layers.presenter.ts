// Reference layers as the API shows them: whitelisted columns (never the stored file's key), dates as ISO text.
import type { ReferenceLayer, ReferenceLayerProgress } from '@farmland/contracts';
import type { LayerRow } from './reference-layers.queries.js';

const iso = (d: Date | string) => new Date(d).toISOString();

export function presentProgress(r: LayerRow): ReferenceLayerProgress {
  return {
    id: r.id,
    status: r.status,
    progress: Number(r.progress),
    features_loaded: Number(r.features_loaded),
    version: Number(r.version),
    loading_version: r.loading_version === null ? null : Number(r.loading_version),
    error: r.error,
    error_feature: r.error_feature === null ? null : Number(r.error_feature),
  };
}

export function presentLayer(r: LayerRow): ReferenceLayer {
  return {
    ...presentProgress(r),
    name: r.name,
    kind: r.kind,
    reference_date: r.reference_date,
    source: r.source,
    licence: r.licence,
    owner: r.tenant_id === null ? 'provider' : 'tenant',
    tenant_id: r.tenant_id,
    filename: r.filename,
    feature_count: Number(r.feature_count),
    piece_count: Number(r.piece_count),
    repaired_count: Number(r.repaired_count),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}
