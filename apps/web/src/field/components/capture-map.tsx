// The capture map: the one map component's MapLibre map (components/map/use-map, offline reference style when no
// configured style answers) with the area's outline, the registry farms and earlier device captures (farm layers), the
// walk as it grows, crossings in red, overlaps in orange and the GPS position. In draw mode terra-draw lets the agent
// place corners and then drag them. Loaded lazily: maplibre is not part of the app's first load.
import { memo, useEffect, useRef } from 'react';
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import { TerraDraw, TerraDrawPolygonMode, TerraDrawSelectMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { useMapLibre } from '../../components/map/use-map';
import { useLatest } from '../../lib/use-latest';
import { setFarmLayers } from '../../components/map/farm-layers';
import type { MapFeature } from '../../components/map/map-constants';
import type { FieldBundle } from '../api/types';
import { geometryRings } from '../geo/checks';
import { bboxOf, closeRing, type LngLat, type PolygonRings } from '../geo/geodesy';

export type CaptureMapProps = {
  bundle: FieldBundle;
  devicePlots: { id: string; label: string; coordinates: LngLat[] }[];
  drawing: boolean;
  line: LngLat[];
  closed: boolean;
  crossings: LngLat[];
  overlapShapes: PolygonRings[];
  position: { lng: number; lat: number; accuracy: number } | null;
  /** A walk is running: the map redraws at each fix, so it draws fewer pixels (see WALK_PIXEL_RATIO). */
  walking: boolean;
  /** The drawn boundary (open ring) as it changes: while corners are added or dragged (once per frame) and when done. */
  onDrawn?: (ring: LngLat[]) => void;
  /** The map centre after each move (the point plot's "use the map centre"). */
  onCentre?: (c: LngLat) => void;
  label: string;
};

/**
 * Device pixels per CSS pixel: at most 2 (a phone's 3 costs 2.25 times the pixels for a basemap of lines and fills),
 * and 1 while a walk runs. Each fix redraws the whole canvas; issue 31's walk benchmark (software WebGL, 4× CPU throttle,
 * 360 × 740 at 2) measured the redraw of a 720 × 1,480 canvas at about 100 ms (docs/decisions, field walk record).
 */
const MAX_PIXEL_RATIO = 2;
const WALK_PIXEL_RATIO = 1;
/** While walking, the view moves only when the walker is within this share of its width or height from an edge. */
const FOLLOW_MARGIN = 0.2;

const empty: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };

/** Adds the capture's sources and layers if the style has none (a new map, or a basemap switch); true when it did. */
function ensureLayers(map: MapLibreMap): boolean {
  if (map.getSource('field-live')) return false;
  for (const id of ['field-area', 'field-live', 'field-overlap', 'field-crossings', 'field-position']) map.addSource(id, { type: 'geojson', data: empty });
  map.addLayer({ id: 'field-area-line', type: 'line', source: 'field-area', paint: { 'line-color': '#1d3557', 'line-width': 3, 'line-dasharray': [2, 1] } });
  map.addLayer({ id: 'field-overlap-fill', type: 'fill', source: 'field-overlap', paint: { 'fill-color': '#f77f00', 'fill-opacity': 0.6 } });
  map.addLayer({
    id: 'field-live-fill',
    type: 'fill',
    source: 'field-live',
    filter: ['==', ['geometry-type'], 'Polygon'],
    paint: { 'fill-color': '#7b2cbf', 'fill-opacity': 0.25 },
  });
  map.addLayer({ id: 'field-live-line', type: 'line', source: 'field-live', paint: { 'line-color': '#5a189a', 'line-width': 3 } });
  map.addLayer({
    id: 'field-live-points',
    type: 'circle',
    source: 'field-live',
    filter: ['==', ['geometry-type'], 'Point'],
    paint: { 'circle-radius': 4, 'circle-color': '#5a189a' },
  });
  map.addLayer({
    id: 'field-crossings',
    type: 'circle',
    source: 'field-crossings',
    paint: { 'circle-radius': 10, 'circle-color': '#d00000', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 3 },
  });
  map.addLayer({
    id: 'field-position',
    type: 'circle',
    source: 'field-position',
    paint: { 'circle-radius': 9, 'circle-color': '#0077ff', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 3 },
  });
  return true;
}

/**
 * A terra-draw polygon's ring as an open list of corners: the closing corner dropped, and repeats in a row dropped (a
 * polygon being drawn repeats the corner under the pointer).
 */
function openRing(ring: number[][]): LngLat[] {
  const out: LngLat[] = [];
  for (const [x, y] of ring.slice(0, -1)) {
    const last = out[out.length - 1];
    if (!last || last[0] !== x || last[1] !== y) out.push([x!, y!]);
  }
  while (out.length > 1 && out[0]![0] === out[out.length - 1]![0] && out[0]![1] === out[out.length - 1]![1]) out.pop();
  return out;
}

const setData = (map: MapLibreMap, id: string, data: GeoJSON.FeatureCollection) => map.getSource<GeoJSONSource>(id)?.setData(data);
const collection = (geometries: GeoJSON.Geometry[]): GeoJSON.FeatureCollection => ({
  type: 'FeatureCollection',
  features: geometries.map((geometry) => ({ type: 'Feature', properties: {}, geometry })),
});

type LiveInputs = Pick<CaptureMapProps, 'line' | 'closed' | 'drawing' | 'crossings' | 'overlapShapes' | 'position'>;

/**
 * Writes what changed since `sent` to the map and returns what is now on it. The vertices are one MultiPoint (drawn by
 * the same circle layer as single points: 'geometry-type' reads MultiPoint as Point), not one feature per vertex.
 */
function flushLive(map: MapLibreMap, now: LiveInputs, sent: Partial<LiveInputs>): Partial<LiveInputs> {
  if (ensureLayers(map)) sent = {};
  // In draw mode terra-draw draws the boundary: the walk source is emptied once, not rewritten at each change.
  if (now.drawing !== sent.drawing || (!now.drawing && (now.line !== sent.line || now.closed !== sent.closed))) {
    const line = now.line;
    const shapes: GeoJSON.Geometry[] = [];
    if (!now.drawing && line.length > 0) {
      shapes.push({ type: 'MultiPoint', coordinates: line });
      if (line.length >= 3 && now.closed) shapes.push({ type: 'Polygon', coordinates: [closeRing(line)] });
      else if (line.length >= 2) shapes.push({ type: 'LineString', coordinates: line });
    }
    setData(map, 'field-live', collection(shapes));
  }
  if (now.crossings !== sent.crossings)
    setData(map, 'field-crossings', collection(now.crossings.map((p): GeoJSON.Point => ({ type: 'Point', coordinates: p }))));
  if (now.overlapShapes !== sent.overlapShapes)
    setData(map, 'field-overlap', collection(now.overlapShapes.map((rings): GeoJSON.Polygon => ({ type: 'Polygon', coordinates: rings }))));
  if (now.position !== sent.position)
    setData(map, 'field-position', collection(now.position ? [{ type: 'Point', coordinates: [now.position.lng, now.position.lat] }] : []));
  // Follow the walker, close enough to see the boundary grow (a farm is a few pixels at the area's zoom): the first fix
  // centres the map; later ones move it only when the walker nears an edge (a move re-places every label and tile).
  if (now.position && !now.drawing && (now.position !== sent.position || now.drawing !== sent.drawing)) {
    const at = map.project([now.position.lng, now.position.lat]);
    const { clientWidth: w, clientHeight: h } = map.getContainer();
    const near = at.x < w * FOLLOW_MARGIN || at.x > w * (1 - FOLLOW_MARGIN) || at.y < h * FOLLOW_MARGIN || at.y > h * (1 - FOLLOW_MARGIN);
    if (!sent.position || now.drawing !== sent.drawing || map.getZoom() < 17 || near)
      map.jumpTo({ center: [now.position.lng, now.position.lat], zoom: Math.max(map.getZoom(), 17) });
  }
  return { ...now };
}

function CaptureMap(props: CaptureMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const areaBox = bboxOf(geometryRings(props.bundle.area.geometry));
  const { map, error } = useMapLibre(container, {
    center: [(areaBox[0] + areaBox[2]) / 2, (areaBox[1] + areaBox[3]) / 2],
    zoom: 14,
    maxPixelRatio: MAX_PIXEL_RATIO,
    fadeDuration: 0,
  });
  const onDrawn = useLatest(props.onDrawn);
  const onCentre = useLatest(props.onCentre);
  const line = useLatest(props.line);

  // The area and the farms, once per bundle.
  useEffect(() => {
    if (!map) return;
    ensureLayers(map);
    setData(map, 'field-area', { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: props.bundle.area.geometry }] });
    const features: MapFeature[] = [
      ...props.bundle.farms.map((f): MapFeature => ({ id: f.id, name: f.name ?? '', category: 'within', rings: geometryRings(f.geometry).flat() })),
      ...props.devicePlots.map((p): MapFeature => ({ id: p.id, name: p.label, category: 'unrecognized', rings: [closeRing(p.coordinates)] })),
    ];
    setFarmLayers(map, { kind: 'geojson', features }, { markers: false });
    const b = bboxOf(geometryRings(props.bundle.area.geometry));
    map.fitBounds([b[0], b[1], b[2], b[3]], { padding: 24, duration: 0, maxZoom: 17 });
    const moveEnd = () => {
      const c = map.getCenter();
      onCentre.current?.([c.lng, c.lat]);
    };
    map.on('moveend', moveEnd);
    moveEnd();
    return () => {
      map.off('moveend', moveEnd);
    };
  }, [map, props.bundle, props.devicePlots, onCentre]);

  // The live boundary, crossings, overlaps and position, and following the walker: written to the map at most once per
  // animation frame (a burst of fixes costs one map update), and only the sources whose input changed. Each setData
  // reloads that source's tiles in the worker and every move redraws the map, so while walking only the walk and the
  // position are sent (the crossings and overlaps do not change then). Profiled with issue 31's walk benchmark.
  const live = useRef<LiveInputs | null>(null);
  const sent = useRef<Partial<LiveInputs>>({});
  const frame = useRef(0);
  useEffect(() => {
    live.current = {
      line: props.line,
      closed: props.closed,
      drawing: props.drawing,
      crossings: props.crossings,
      overlapShapes: props.overlapShapes,
      position: props.position,
    };
    if (!map || frame.current !== 0) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      if (live.current) sent.current = flushLive(map, live.current, sent.current);
    });
  }, [map, props.line, props.closed, props.crossings, props.overlapShapes, props.position, props.drawing]);
  useEffect(
    () => () => {
      cancelAnimationFrame(frame.current);
      frame.current = 0;
      sent.current = {};
    },
    [map],
  );

  // Fewer pixels while a walk runs; the full ratio again when it pauses or ends (one redraw each way).
  useEffect(() => {
    if (!map) return;
    const ratio = Math.min(window.devicePixelRatio || 1, props.walking ? WALK_PIXEL_RATIO : MAX_PIXEL_RATIO);
    if (map.getPixelRatio() !== ratio) map.setPixelRatio(ratio);
  }, [map, props.walking]);

  // Draw or adjust with terra-draw.
  useEffect(() => {
    if (!map || !props.drawing) return;
    const draw = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map }),
      modes: [
        new TerraDrawPolygonMode({ styles: { fillColor: '#7b2cbf', outlineColor: '#5a189a', fillOpacity: 0.25, outlineWidth: 3 } }),
        new TerraDrawSelectMode({ flags: { polygon: { feature: { draggable: false, coordinates: { draggable: true, midpoints: true, deletable: true } } } } }),
      ],
    });
    draw.start();
    const initial = line.current;
    if (initial.length >= 3) {
      const [res] = draw.addFeatures([{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [closeRing(initial)] }, properties: { mode: 'polygon' } }]);
      draw.setMode('select');
      if (res?.id !== undefined) draw.selectFeature(res.id);
    } else draw.setMode('polygon');
    // Live while the agent adds corners or drags one: terra-draw reports every change of its store (each click, each
    // pointer move of a drag or of the corner being placed); the boundary is read at most once per animation frame.
    let changed = 0;
    const report = () => {
      changed = 0;
      const f = draw.getSnapshot().find((x) => x.geometry.type === 'Polygon' && x.properties['mode'] === 'polygon');
      if (f && f.geometry.type === 'Polygon') onDrawn.current?.(openRing(f.geometry.coordinates[0] as number[][]));
    };
    draw.on('change', (_ids, type) => {
      if ((type === 'create' || type === 'update') && changed === 0) changed = requestAnimationFrame(report);
    });
    draw.on('finish', (id, ctx) => {
      const f = draw.getSnapshotFeature(id);
      if (!f || f.geometry.type !== 'Polygon') return;
      if (ctx.action === 'draw') {
        draw.setMode('select');
        draw.selectFeature(id);
      }
      onDrawn.current?.(openRing(f.geometry.coordinates[0] as number[][]));
    });
    return () => {
      cancelAnimationFrame(changed);
      try {
        draw.stop();
      } catch {
        // the map may be gone already
      }
    };
    // The drawing starts from the line at the moment draw mode is entered (hence line through a ref, not a dependency);
    // later changes come from terra-draw itself.
  }, [map, props.drawing, line, onDrawn]);

  return (
    <div className="field-map-wrap">
      <div ref={container} className="field-map" data-testid="field-map" data-ready={map ? 'true' : 'false'} role="region" aria-label={props.label} />
      {error && <p className="field-alert field-alert-error">{error}</p>}
    </div>
  );
}

/** Memoised: the capture screen re-renders on every GPS fix, also when the fix adds nothing to the map. */
export default memo(CaptureMap);
