// The checks a capture goes through on the device before it is saved (the server runs its own again):
// self-intersection (with the crossings), the tenant's minimum farm size, the part outside the operational area, and
// overlaps with registry farms and earlier device captures above the tenant's overlap tolerance. The same overlap code
// gives the live figure while walking or drawing (liveOverlap), through a bounding-box index of the area's farms.
import type { AreaGeometry, FieldBundle } from '../api/types';
import {
  bboxesMeet,
  bboxOf,
  closeRing,
  intersection,
  polygonArea,
  selfIntersections,
  type Bbox,
  type Crossing,
  type LngLat,
  type PolygonRings,
} from './geodesy';

export type OverlapFinding = { id: string; label: string; kind: 'registry' | 'device'; areaSqm: number; shape: PolygonRings[] };

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

export const geometryRings = (g: AreaGeometry): PolygonRings[] => (g.type === 'Polygon' ? [g.coordinates] : g.coordinates);

/** An overlap counts when it reaches both the tenant's area and share (of the smaller plot) limits. */
export function overlapCounts(overlapSqm: number, aSqm: number, bSqm: number, s: FieldBundle['settings']): boolean {
  if (overlapSqm <= 0) return false;
  return overlapSqm >= s.overlap_min_area_sqm && overlapSqm >= s.overlap_min_share * Math.min(aSqm, bSqm);
}

export type DevicePlot = { id: string; label: string; coordinates: LngLat[]; areaSqm: number };

const NO_SETTINGS: FieldBundle['settings'] = { minimum_farm_size: 0, overlap_min_area_sqm: 1, overlap_min_share: 0.01 };

/** A plot a capture may overlap: a registry farm of the area or an earlier device capture, with its rings and box. */
export type OverlapCandidate = { id: string; label: string; kind: 'registry' | 'device'; rings: PolygonRings[]; box: Bbox; areaSqm: number };

/** The registry farms first, then the device captures (the order of the findings). */
export function overlapCandidates(bundle: FieldBundle | null, devicePlots: DevicePlot[]): OverlapCandidate[] {
  const out: OverlapCandidate[] = [];
  for (const farm of bundle?.farms ?? []) {
    const rings = geometryRings(farm.geometry);
    out.push({ id: farm.id, label: farm.name ?? farm.farmer_name ?? farm.id, kind: 'registry', rings, box: bboxOf(rings), areaSqm: farm.area_sqm });
  }
  for (const plot of devicePlots) {
    const rings: PolygonRings[] = [[closeRing(plot.coordinates)]];
    out.push({ id: plot.id, label: plot.label, kind: 'device', rings, box: bboxOf(rings), areaSqm: plot.areaSqm });
  }
  return out;
}

/**
 * The overlaps of a valid closed ring with the candidates whose box meets its box, above the tenant's tolerance: the
 * one overlap computation, for the review check and the live figure.
 */
export function overlapsOf(rings: PolygonRings, areaSqm: number, candidates: Iterable<OverlapCandidate>, settings: FieldBundle['settings']): OverlapFinding[] {
  const box = bboxOf(rings);
  const found: OverlapFinding[] = [];
  for (const c of candidates) {
    if (!bboxesMeet(box, c.box)) continue;
    const o = intersection(rings, c.rings.length === 1 ? c.rings[0]! : c.rings);
    if (overlapCounts(o.area, areaSqm, c.areaSqm, settings)) found.push({ id: c.id, label: c.label, kind: c.kind, areaSqm: o.area, shape: o.shape });
  }
  return found;
}

/**
 * A uniform grid over the candidates' boxes, built once per downloaded area (and device captures): a query visits the
 * cells under a box instead of every farm. Returns the candidates in their original order, so the findings come in the
 * review check's order.
 */
export class OverlapIndex {
  readonly candidates: OverlapCandidate[];
  private readonly cells = new Map<number, number[]>();
  private readonly x0: number;
  private readonly y0: number;
  private readonly cw: number;
  private readonly ch: number;
  private readonly nx: number;
  private readonly ny: number;

  constructor(candidates: OverlapCandidate[]) {
    this.candidates = candidates;
    const all = candidates.length ? candidates.map((c) => c.box) : [[0, 0, 0, 0] as Bbox];
    const x0 = Math.min(...all.map((b) => b[0]));
    const y0 = Math.min(...all.map((b) => b[1]));
    const x1 = Math.max(...all.map((b) => b[2]));
    const y1 = Math.max(...all.map((b) => b[3]));
    // About one candidate per cell on average.
    const side = Math.max(1, Math.min(256, Math.ceil(Math.sqrt(candidates.length))));
    this.x0 = x0;
    this.y0 = y0;
    this.nx = side;
    this.ny = side;
    this.cw = (x1 - x0) / side || 1;
    this.ch = (y1 - y0) / side || 1;
    candidates.forEach((c, i) => {
      const [ax, ay, bx, by] = this.span(c.box);
      for (let x = ax; x <= bx; x++) {
        for (let y = ay; y <= by; y++) {
          const cell = this.cells.get(x * side + y);
          if (cell) cell.push(i);
          else this.cells.set(x * side + y, [i]);
        }
      }
    });
  }

  private span(b: Bbox): [number, number, number, number] {
    const cx = (v: number) => Math.max(0, Math.min(this.nx - 1, Math.floor((v - this.x0) / this.cw)));
    const cy = (v: number) => Math.max(0, Math.min(this.ny - 1, Math.floor((v - this.y0) / this.ch)));
    return [cx(b[0]), cy(b[1]), cx(b[2]), cy(b[3])];
  }

  /** The candidates whose box meets `box`, in their original order. */
  query(box: Bbox): OverlapCandidate[] {
    if (this.candidates.length === 0) return [];
    const [ax, ay, bx, by] = this.span(box);
    const hit = new Set<number>();
    for (let x = ax; x <= bx; x++)
      for (let y = ay; y <= by; y++) for (const i of this.cells.get(x * this.nx + y) ?? []) if (bboxesMeet(box, this.candidates[i]!.box)) hit.add(i);
    return [...hit].sort((a, b) => a - b).map((i) => this.candidates[i]!);
  }
}

export type LiveOverlap = { count: number; areaSqm: number; shapes: PolygonRings[] };

/**
 * The overlap figure while walking or drawing: the open ring taken as closed, against the index's nearby candidates,
 * with the review check's code and tolerance. Null below 3 positions and for a ring that crosses itself (overlay needs a
 * valid ring; the crossing is the finding then).
 */
export function liveOverlap(positions: LngLat[], index: OverlapIndex, settings: FieldBundle['settings'] | undefined): LiveOverlap | null {
  if (positions.length < 3) return null;
  const ring = closeRing(positions);
  if (ring.length < 4 || selfIntersections(ring).length > 0) return null;
  const rings: PolygonRings = [ring];
  try {
    const found = overlapsOf(rings, polygonArea(rings), index.query(bboxOf(rings)), settings ?? NO_SETTINGS);
    return { count: found.length, areaSqm: found.reduce((s, f) => s + f.areaSqm, 0), shapes: found.flatMap((f) => f.shape) };
  } catch {
    // A degenerate ring the clipper refuses (e.g. all positions on one line) has no live figure.
    return null;
  }
}

export function runChecks(positions: LngLat[], bundle: FieldBundle | null, devicePlots: DevicePlot[], candidates?: OverlapCandidate[]): CheckResult {
  const ring = closeRing(positions);
  const rings: PolygonRings = [ring];
  const areaSqm = polygonArea(rings);
  const crossings = selfIntersections(ring);
  const settings = bundle?.settings ?? NO_SETTINGS;
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
  }
  result.overlaps = overlapsOf(rings, areaSqm, candidates ?? overlapCandidates(bundle, devicePlots), settings);
  return result;
}

/** True when nothing needs the agent's reason. */
export const checksPass = (r: CheckResult): boolean => r.crossings.length === 0 && !r.tooSmall && r.outsideSqm === 0 && r.overlaps.length === 0;
