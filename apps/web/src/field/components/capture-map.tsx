// The capture map: the one map component's MapLibre map (components/map/use-map, offline reference style when no
// configured style answers) with the area's outline, the registry farms and earlier device captures (farm layers), and
// above it the live layer (walk-overlay.ts, a 2D canvas): the walk as it grows, crossings in red, overlaps in orange and
// the GPS position (overlaps on the map in draw mode). In draw mode terra-draw lets the agent place corners and then
// drag them. Loaded lazily: maplibre is not part of the app's first load.
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
import { STYLE, WalkOverlay, type OverlayInputs } from './walk-overlay';

export type CaptureMapProps = {
  bundle: FieldBundle;
  devicePlots: { id: string; label: string; coordinates: LngLat[] }[];
  drawing: boolean;
  line: LngLat[];
  closed: boolean;
  crossings: LngLat[];
  overlapShapes: PolygonRings[];
  position: { lng: number; lat: number; accuracy: number } | null;
  /** The walk tab is open (before, during and after a walk): the map draws fewer pixels (see WALK_PIXEL_RATIO). */
  walkTab: boolean;
  /** The drawn boundary (open ring) as it changes: while corners are added or dragged (once per frame) and when done. */
  onDrawn?: (ring: LngLat[]) => void;
  /** The map centre after each move (the point plot's "use the map centre"). */
  onCentre?: (c: LngLat) => void;
  label: string;
};

/**
 * Device pixels per CSS pixel: at most 2 (a phone's 3 costs 2.25 times the pixels for a basemap of lines and fills),
 * and 1 on the walk tab: the walk itself is on the overlay, but following the walker near an edge redraws the whole
 * map, about 100 ms at 720 × 1,480 in issue 31's walk benchmark (software WebGL, 4× CPU throttle; docs/decisions, field
 * walk record and field walk overlay). The overlay keeps up to 2. The ratio changes with the tab, not when the walk
 * starts, pauses or resumes: a change resizes the map's canvas and redraws it, a long frame in the walk (0093).
 */
const MAX_PIXEL_RATIO = 2;
const WALK_PIXEL_RATIO = 1;
/** While walking, the view moves only when the walker is within this share of its width or height from an edge. */
const FOLLOW_MARGIN = 0.2;

const empty: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };
const noShapes: PolygonRings[] = [];

/** Adds the capture's sources and layers if the style has none (a new map); true when it did. */
function ensureLayers(map: MapLibreMap): boolean {
  if (map.getSource('field-area')) return false;
  for (const id of ['field-area', 'field-overlap']) map.addSource(id, { type: 'geojson', data: empty });
  map.addLayer({ id: 'field-area-line', type: 'line', source: 'field-area', paint: { 'line-color': '#1d3557', 'line-width': 3, 'line-dasharray': [2, 1] } });
  // The overlaps in draw mode, under terra-draw's polygon and corners (elsewhere the overlay draws them).
  map.addLayer({ id: 'field-overlap-fill', type: 'fill', source: 'field-overlap', paint: { 'fill-color': STYLE.overlapFill } });
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

const setData = (map: MapLibreMap, id: string, data: GeoJSON.FeatureCollection): void => {
  // MapLibre 5's setData answers a promise of the worker's update; nothing waits on it here.
  void map.getSource<GeoJSONSource>(id)?.setData(data);
};
const collection = (geometries: GeoJSON.Geometry[]): GeoJSON.FeatureCollection => ({
  type: 'FeatureCollection',
  features: geometries.map((geometry) => ({ type: 'Feature', properties: {}, geometry })),
});

type MapInputs = Pick<OverlayInputs, 'drawing' | 'overlapShapes' | 'position'>;

/**
 * Writes to the map what the overlay does not draw, and returns what is now on it: the overlaps in draw mode (terra-draw
 * draws there, above the map's layers and under the overlay), and the follow: in `follow`, where the view should move
 * (null: it stays).
 */
function flushMap(map: MapLibreMap, now: MapInputs, sent: Partial<MapInputs>): { sent: Partial<MapInputs>; follow: { center: LngLat; zoom: number } | null } {
  if (ensureLayers(map)) sent = {};
  const shapes = now.drawing ? now.overlapShapes : noShapes;
  if (shapes !== (sent.drawing ? sent.overlapShapes : noShapes) || sent.drawing === undefined)
    setData(map, 'field-overlap', collection(shapes.map((rings): GeoJSON.Polygon => ({ type: 'Polygon', coordinates: rings }))));
  // Follow the walker, close enough to see the boundary grow (a farm is a few pixels at the area's zoom): the first fix
  // centres the map; later ones move it only when the walker nears an edge (a move redraws the map, labels and tiles).
  let follow: { center: LngLat; zoom: number } | null = null;
  if (now.position && !now.drawing && (now.position !== sent.position || now.drawing !== sent.drawing)) {
    const at = map.project([now.position.lng, now.position.lat]);
    const { clientWidth: w, clientHeight: h } = map.getContainer();
    const near = at.x < w * FOLLOW_MARGIN || at.x > w * (1 - FOLLOW_MARGIN) || at.y < h * FOLLOW_MARGIN || at.y > h * (1 - FOLLOW_MARGIN);
    if (!sent.position || now.drawing !== sent.drawing || map.getZoom() < 17 || near)
      follow = { center: [now.position.lng, now.position.lat], zoom: Math.max(map.getZoom(), 17) };
  }
  return { sent: { ...now }, follow };
}

/**
 * Runs `fn` when the page is next idle (at most `timeout` ms later), or at once where the browser has no idle callbacks;
 * returns a cancel.
 */
function whenIdle(fn: () => void, timeout: number): () => void {
  if (typeof requestIdleCallback !== 'function') {
    fn();
    return () => undefined;
  }
  const id = requestIdleCallback(fn, { timeout });
  return () => cancelIdleCallback(id);
}

function CaptureMap(props: CaptureMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const areaBox = bboxOf(geometryRings(props.bundle.area.geometry));
  const { map, error } = useMapLibre(container, {
    center: [(areaBox[0] + areaBox[2]) / 2, (areaBox[1] + areaBox[3]) / 2],
    zoom: 14,
    // The map is made at the tab's ratio (read once): a change right after the first draw would be a second full draw.
    maxPixelRatio: props.walkTab ? WALK_PIXEL_RATIO : MAX_PIXEL_RATIO,
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

  // The live boundary, overlaps, crossings and position are drawn on the overlay (walk-overlay.ts), not as map sources: a
  // setData re-tiles in MapLibre's worker and redraws the whole map, which made most of a walk's frame (issue 31's walk
  // benchmark). Inputs are taken at most once per animation frame (a burst of fixes costs one paint); the map itself is
  // written only to follow the walker near an edge and, in draw mode, for the overlaps. After a move the overlay paints
  // at the map's next 'render', so both show the same view.
  const overlayCanvas = useRef<HTMLCanvasElement>(null);
  const overlay = useRef<WalkOverlay | null>(null);
  const live = useRef<OverlayInputs | null>(null);
  const sent = useRef<Partial<MapInputs>>({});
  const frame = useRef(0);
  const cancelFollow = useRef<() => void>(() => undefined);
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
      if (!live.current || !overlay.current) return;
      const flushed = flushMap(map, live.current, sent.current);
      sent.current = flushed.sent;
      overlay.current.set(live.current);
      overlay.current.paint();
      // The follow's jump redraws the whole map: it waits for an idle moment (at most 250 ms), so that its frame is not
      // also the frame of a fix's render and paint (together they made the walk's longest frames in issue 31's walk
      // benchmark; decision 0093, ninth session's addendum). The walker is still a fifth of the view inside its edge
      // meanwhile, and the overlay repaints at the map's next render.
      if (flushed.follow) {
        const { center, zoom } = flushed.follow;
        cancelFollow.current();
        cancelFollow.current = whenIdle(() => {
          cancelFollow.current = () => undefined;
          map.jumpTo({ center, zoom });
        }, 250);
      }
    });
  }, [map, props.line, props.closed, props.crossings, props.overlapShapes, props.position, props.drawing]);
  useEffect(() => {
    if (!map || !overlayCanvas.current) return;
    const o = new WalkOverlay(map, overlayCanvas.current, MAX_PIXEL_RATIO);
    overlay.current = o;
    return () => {
      cancelAnimationFrame(frame.current);
      frame.current = 0;
      cancelFollow.current();
      cancelFollow.current = () => undefined;
      sent.current = {};
      o.destroy();
      overlay.current = null;
    };
  }, [map]);

  // Fewer pixels on the walk tab; the full ratio again in draw and point modes (one redraw each way).
  useEffect(() => {
    if (!map) return;
    const ratio = Math.min(window.devicePixelRatio || 1, props.walkTab ? WALK_PIXEL_RATIO : MAX_PIXEL_RATIO);
    if (map.getPixelRatio() !== ratio) map.setPixelRatio(ratio);
  }, [map, props.walkTab]);

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
      <canvas ref={overlayCanvas} className="field-map-overlay" data-testid="field-map-overlay" aria-hidden="true" />
      {error && <p className="field-alert field-alert-error">{error}</p>}
    </div>
  );
}

/** Memoised: the capture screen re-renders on every GPS fix, also when the fix adds nothing to the map. */
export default memo(CaptureMap);
