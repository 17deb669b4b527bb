// The basemap switch (issue 33, item 17): when the deployment configures a style (MAP_STYLE_URL, typically satellite
// imagery), a small control on the map chooses between it and the offline reference map. Switching keeps every layer
// the page added (farms, outlines): they are carried from the old style into the new one.
import type { IControl, Map as MapLibreMap, StyleSpecification } from 'maplibre-gl';
import { t } from '../../i18n';
import { mapText as m } from './map.messages';

export type BasemapChoice = { key: 'configured' | 'reference'; label: string; style: StyleSpecification };

/** The configured style's name on the switch: "Satellite" for imagery, else the style's own name. */
export function configuredLabel(style: StyleSpecification): string {
  const name = style.name?.trim() ?? '';
  if (/satellite|imagery|aerial|orthophoto/i.test(name) || Object.values(style.sources ?? {}).some((s) => s.type === 'raster')) return t(m.satellite);
  return name || t(m.configuredMap);
}

/** Replaces the basemap and keeps the layers and sources that did not come from the old basemap. */
export function switchBasemap(map: MapLibreMap, from: StyleSpecification, to: StyleSpecification): void {
  const baseLayers = new Set(from.layers.map((l) => l.id));
  const baseSources = new Set(Object.keys(from.sources));
  map.setStyle(to, {
    diff: false,
    transformStyle: (previous, next) => {
      if (!previous) return next;
      const carried = Object.fromEntries(Object.entries(previous.sources).filter(([id]) => !baseSources.has(id)));
      return { ...next, sources: { ...next.sources, ...carried }, layers: [...next.layers, ...previous.layers.filter((l) => !baseLayers.has(l.id))] };
    },
  });
}

export class BasemapSwitch implements IControl {
  private container: HTMLDivElement | null = null;
  private current: BasemapChoice;

  constructor(
    private readonly choices: readonly BasemapChoice[],
    private readonly onChange: (key: BasemapChoice['key']) => void,
  ) {
    this.current = choices[0]!;
  }

  onAdd(map: MapLibreMap): HTMLElement {
    const el = document.createElement('div');
    el.className = 'maplibregl-ctrl maplibregl-ctrl-group farmland-basemap-switch';
    el.setAttribute('role', 'group');
    el.setAttribute('aria-label', t(m.basemap));
    const buttons = this.choices.map((choice) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = choice.label;
      b.dataset['basemap'] = choice.key;
      b.setAttribute('aria-pressed', String(choice === this.current));
      b.addEventListener('click', () => {
        if (choice === this.current) return;
        switchBasemap(map, this.current.style, choice.style);
        this.current = choice;
        for (const other of buttons) other.setAttribute('aria-pressed', String(other === b));
        this.onChange(choice.key);
      });
      return b;
    });
    el.append(...buttons);
    this.container = el;
    return el;
  }

  onRemove(): void {
    this.container?.remove();
    this.container = null;
  }
}
