// The map's fixed values from the spec (§9): zoom levels, the default centre (south-west Nigeria) and the category colours.
// No MapLibre code here, so lists and legends can use them without loading the map chunk.
import { textMap } from '../../lib/text-map';
import { mapText as m } from './map.messages';
import { eudrText as eudr } from '../eudr/eudr.messages';

/** Zoom 18 for a farm or an analysis, 12 for the operational-area editor, 8 for a dashboard area map. */
export const MAP_ZOOM = { farm: 18, areaEditor: 12, dashboard: 8 } as const;

/** [longitude, latitude]: the spec's 7.6466 N, 3.7717 E. */
export const DEFAULT_CENTER: [number, number] = [3.7717, 7.6466];

/** Purple within, red outside, green overlap, orange unrecognized (docs/requirements.md §4, §9). */
export const CATEGORY_COLORS = {
  within: '#7b2cbf',
  outside: '#d62828',
  overlap: '#2b9348',
  unrecognized: '#f77f00',
} as const;
export type MapCategory = keyof typeof CATEGORY_COLORS;

/**
 * The map's colours by EUDR verdict (issue 29, "Colour by EUDR risk"): low green, review amber, high red (the theme's
 * error red, app/theme.ts), none grey (a farm without a stored verdict, an analysis without layers, a cluster of several
 * farms). Mid-tone fills: the theme's Tag text colours are too dark to tell apart under a 35 % fill.
 */
export const VERDICT_COLORS = {
  low: '#2b9348',
  review: '#e0a100',
  high: '#c41d2b',
  none: '#8c8c8c',
} as const;
export type MapVerdict = keyof typeof VERDICT_COLORS;
/** How the map colours farms: by category (the default) or by EUDR verdict. */
export type MapColorBy = 'category' | 'verdict';

/** The verdicts' words are the EUDR screens' own (components/eudr), and "No verdict". */
export const VERDICT_LABELS: Readonly<Record<MapVerdict, string>> = textMap({
  low: eudr.riskLow,
  review: eudr.riskReview,
  high: eudr.riskHigh,
  none: m.riskNone,
});

/** A picked feature's verdict (its "verdict" property), or null when it has none. */
export function verdictOf(properties: Record<string, unknown>): Exclude<MapVerdict, 'none'> | null {
  const v = properties['verdict'];
  return v === 'low' || v === 'review' || v === 'high' ? v : null;
}

/** Read in the page's language when used (lib/text-map.ts). */
export const CATEGORY_LABELS: Readonly<Record<MapCategory, string>> = textMap({
  within: m.within,
  outside: m.outside,
  overlap: m.overlap,
  unrecognized: m.unrecognized,
});

/** One polygon on the map: a farm, an analysed row or an operational area. Coordinates are [lng, lat] rings. */
export type MapFeature = {
  id: string;
  name: string;
  category: MapCategory;
  rings: ReadonlyArray<ReadonlyArray<readonly [number, number]>>;
  /** Shown in popups and kept on the feature; plain values only. */
  properties?: Record<string, string | number | boolean | null>;
};

/** What a click on a polygon or a marker hands to the page: the feature's id, name, category and properties. */
export type PickedFeature = { id: string; name: string; category: MapCategory; lngLat: [number, number]; properties: Record<string, unknown> };

/** Legend classes by mapped farm count (docs/requirements.md §9; its ranges overlap, so each count takes the first class it fits). */
export const LANDMAP_CLASSES = [
  { text: m.classAbove, min: 50_001, color: '#1b4332' },
  { text: m.class2000, min: 2_000, color: '#2d6a4f' },
  { text: m.class1000, min: 1_000, color: '#52b788' },
  { text: m.classBelow, min: 1, color: '#b7e4c7' },
  { text: m.classNone, min: 0, color: '#f4f1e8' },
] as const;

export const classOf = (n: number) => LANDMAP_CLASSES.find((c) => n >= c.min) ?? LANDMAP_CLASSES[LANDMAP_CLASSES.length - 1]!;

/** The landmap's colour scale: classes 1 to 30 (docs/requirements.md §9), from the lightest green (fewest farms) to the darkest. */
export const LANDMAP_SCALE_STEPS = 30;
const SCALE_FROM = [0xd8, 0xf3, 0xdc];
const SCALE_TO = [0x08, 0x1c, 0x15];
export const landmapScaleColor = (step: number): string => {
  const t = (Math.min(LANDMAP_SCALE_STEPS, Math.max(1, step)) - 1) / (LANDMAP_SCALE_STEPS - 1);
  return `#${SCALE_FROM.map((a, i) =>
    Math.round(a + (SCALE_TO[i]! - a) * t)
      .toString(16)
      .padStart(2, '0'),
  ).join('')}`;
};
/** A count's class on the 1 to 30 scale: its share of the largest count, in thirtieths (0 farms: no class). */
export const landmapScaleStep = (count: number, max: number): number =>
  count <= 0 || max <= 0 ? 0 : Math.max(1, Math.ceil((LANDMAP_SCALE_STEPS * count) / max));

/** Reference-layer features (EUDR evidence) by kind: drawn under the farms, a translucent fill and a solid edge. */
export const REFERENCE_KIND_COLORS = {
  forest_2020: '#1e7b3a',
  tree_cover_loss: '#b3261e',
  protected_area: '#6a3d9a',
  indigenous_land: '#8a5a00',
  concession: '#0b5c8a',
  other: '#55606b',
} as const;
