// Creates one MapLibre map in a container with the resolved basemap (configured style or the offline style), and hands
// it back once its style has loaded. Vector tiles of the API carry the session's bearer token.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Map as MapLibreMap, NavigationControl, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { getAccessToken } from '../../lib/session-store';
import { clientKeyHeader } from '../../lib/payload-crypto';
import { resolveBasemap } from './basemap';
import { BasemapSwitch, configuredLabel } from './basemap-switch';
import { DEFAULT_CENTER } from './map-constants';
import { t } from '../../i18n';
import { mapText as m } from './map.messages';

// The worker is a separate module file; Vite gives it a hashed URL of its own.
setWorkerUrl(new URL(workerUrl, window.location.href).href);

/**
 * printable: the WebGL drawing buffer is kept after each frame, so the browser's print (and PDF) shows the map, not an
 * empty canvas; it costs a copy per frame, so only printable pages ask for it (the due-diligence report).
 */
export type MapInit = {
  center?: [number, number] | undefined;
  zoom?: number | undefined;
  printable?: boolean | undefined;
  /** The most device pixels per CSS pixel the map draws (a phone's 2 or 3 costs 4 or 9 times the pixels of 1). */
  maxPixelRatio?: number | undefined;
  /** Symbol fade-in after a move, ms (MapLibre's default 300 repaints every frame for that long). */
  fadeDuration?: number | undefined;
};

/** MapLibre's own width below which it makes the attribution compact. */
const COMPACT_WIDTH = 640;

/**
 * On a small map (a phone), the compact attribution starts collapsed to its "i" button: MapLibre opens it at first and
 * closes it only on the first drag, and open it covered the field app's controls on a 360 × 740 or 390 × 844 phone.
 * It is collapsed whenever MapLibre (re)opens it by itself (attributions arriving with a source, a resize); the button
 * still opens it on demand. Wider maps keep MapLibre's behaviour.
 */
function collapseAttributionOnSmallScreens(map: MapLibreMap): void {
  let userOpened = false;
  const container = map.getContainer();
  const collapse = () => {
    if (userOpened || container.offsetWidth > COMPACT_WIDTH) return;
    container.querySelector('.maplibregl-ctrl-attrib.maplibregl-compact-show')?.classList.remove('maplibregl-compact-show');
  };
  container.addEventListener('click', (e) => {
    if ((e.target as Element | null)?.closest?.('.maplibregl-ctrl-attrib-button')) userOpened = true;
  });
  for (const event of ['styledata', 'sourcedata', 'resize', 'load'] as const) map.on(event, collapse);
  collapse();
}

/** The map instance once loaded (null before), whether the offline style is in use, and a load error if WebGL is missing. */
export function useMapLibre(container: RefObject<HTMLDivElement | null>, init: MapInit) {
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [offline, setOffline] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const initRef = useRef(init);

  useEffect(() => {
    let cancelled = false;
    let created: MapLibreMap | null = null;
    void resolveBasemap().then(({ style, offline: isOffline, alternative }) => {
      if (cancelled || !container.current) return;
      let instance: MapLibreMap;
      try {
        instance = new MapLibreMap({
          container: container.current,
          style,
          center: initRef.current.center ?? DEFAULT_CENTER,
          zoom: initRef.current.zoom ?? 8,
          attributionControl: { compact: true },
          // MapLibre's own control texts, in the page's language.
          locale: {
            'NavigationControl.ZoomIn': t(m.zoomIn),
            'NavigationControl.ZoomOut': t(m.zoomOut),
            'NavigationControl.ResetBearing': t(m.resetBearing),
            'AttributionControl.ToggleAttribution': t(m.toggleAttribution),
            'Map.Title': t(m.mapRegion),
            'FullscreenControl.Enter': t(m.fullscreen),
            'FullscreenControl.Exit': t(m.exitFullscreen),
            'GeolocateControl.FindMyLocation': t(m.findMyLocation),
            'Popup.Close': t(m.popupClose),
          },
          ...(initRef.current.printable ? { canvasContextAttributes: { preserveDrawingBuffer: true } } : {}),
          ...(initRef.current.maxPixelRatio ? { pixelRatio: Math.min(window.devicePixelRatio || 1, initRef.current.maxPixelRatio) } : {}),
          ...(initRef.current.fadeDuration !== undefined ? { fadeDuration: initRef.current.fadeDuration } : {}),
          transformRequest: (url: string) => {
            const token = getAccessToken();
            if (!token || !url.startsWith(`${window.location.origin}/api/`)) return { url };
            // Tiles are binary (never encrypted), but with PAYLOAD_ENCRYPTION=required every API call carries the key.
            const clientKey = clientKeyHeader();
            return { url, headers: { Authorization: `Bearer ${token}`, ...(clientKey ? { 'X-Client-Key': clientKey } : {}) } };
          },
        });
      } catch (err) {
        setError(err instanceof Error ? err.message : t(m.mapNotStarted));
        return;
      }
      created = instance;
      collapseAttributionOnSmallScreens(instance);
      instance.addControl(new NavigationControl({ showCompass: false }), 'top-right');
      const root = container.current;
      root.dataset['basemap'] = isOffline ? 'reference' : 'configured';
      if (alternative) {
        const choices = [
          { key: 'configured' as const, label: configuredLabel(style), style },
          { key: 'reference' as const, label: t(m.reference), style: alternative },
        ];
        instance.addControl(new BasemapSwitch(choices, (key) => (root.dataset['basemap'] = key)), 'top-left');
      }
      // Tests and the benchmark reach the instance through the container.
      (container.current as HTMLDivElement & { __map?: MapLibreMap }).__map = instance;
      setOffline(isOffline);
      instance.once('load', () => {
        if (!cancelled) setMap(instance);
      });
    });
    return () => {
      cancelled = true;
      created?.remove();
      setMap(null);
    };
  }, [container]);

  return { map, offline, error };
}
