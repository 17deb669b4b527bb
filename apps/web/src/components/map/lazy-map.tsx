// The map components as lazy chunks: a page imports these, and MapLibre (about 250 KB gzip) loads only when a map shows.
import { lazy, Suspense } from 'react';
import Skeleton from 'antd/es/skeleton';
import type { FarmMapProps } from './farm-map';
import type { PolygonDrawMapProps } from './polygon-draw-map';
import type { LandMapProps } from './land-map';
import { t } from '../../i18n';
import { mapText as m } from './map.messages';
import './map.css';

const FarmMapChunk = lazy(async () => ({ default: (await import('./farm-map')).FarmMap }));
const LandMapChunk = lazy(async () => ({ default: (await import('./land-map')).LandMap }));
const PolygonDrawMapChunk = lazy(async () => ({ default: (await import('./polygon-draw-map')).PolygonDrawMap }));

function MapFallback({ height }: { height: FarmMapProps['height'] }) {
  return (
    <div className="full-width" style={{ height: height ?? 480 }} role="status" aria-label={t(m.loadingMap)}>
      <Skeleton.Node active classNames={{ content: 'map-skeleton' }} />
    </div>
  );
}

export function LazyFarmMap(props: FarmMapProps) {
  return (
    <Suspense fallback={<MapFallback height={props.height} />}>
      <FarmMapChunk {...props} />
    </Suspense>
  );
}

export function LazyPolygonDrawMap(props: PolygonDrawMapProps) {
  return (
    <Suspense fallback={<MapFallback height={props.height} />}>
      <PolygonDrawMapChunk {...props} />
    </Suspense>
  );
}

export function LazyLandMap(props: LandMapProps) {
  return (
    <Suspense fallback={<MapFallback height={props.height} />}>
      <LandMapChunk {...props} />
    </Suspense>
  );
}
