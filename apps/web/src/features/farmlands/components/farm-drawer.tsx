// "View Details" of a farm that overlaps nothing: its details, "View map" to show the boundary at zoom 18, and its
// boundary history (beyond the spec): earlier boundaries with dates and areas, drawn on the map (orange) on request.
// EUDR (issue 29): the farm's plot-risk verdict with its evidence (reasons, and figures per reference layer), and the
// layer features that meet the farm drawn under it on the map, coloured by kind.
import { useMemo, useState } from 'react';
import Button from 'antd/es/button';
import List from 'antd/es/list';
import Switch from 'antd/es/switch';
import type { FarmBoundary } from '@farmland/contracts';
import type { MapFeature } from '../../../components/map/map-constants';
import { formatDateTime, formatHectares, formatSqm } from '../../../lib/formatters';
import { useFarmHistory } from '../api/get-farm-history';
import Result from 'antd/es/result';
import { LazyFarmMap } from '../../../components/map/lazy-map';
import { MAP_ZOOM } from '../../../components/map/map-constants';
import { PageLoader } from '../../../components/ui/page-loader';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { useFarm } from '../api/get-farm';
import { farmToFeature } from '../../../components/map/farm-features';
import { FarmDetails } from './farm-details';
import { OverlapPairs } from './overlap-pairs';
import { VerdictPanel } from '../../../components/eudr/verdict-panel';
import { ReferenceLegend } from '../../../components/eudr/reference-legend';
import type { ReferenceOverlay } from '../../../components/map/reference-overlay';
import { useFarmEvidence, useFarmScreening } from '../api/get-farm-screening';
import { t, type Text } from '../../../i18n';
import { farmlandsText as m } from '../farmlands.messages';
import { Inline } from '../../../components/ui/layout';
import './farmlands.css';

export function FarmDrawer({ farmId, onClose }: { farmId: string | null; onClose: () => void }) {
  const query = useFarm(farmId);
  const farm = query.data?.data;
  const [showMap, setShowMap] = useState(true);
  const [showHistory, setShowHistory] = useState(false);
  const history = useFarmHistory(farmId);
  const screening = useFarmScreening(farmId);
  const evidence = useFarmEvidence(farmId);
  const reference = evidence.data?.data as ReferenceOverlay | undefined;
  const earlier = useMemo(() => history.data?.data ?? [], [history.data]);
  const features = useMemo(() => {
    if (!farm) return [];
    const past: MapFeature[] = showHistory
      ? earlier.map((h) => ({
          id: h.id,
          name: t(m.earlierBoundary, { date: formatDateTime(h.created_at) }),
          category: 'unrecognized',
          rings: h.polygon.coordinates,
          properties: { area: h.area },
        }))
      : [];
    return [...past, farmToFeature(farm)];
  }, [farm, earlier, showHistory]);
  return (
    <SideDrawer open={Boolean(farmId)} title={farm?.name ?? t(m.farm)} onClose={onClose} width={560}>
      {query.isLoading && <PageLoader label={t(m.loadingFarm)} />}
      {query.isError && <Result status="warning" title={t(m.farmLoadFailed)} extra={<Button onClick={() => void query.refetch()}>{t(m.tryAgain)}</Button>} />}
      {farm && (
        <>
          <Inline gap={8} align="stretch" className="mb-12">
            <Button onClick={onClose}>{t(m.back)}</Button>
            <Button onClick={() => setShowMap((v) => !v)}>{showMap ? t(m.hideMap) : t(m.viewMap)}</Button>
          </Inline>
          {showMap && (
            <div className="mb-12">
              <LazyFarmMap
                features={features}
                reference={reference}
                maxFitZoom={MAP_ZOOM.farm}
                height={260}
                testId="farm-drawer-map"
                ariaLabel={t(m.mapOf, { name: farm.name })}
              />
              {evidence.data && <ReferenceLegend evidence={evidence.data.data} />}
            </div>
          )}
          <div className="mb-16">
            <VerdictPanel
              verdict={screening.data?.data.verdict}
              figures={screening.data?.data.figures}
              pendingLayers={screening.data?.data.pending_layers}
              loading={screening.isLoading}
              error={screening.isError}
            />
          </div>
          <FarmDetails farm={farm} />
          <OverlapPairs farmId={farm.id} />
          <BoundaryHistory
            items={earlier}
            loading={history.isLoading}
            showOnMap={showHistory}
            onShowOnMap={(v) => {
              setShowHistory(v);
              if (v) setShowMap(true);
            }}
          />
        </>
      )}
    </SideDrawer>
  );
}

const REASONS: Record<string, Text> = { retain: m.reasonRetain, edit: m.reasonEdit };

function BoundaryHistory({
  items,
  loading,
  showOnMap,
  onShowOnMap,
}: {
  items: readonly FarmBoundary[];
  loading: boolean;
  showOnMap: boolean;
  onShowOnMap: (v: boolean) => void;
}) {
  return (
    <div className="mt-16" data-testid="boundary-history">
      <Inline gap={0} justify="between" className="mb-6">
        <span className="strong">{t(m.boundaryHistory)}</span>
        {items.length > 0 && (
          <label className="inline-flex gap-8 history-toggle">
            <Switch size="small" checked={showOnMap} onChange={onShowOnMap} aria-label={t(m.drawEarlierAria)} />
            {t(m.drawOnMap)}
          </label>
        )}
      </Inline>
      <List<FarmBoundary>
        size="small"
        loading={loading}
        dataSource={[...items]}
        locale={{ emptyText: t(m.noEarlier) }}
        renderItem={(h) => (
          <List.Item>
            <List.Item.Meta
              title={t(m.historyItem, { reason: REASONS[h.reason] ? t(REASONS[h.reason]!) : h.reason, date: formatDateTime(h.created_at) })}
              description={
                h.created_by
                  ? t(m.historyAreaBy, { sqm: formatSqm(h.area), ha: formatHectares(h.area), name: h.created_by })
                  : t(m.historyArea, { sqm: formatSqm(h.area), ha: formatHectares(h.area) })
              }
            />
          </List.Item>
        )}
      />
    </div>
  );
}
