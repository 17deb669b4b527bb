// "Overlapping Farmlands": the farm's overlap group on a map (marker popups offer Retain) and, per farm (the opened one
// first), its overlap pairs with their measures (area, share of each farm, IoU, slivers marked: the farm drawer's
// OverlapPairs, issue 28), then its farmer, coordinates, size, operational area and snapshots. After Retain the group is
// re-read, and the pairs with it (both are farm queries); when nothing overlaps any more the drawer closes
// (docs/requirements.md §4).
import { useMemo } from 'react';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Result from 'antd/es/result';
import Tag from 'antd/es/tag';
import type { Farm } from '@farmland/contracts';
import { LazyFarmMap } from '../../../components/map/lazy-map';
import { PageLoader } from '../../../components/ui/page-loader';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { formatNumber } from '../../../lib/formatters';
import { useOverlappingFarms } from '../api/get-overlapping-farms';
import { farmToFeature } from '../../../components/map/farm-features';
import { FarmDetails } from './farm-details';
import { FarmPopup } from './farm-popup';
import { OverlapPairs } from './overlap-pairs';
import { FormattedMessage } from 'react-intl';
import { t } from '../../../i18n';
import { farmlandsText as m } from '../farmlands.messages';
import './farmlands.css';

export function OverlappingDrawer({ farmId, onClose }: { farmId: string | null; onClose: () => void }) {
  const query = useOverlappingFarms(farmId);
  const farms = useMemo(() => openedFirst(query.data?.data.results ?? [], farmId), [query.data, farmId]);
  const features = useMemo(() => farms.map(farmToFeature), [farms]);
  const onRetained = (remaining: Farm[]) => {
    if (remaining.length === 0) onClose();
    else void query.refetch();
  };
  return (
    <SideDrawer open={Boolean(farmId)} title={t(m.overlappingTitle)} onClose={onClose} width={640}>
      {query.isLoading && <PageLoader label={t(m.loadingOverlapping)} />}
      {query.isError && (
        <Result status="warning" title={t(m.overlappingLoadFailed)} extra={<Button onClick={() => void query.refetch()}>{t(m.tryAgain)}</Button>} />
      )}
      {query.isSuccess && farms.length === 0 && <Result status="success" title={t(m.noLongerOverlaps)} />}
      {farms.length > 0 && (
        <>
          <p className="mt-0">
            <FormattedMessage {...m.conflicting} values={{ count: formatNumber(farms.length), strong: (chunks) => <strong>{chunks}</strong> }} />
          </p>
          <p className="text-muted">{t(m.pairsExplained)}</p>
          <LazyFarmMap
            features={features}
            height={300}
            testId="overlap-map"
            ariaLabel={t(m.overlapMapAria)}
            renderPopup={(f, close) => <FarmPopup feature={f} close={close} onRetained={onRetained} />}
          />
          <div className="overlap-cards mt-12">
            {farms.map((farm) => (
              <Card
                key={farm.id}
                size="small"
                title={farm.name}
                extra={farm.is_overlapping ? <Tag color="green">{t(m.overlap)}</Tag> : <Tag color="purple">{t(m.mapped)}</Tag>}
              >
                <OverlapPairs farmId={farm.id} className="mb-12" />
                <FarmDetails farm={farm} />
              </Card>
            ))}
          </div>
        </>
      )}
    </SideDrawer>
  );
}

/** The group with the farm the drawer was opened on first, the others in the API's order. */
function openedFirst(farms: readonly Farm[], farmId: string | null): Farm[] {
  const opened = farms.filter((f) => f.id === farmId);
  return [...opened, ...farms.filter((f) => f.id !== farmId)];
}
