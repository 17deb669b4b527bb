// "View Details" of a farm that overlaps nothing: its details, and "View map" to show the boundary at zoom 18.
import { useMemo, useState } from 'react';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { LazyFarmMap } from '../../../components/map/lazy-map';
import { MAP_ZOOM } from '../../../components/map/map-constants';
import { PageLoader } from '../../../components/ui/page-loader';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { useFarm } from '../api/get-farm';
import { farmToFeature } from './farm-features';
import { FarmDetails } from './farm-details';

export function FarmDrawer({ farmId, onClose }: { farmId: string | null; onClose: () => void }) {
  const query = useFarm(farmId);
  const farm = query.data?.data;
  const [showMap, setShowMap] = useState(true);
  const features = useMemo(() => (farm ? [farmToFeature(farm)] : []), [farm]);
  return (
    <SideDrawer open={Boolean(farmId)} title={farm?.name ?? 'Farm'} onClose={onClose} width={560}>
      {query.isLoading && <PageLoader label="Loading farm" />}
      {query.isError && <Result status="warning" title="This farm could not be loaded." extra={<Button onClick={() => void query.refetch()}>Try again</Button>} />}
      {farm && (
        <>
          <div style={{ display: 'flex', gap: 8, marginBottom: 12 }}>
            <Button onClick={onClose}>Back</Button>
            <Button onClick={() => setShowMap((v) => !v)}>{showMap ? 'Hide map' : 'View map'}</Button>
          </div>
          {showMap && (
            <div style={{ marginBottom: 12 }}>
              <LazyFarmMap features={features} maxFitZoom={MAP_ZOOM.farm} height={260} testId="farm-drawer-map" ariaLabel={`Map of ${farm.name}`} />
            </div>
          )}
          <FarmDetails farm={farm} />
        </>
      )}
    </SideDrawer>
  );
}
