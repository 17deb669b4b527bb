// The marker popup of a farm: name, farmer, area and status, its EUDR verdict when it has one (issue 29), "View Details", and for an overlapping farm "Retain"
// (POST /farms/{id}/intersect). A string error from the API shows in the popup for 3 s (docs/requirements.md §8); others go to the notifier.
import { useEffect, useState } from 'react';
import Button from 'antd/es/button';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { Farm } from '@farmland/contracts';
import { verdictOf, type PickedFeature } from '../../../components/map/map-constants';
import { VerdictTag } from '../../../components/eudr/verdict-tag';
import { ApiError } from '../../../lib/api-client';
import { formatSqm } from '../../../lib/formatters';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import { useRetainFarm } from '../api/retain-farm';
import { t } from '../../../i18n';
import { farmlandsText as m } from '../farmlands.messages';
import './farmlands.css';

type Props = {
  feature: PickedFeature;
  close: () => void;
  onViewDetails?: (id: string, overlapping: boolean) => void;
  /** After a successful Retain, with the farms of the group that still overlap. */
  onRetained?: (remaining: Farm[]) => void;
};

export const POPUP_ERROR_MS = 3000;

export function FarmPopup({ feature, close, onViewDetails, onRetained }: Props) {
  const retain = useRetainFarm();
  const [error, setError] = useState<string | null>(null);
  const overlapping = feature.category === 'overlap';
  const area = Number(feature.properties['area']);
  const verdict = verdictOf(feature.properties);

  useEffect(() => {
    if (!error) return;
    const timer = setTimeout(() => setError(null), POPUP_ERROR_MS);
    return () => clearTimeout(timer);
  }, [error]);

  const onRetain = async () => {
    try {
      const res = await retain.mutateAsync(feature.id);
      notifySuccess(t(m.retained));
      close();
      onRetained?.(res.data);
    } catch (err) {
      if (err instanceof ApiError && typeof err.body?.errors === 'string') setError(err.body.errors);
      else notifyError(err);
    }
  };

  return (
    <div data-testid="farm-popup" className="farm-popup">
      <Typography.Text strong className="farm-popup-name">
        {feature.name}
      </Typography.Text>
      {feature.properties['farmer'] ? <div>{t(m.farmerIs, { name: String(feature.properties['farmer']) })}</div> : null}
      {Number.isFinite(area) && <div>{t(m.areaIs, { area: formatSqm(area) })}</div>}
      <div className="mt-4 mb-8">
        {overlapping ? <Tag color="green">{t(m.overlap)}</Tag> : <Tag color="purple">{t(m.mapped)}</Tag>}
        {verdict && <VerdictTag level={verdict} testId="popup-verdict" />}
      </div>
      {error && (
        <Typography.Text type="danger" role="alert" className="block mb-8">
          {error}
        </Typography.Text>
      )}
      <Space>
        {onViewDetails && (
          <Button size="small" onClick={() => onViewDetails(feature.id, overlapping)}>
            {t(m.viewDetails)}
          </Button>
        )}
        {overlapping && (
          <Button size="small" type="primary" loading={retain.isPending} onClick={() => void onRetain()}>
            {t(m.retain)}
          </Button>
        )}
      </Space>
    </div>
  );
}
