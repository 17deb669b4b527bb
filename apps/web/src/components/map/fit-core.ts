// The farms a map's first view fits to: all of them, less far outliers (issue 33: one row with swapped latitude and
// longitude, hundreds of kilometres away, made the first view fit both places and every farm a speck). A farm is an
// outlier when its first position is more than four times the 80th-percentile distance from the median position.
import type { MapFeature } from './map-constants';

const MIN_FOR_TRIM = 5;

export function coreFeatures(features: readonly MapFeature[]): readonly MapFeature[] {
  const pts = features.map((f) => f.rings[0]?.[0]).filter((p): p is readonly [number, number] => p !== undefined);
  if (pts.length < MIN_FOR_TRIM) return features;
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)]!;
  };
  const cx = median(pts.map((p) => p[0]));
  const cy = median(pts.map((p) => p[1]));
  const dist = (p: readonly [number, number]) => Math.hypot((p[0] - cx) * Math.cos((cy * Math.PI) / 180), p[1] - cy);
  const sorted = pts.map(dist).sort((a, b) => a - b);
  // At least ~1 km, so a tight cluster does not make its own neighbours outliers.
  const limit = Math.max(sorted[Math.floor((sorted.length - 1) * 0.8)]! * 4, 0.01);
  const core = features.filter((f) => {
    const p = f.rings[0]?.[0];
    return p === undefined || dist(p) <= limit;
  });
  return core.length > 0 ? core : features;
}
