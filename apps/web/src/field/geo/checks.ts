// The checks a capture goes through on the device before it is saved (the server runs its own again):
// self-intersection (with the crossings), the tenant's minimum farm size, the part outside the operational area, and
// overlaps with registry farms and earlier device captures above the tenant's overlap tolerance.
import type { AreaGeometry, FieldBundle } from '../api/types';
import { bboxesMeet, bboxOf, closeRing, intersection, polygonArea, selfIntersections, type Crossing, type LngLat, type PolygonRings } from './geodesy';

export type OverlapFinding = { id: string; label: string; kind: 'registry' | 'device'; areaSqm: number };

export type CheckResult = {
  areaSqm: number;
  crossings: Crossing[];
  /** Below the tenant's minimum farm size (m²). */
  tooSmall: boolean;
  minimumSqm: number;
  /** The part outside the operational area (m²); 0 inside. */
  outsideSqm: number;
  overlaps: OverlapFinding[];
  /** True when the area bundle was cut short (more farms than it carries): the overlap check may miss some. */
  partialRegistry: boolean;
};

export const geometryRings = (g: AreaGeometry): PolygonRings[] => (g.type === 'Polygon' ? [g.coordinates as PolygonRings] : (g.coordinates as PolygonRings[]));

/** An overlap counts when it reaches both the tenant's area and share (of the smaller plot) limits. */
export function overlapCounts(overlapSqm: number, aSqm: number, bSqm: number, s: FieldBundle['settings']): boolean {
  if (overlapSqm <= 0) return false;
  return overlapSqm >= s.overlap_min_area_sqm && overlapSqm >= s.overlap_min_share * Math.min(aSqm, bSqm);
}

export type DevicePlot = { id: string; label: string; coordinates: LngLat[]; areaSqm: number };

export function runChecks(positions: LngLat[], bundle: FieldBundle | null, devicePlots: DevicePlot[]): CheckResult {
  const ring = closeRing(positions);
  const rings: PolygonRings = [ring];
  const areaSqm = polygonArea(rings);
  const crossings = selfIntersections(ring);
  const settings = bundle?.settings ?? { minimum_farm_size: 0, overlap_min_area_sqm: 1, overlap_min_share: 0.01 };
  const result: CheckResult = {
    areaSqm,
    crossings,
    tooSmall: areaSqm < settings.minimum_farm_size,
    minimumSqm: settings.minimum_farm_size,
    outsideSqm: 0,
    overlaps: [],
    partialRegistry: bundle?.truncated ?? false,
  };
  // Overlay needs a valid ring (as PostGIS does): with a crossing, only the crossing is reported until it is fixed.
  if (crossings.length > 0 || ring.length < 4) return result;
  if (bundle) {
    const inside = intersection(rings, geometryRings(bundle.area.geometry)).area;
    const outside = areaSqm - inside;
    result.outsideSqm = outside > Math.max(1, areaSqm * 1e-4) ? outside : 0;
    const box = bboxOf(rings);
    for (const farm of bundle.farms) {
      const fr = geometryRings(farm.geometry);
      if (!bboxesMeet(box, bboxOf(fr))) continue;
      const o = intersection(rings, fr).area;
      if (overlapCounts(o, areaSqm, farm.area_sqm, settings)) result.overlaps.push({ id: farm.id, label: farm.name ?? farm.farmer_name ?? farm.id, kind: 'registry', areaSqm: o });
    }
  }
  for (const plot of devicePlots) {
    const pr: PolygonRings = [closeRing(plot.coordinates)];
    if (!bboxesMeet(bboxOf(rings), bboxOf(pr))) continue;
    const o = intersection(rings, pr).area;
    if (overlapCounts(o, areaSqm, plot.areaSqm, settings)) result.overlaps.push({ id: plot.id, label: plot.label, kind: 'device', areaSqm: o });
  }
  return result;
}

/** True when nothing needs the agent's reason. */
export const checksPass = (r: CheckResult): boolean => r.crossings.length === 0 && !r.tooSmall && r.outsideSqm === 0 && r.overlaps.length === 0;
