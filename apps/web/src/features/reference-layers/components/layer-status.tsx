// A layer's job as the API reports it: Queued, Loading (features read so far), Screening farms (a progress bar), Ready, or
// Failed with the reader's message and the feature number it is about; after a failed replacement the version in use
// stays, and this says so.
import Progress from 'antd/es/progress';
import Tag from 'antd/es/tag';
import type { ReferenceLayerProgress } from '@farmland/contracts';
import { formatNumber } from '../../../lib/formatters';
import { t, type Text } from '../../../i18n';
import { referenceLayersText as m } from '../reference-layers.messages';

const LABEL: Record<ReferenceLayerProgress['status'], Text> = {
  queued: m.statusQueued,
  loading: m.statusLoading,
  screening: m.statusScreening,
  ready: m.statusReady,
  failed: m.statusFailed,
};
const COLOR: Record<ReferenceLayerProgress['status'], string> = {
  queued: 'default',
  loading: 'processing',
  screening: 'processing',
  ready: 'success',
  failed: 'error',
};

/** "Feature 12: The geometry is a LineString…", or the message alone when it is about the whole file. */
export function layerErrorText(p: Pick<ReferenceLayerProgress, 'error' | 'error_feature'>): string | null {
  if (!p.error) return null;
  return p.error_feature ? t(m.featureError, { n: formatNumber(p.error_feature), error: p.error }) : p.error;
}

export function LayerStatus({ progress, detailed = false }: { progress: ReferenceLayerProgress; detailed?: boolean }) {
  const { status } = progress;
  const running = status === 'queued' || status === 'loading' || status === 'screening';
  const error = layerErrorText(progress);
  return (
    <div data-testid="layer-status" data-status={status}>
      <Tag color={COLOR[status]}>{t(LABEL[status])}</Tag>
      {running && (
        <>
          <Progress
            percent={progress.progress}
            size="small"
            status="active"
            aria-label={t(m.progressLabel, { status: t(LABEL[status]), progress: String(progress.progress) })}
          />
          {status === 'loading' && (
            <div className="text-muted small">{t(m.featuresRead, { count: progress.features_loaded, n: formatNumber(progress.features_loaded) })}</div>
          )}
        </>
      )}
      {status === 'failed' && error && (
        <div className={detailed ? 'mt-8' : 'text-muted small wrap-anywhere'} data-testid="layer-error" role={detailed ? 'alert' : undefined}>
          {error}
          {progress.version > 0 && <span className="block">{t(m.versionStays, { version: String(progress.version) })}</span>}
        </div>
      )}
    </div>
  );
}
