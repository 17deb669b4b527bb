// The landmap's 1 to 30 colour scale (map-constants) and the basemap switch's label for a configured style.
import { describe, expect, it } from 'vitest';
import type { StyleSpecification } from 'maplibre-gl';
import { LANDMAP_SCALE_STEPS, landmapScaleColor, landmapScaleStep } from './map-constants';
import { configuredLabel } from './basemap-switch';

describe('the landmap scale', () => {
  it('puts a count in a class from 1 to 30 by its share of the largest count', () => {
    expect(LANDMAP_SCALE_STEPS).toBe(30);
    expect(landmapScaleStep(0, 146)).toBe(0);
    expect(landmapScaleStep(1, 146)).toBe(1);
    expect(landmapScaleStep(146, 146)).toBe(30);
    expect(landmapScaleStep(73, 146)).toBe(15);
    expect(landmapScaleStep(74, 146)).toBe(16);
    expect(landmapScaleStep(5, 0)).toBe(0);
  });

  it('runs from the lightest green (class 1) to the darkest (class 30), each class darker than the one before', () => {
    expect(landmapScaleColor(1)).toBe('#d8f3dc');
    expect(landmapScaleColor(30)).toBe('#081c15');
    const lum = (hex: string) => [1, 3, 5].reduce((sum, i) => sum + parseInt(hex.slice(i, i + 2), 16), 0);
    for (let step = 2; step <= 30; step++) expect(lum(landmapScaleColor(step))).toBeLessThan(lum(landmapScaleColor(step - 1)));
    expect(landmapScaleColor(0)).toBe(landmapScaleColor(1));
    expect(landmapScaleColor(99)).toBe(landmapScaleColor(30));
  });
});

describe('the basemap switch label', () => {
  const style = (name: string | undefined, raster = false): StyleSpecification => ({
    version: 8,
    ...(name ? { name } : {}),
    sources: raster ? { imagery: { type: 'raster', tiles: ['https://example.test/{z}/{x}/{y}.jpg'] } } : {},
    layers: [],
  });
  it('calls imagery "Satellite", and other styles by their name', () => {
    expect(configuredLabel(style('Esri World Imagery'))).toBe('Satellite');
    expect(configuredLabel(style('Satellite Hybrid'))).toBe('Satellite');
    expect(configuredLabel(style(undefined, true))).toBe('Satellite');
    expect(configuredLabel(style('OSM Bright'))).toBe('OSM Bright');
    expect(configuredLabel(style(undefined))).toBe('Configured map');
  });
});
