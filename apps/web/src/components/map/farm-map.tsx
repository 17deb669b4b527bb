// The one map of the console (issue 8): farms or areas as coloured polygons with a marker each, popups rendered by the
// page (React, through a portal, so they keep the app's providers), fit to bounds, or vector tiles for large registries.
// Loaded lazily (lazy-map.tsx): MapLibre never reaches the sign-in route's bundle.
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Popup, type MapLayerMouseEvent, type MapMouseEvent } from 'maplibre-gl';
import Alert from 'antd/es/alert';
import { setAreaOutlines, type AreaOutline } from './area-outlines';
import { setReferenceOverlay, type ReferenceOverlay } from './reference-overlay';
import { boundsOf, FARM_LAYERS, filterCategories, isClusterFeature, setFarmColors, setFarmLayers } from './farm-layers';
import { MAP_ZOOM, type MapCategory, type MapColorBy, type MapFeature, type PickedFeature } from './map-constants';
import { useMapLibre } from './use-map';
import { useLatest } from '../../lib/use-latest';
import { t } from '../../i18n';
import { mapText as m } from './map.messages';
import './map.css';

export type FarmMapProps = {
  features?: readonly MapFeature[];
  /** A vector tile URL template ({z}/{x}/{y}); used instead of features for large registries. */
  tilesUrl?: string | undefined;
  /** Fits the view to the features whenever they change (default true). */
  fitToFeatures?: boolean;
  /** The features to fit to, when not all of them (e.g. without far outliers: fit-core.ts). */
  fitFeatures?: readonly MapFeature[];
  center?: [number, number] | undefined;
  zoom?: number;
  /** Upper zoom limit when fitting (spec: 18 for farms). */
  maxFitZoom?: number;
  markers?: boolean;
  categories?: readonly MapCategory[] | null;
  /** Colour the farms by category (default) or by EUDR verdict (their "verdict" property; map-legend.tsx has the switch). */
  colorBy?: MapColorBy;
  /** Operational areas drawn as labelled outlines under the farms. */
  outlines?: readonly AreaOutline[] | undefined;
  /** Reference-layer features (EUDR evidence) drawn under the farms, coloured by kind. */
  reference?: ReferenceOverlay | undefined;
  renderPopup?: (feature: PickedFeature, close: () => void) => ReactNode;
  onMoveEnd?: (center: [number, number], zoom: number) => void;
  height?: CSSProperties['height'];
  ariaLabel?: string;
  testId?: string;
  /** Kept drawn for the browser's print (use-map.ts). */
  printable?: boolean;
};

export function FarmMap(props: FarmMapProps) {
  const { features, tilesUrl, fitToFeatures = true, markers = true, categories = null, colorBy = 'category', height = 480 } = props;
  const container = useRef<HTMLDivElement>(null);
  const { map, offline, error } = useMapLibre(container, { center: props.center, zoom: props.zoom, printable: props.printable });
  const [picked, setPicked] = useState<PickedFeature | null>(null);
  const [popupHost, setPopupHost] = useState<HTMLDivElement | null>(null);
  const onMoveEnd = useLatest(props.onMoveEnd);
  const fitted = useRef<string | null>(null);
  const maxFitZoom = props.maxFitZoom ?? MAP_ZOOM.farm;

  // The colouring (category, or EUDR verdict), set before the data below: layers created there already follow it.
  useEffect(() => {
    if (!map) return;
    setFarmColors(map, colorBy);
    const root = container.current;
    if (root) root.dataset['colorBy'] = colorBy;
  }, [map, colorBy]);

  // Data: GeoJSON below the tile threshold, tiles above it.
  useEffect(() => {
    if (!map) return;
    // Concatenated, not new URL(): that would percent-encode the {z}/{x}/{y} placeholders.
    if (tilesUrl) setFarmLayers(map, { kind: 'tiles', url: tilesUrl.startsWith('/') ? `${window.location.origin}${tilesUrl}` : tilesUrl }, { markers });
    else setFarmLayers(map, { kind: 'geojson', features: features ?? [] }, { markers });
    const root = container.current;
    if (root) root.dataset['features'] = String(tilesUrl ? -1 : (features?.length ?? 0));
    if (!tilesUrl && fitToFeatures && features?.length) {
      const key = `${features.length}:${features[0]?.id}:${features[features.length - 1]?.id}`;
      if (fitted.current !== key) {
        fitted.current = key;
        const b = boundsOf(props.fitFeatures ?? features);
        if (b) map.fitBounds(b, { padding: 40, maxZoom: maxFitZoom, duration: 0 });
      }
    }
  }, [map, features, tilesUrl, markers, fitToFeatures, maxFitZoom, props.fitFeatures]);

  useEffect(() => {
    if (map) filterCategories(map, categories);
  }, [map, categories]);

  const outlines = props.outlines;
  useEffect(() => {
    if (!map || !outlines) return;
    setAreaOutlines(map, outlines);
    const root = container.current;
    if (root) root.dataset['outlines'] = String(outlines.length);
  }, [map, outlines]);

  const reference = props.reference;
  useEffect(() => {
    if (!map || !reference) return;
    setReferenceOverlay(map, reference);
    const root = container.current;
    if (root) root.dataset['reference'] = String(reference.features.length);
  }, [map, reference]);

  // Recentre when the page asks (a search picks a farm).
  // (it depends on the centre's value, not its array identity: the view is read from the latest props)
  const centerKey = props.center ? props.center.join(',') : '';
  const view = useLatest({ center: props.center, zoom: props.zoom });
  useEffect(() => {
    const { center, zoom } = view.current;
    if (!map || !center) return;
    map.jumpTo({ center, ...(zoom !== undefined ? { zoom } : {}) });
  }, [map, centerKey, view]);

  // Clicks on a marker or a polygon open the page's popup; the pointer shows what is clickable.
  useEffect(() => {
    if (!map) return;
    const layers = [FARM_LAYERS.markers, FARM_LAYERS.singles, FARM_LAYERS.clusters, FARM_LAYERS.fill].filter((id) => map.getLayer(id));
    const onClick = (e: MapLayerMouseEvent) => {
      const f = e.features?.[0];
      if (!f) return;
      const p = f.properties as Record<string, unknown>;
      const lngLat: [number, number] = f.geometry.type === 'Point' ? (f.geometry.coordinates as [number, number]) : [e.lngLat.lng, e.lngLat.lat];
      setPicked({ id: String(p['id'] ?? f.id), name: String(p['name'] ?? ''), category: p['category'] as MapCategory, lngLat, properties: p });
    };
    const enter = () => (map.getCanvas().style.cursor = 'pointer');
    const leave = () => (map.getCanvas().style.cursor = '');
    const moveEnd = () => {
      const c = map.getCenter();
      onMoveEnd.current?.([c.lng, c.lat], map.getZoom());
    };
    // The marker wins over the polygon under it: one handler on the top layer first.
    const onClickAny = (e: MapMouseEvent) => {
      const hits = map.queryRenderedFeatures(e.point, { layers });
      if (!hits.length) return;
      const hit = hits[0]!;
      // A cluster of several farms: zoom in on it (two levels, at least to where it splits up).
      if (isClusterFeature(hit.layer.id) && hit.geometry.type === 'Point') {
        map.easeTo({ center: hit.geometry.coordinates as [number, number], zoom: Math.min(MAP_ZOOM.farm, Math.floor(map.getZoom()) + 2) });
        return;
      }
      onClick({ ...e, features: [hit] } as unknown as MapLayerMouseEvent);
    };
    map.on('click', onClickAny);
    for (const id of layers) {
      map.on('mouseenter', id, enter);
      map.on('mouseleave', id, leave);
    }
    map.on('moveend', moveEnd);
    // The first fit happens before this listener exists: report the starting view too.
    moveEnd();
    return () => {
      map.off('click', onClickAny);
      for (const id of layers) {
        map.off('mouseenter', id, enter);
        map.off('mouseleave', id, leave);
      }
      map.off('moveend', moveEnd);
    };
  }, [map, features, tilesUrl, onMoveEnd]);

  // The popup: a MapLibre popup whose content is rendered by React through a portal.
  const hasPopup = Boolean(props.renderPopup);
  useEffect(() => {
    if (!map || !picked || !hasPopup) return;
    const el = document.createElement('div');
    // The host is the popup's DOM node, made here for MapLibre: React renders into it through a portal.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setPopupHost(el);
    const popup = new Popup({ closeOnClick: true, maxWidth: '320px', offset: 10 }).setLngLat(picked.lngLat).setDOMContent(el).addTo(map);
    popup.on('close', () => setPicked((cur) => (cur === picked ? null : cur)));
    return () => {
      popup.remove();
      setPopupHost(null);
    };
  }, [map, picked, hasPopup]);

  const close = () => setPicked(null);

  return (
    <div className="map-frame" style={{ height }}>
      <div
        ref={container}
        data-testid={props.testId ?? 'farm-map'}
        data-ready={map ? 'true' : 'false'}
        data-offline={offline ? 'true' : 'false'}
        role="region"
        aria-label={props.ariaLabel ?? t(m.farmMap)}
        className="map-canvas"
      />
      {error && <Alert type="warning" showIcon title={t(m.mapNotShown)} description={error} className="map-alert" />}
      {picked && props.renderPopup && popupHost && createPortal(props.renderPopup(picked, close), popupHost)}
    </div>
  );
}
