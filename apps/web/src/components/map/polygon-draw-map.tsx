// The operational-area editor's map (zoom 12): draws one polygon with terra-draw (click each point, click the first
// point again or double-click to close), lets its vertices be dragged or midpoints inserted, and offers "Undo" back to
// the coordinates before the last drag (docs/requirements.md §4). Other areas show underneath for reference. The page renders the
// popup that offers to proceed (overlay), so its messages and calls stay with the feature.
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Alert from 'antd/es/alert';
import { TerraDraw, TerraDrawPolygonMode, TerraDrawSelectMode, type GeoJSONStoreFeatures } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { boundsOf, setFarmLayers } from './farm-layers';
import { MAP_ZOOM, type MapFeature } from './map-constants';
import { useMapLibre } from './use-map';
import { useLatest } from '../../lib/use-latest';
import { t } from '../../i18n';
import { mapText as m } from './map.messages';
import './map.css';

export type Ring = [number, number][];

export type PolygonDrawMapProps = {
  /** The polygon being edited (an existing area), or none to draw a new one. */
  initial?: Ring | null | undefined;
  /** Other polygons shown for reference (not editable). */
  context?: readonly MapFeature[];
  center?: [number, number] | undefined;
  zoom?: number;
  /** Every completed or edited polygon (closed ring), or null when it is cleared. */
  onChange: (ring: Ring | null) => void;
  onMoveEnd?: (center: [number, number]) => void;
  /** The page's popup over the map (proceed, confirm, errors). */
  overlay?: ReactNode;
  height?: CSSProperties['height'];
};

const closeRing = (ring: Ring): Ring => {
  const first = ring[0];
  const last = ring[ring.length - 1];
  return first && last && (first[0] !== last[0] || first[1] !== last[1]) ? [...ring, first] : ring;
};
const ringOf = (f: GeoJSONStoreFeatures | undefined): Ring | null =>
  f && f.geometry.type === 'Polygon' ? (f.geometry.coordinates[0] as Ring).map(([x, y]) => [x, y] as [number, number]) : null;

export function PolygonDrawMap(props: PolygonDrawMapProps) {
  const { height = 480 } = props;
  const container = useRef<HTMLDivElement>(null);
  const { map, error } = useMapLibre(container, { center: props.center, zoom: props.zoom ?? MAP_ZOOM.areaEditor });
  const drawRef = useRef<TerraDraw | null>(null);
  const featureId = useRef<string | number | null>(null);
  const current = useRef<Ring | null>(props.initial ? closeRing(props.initial) : null);
  const [undoRing, setUndoRing] = useState<Ring | null>(null);
  const [hasPolygon, setHasPolygon] = useState(Boolean(props.initial?.length));
  const onChange = useLatest(props.onChange);
  const onMoveEnd = useLatest(props.onMoveEnd);

  // Reference polygons underneath the drawing (no markers, no popups).
  useEffect(() => {
    if (!map) return;
    setFarmLayers(map, { kind: 'geojson', features: props.context ?? [] }, { markers: false });
  }, [map, props.context]);

  useEffect(() => {
    if (!map) return;
    const draw = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map }),
      modes: [
        new TerraDrawPolygonMode({ styles: { fillColor: '#7b2cbf', outlineColor: '#7b2cbf', fillOpacity: 0.25, outlineWidth: 2 } }),
        new TerraDrawSelectMode({
          flags: { polygon: { feature: { draggable: false, coordinates: { draggable: true, midpoints: true, deletable: true } } } },
        }),
      ],
    });
    draw.start();
    drawRef.current = draw;
    const initial = current.current;
    if (initial && initial.length >= 4) {
      const [result] = draw.addFeatures([{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [initial] }, properties: { mode: 'polygon' } }]);
      featureId.current = result?.id ?? null;
      const b = boundsOf([{ id: 'initial', name: '', category: 'within', rings: [initial] }]);
      if (b) map.fitBounds(b, { padding: 60, maxZoom: MAP_ZOOM.farm, duration: 0 });
      draw.setMode('select');
      if (featureId.current !== null) draw.selectFeature(featureId.current);
    } else {
      draw.setMode('polygon');
    }
    draw.on('finish', (id, ctx) => {
      const ring = ringOf(draw.getSnapshotFeature(id));
      if (!ring) return;
      if (ctx.action === 'draw') {
        featureId.current = id;
        setHasPolygon(true);
        draw.setMode('select');
        draw.selectFeature(id);
      } else if (ctx.action === 'dragCoordinate' || ctx.action === 'insertMidpoint' || ctx.action === 'deleteCoordinate') {
        if (current.current) setUndoRing(current.current);
      }
      current.current = ring;
      onChange.current(ring);
    });
    const moveEnd = () => {
      const c = map.getCenter();
      onMoveEnd.current?.([c.lng, c.lat]);
    };
    map.on('moveend', moveEnd);
    return () => {
      map.off('moveend', moveEnd);
      try {
        draw.stop();
      } catch {
        // the map may already be gone
      }
      drawRef.current = null;
    };
  }, [map, onChange, onMoveEnd]);

  const undo = () => {
    const draw = drawRef.current;
    if (!draw || featureId.current === null || !undoRing) return;
    draw.updateFeatureGeometry(featureId.current, { type: 'Polygon', coordinates: [undoRing] });
    current.current = undoRing;
    onChange.current(undoRing);
    setUndoRing(null);
  };

  const clear = () => {
    const draw = drawRef.current;
    if (!draw) return;
    draw.clear();
    featureId.current = null;
    current.current = null;
    setUndoRing(null);
    setHasPolygon(false);
    draw.setMode('polygon');
    onChange.current(null);
  };

  return (
    <div className="map-frame" style={{ height }}>
      <div ref={container} data-testid="draw-map" data-ready={map ? 'true' : 'false'} role="region" aria-label={t(m.drawArea)} className="map-canvas" />
      <div className="map-tools">
        {undoRing && (
          <Button size="small" onClick={undo}>
            {t(m.undo)}
          </Button>
        )}
        {hasPolygon && (
          <Button size="small" onClick={clear}>
            {t(m.clearRedraw)}
          </Button>
        )}
      </div>
      {!hasPolygon && map && <div className="map-hint">{t(m.drawHelp)}</div>}
      {error && <Alert type="warning" showIcon title={t(m.mapNotShown)} description={error} className="map-alert" />}
      {props.overlay}
    </div>
  );
}
