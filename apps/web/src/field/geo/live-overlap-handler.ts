// The live overlap computation, the same in the worker (live-overlap.worker.ts) and on the main thread where no worker
// can run (live-overlap-engine.ts): the candidates' index, then one figure per ring asked for.
import type { FieldBundle } from '../api/types';
import { liveOverlap, OverlapIndex, type LiveOverlap, type OverlapCandidate } from './checks';
import type { LngLat } from './geodesy';

export type LiveRequest =
  | { kind: 'candidates'; candidates: OverlapCandidate[]; settings: FieldBundle['settings'] | undefined }
  /**
   * The ring's positions as [lng, lat, lng, lat, …]: one flat array is copied (or handed over) at once, where structured
   * clone copies a list of pairs one small array at a time (about 2.5 ms a message at 200 positions, 4× CPU throttle).
   */
  | { kind: 'ring'; seq: number; coords: Float64Array };

/** The positions as the flat array a ring request carries. */
export function flatCoords(positions: LngLat[]): Float64Array {
  const out = new Float64Array(positions.length * 2);
  positions.forEach(([x, y], i) => {
    out[2 * i] = x;
    out[2 * i + 1] = y;
  });
  return out;
}

function pairs(coords: Float64Array): LngLat[] {
  const out = new Array<LngLat>(coords.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = [coords[2 * i]!, coords[2 * i + 1]!];
  return out;
}

/** The figure for one ring: `points` is its vertex count (the screen says which walk the figure is for). */
export type LiveReply = { seq: number; points: number; result: LiveOverlap | null };

/** The computation, the same in the worker and on the main thread: the candidates' index, then one figure per ring. */
export function liveOverlapHandler(): (req: LiveRequest) => LiveReply | null {
  let index = new OverlapIndex([]);
  let settings: FieldBundle['settings'] | undefined;
  return (req) => {
    if (req.kind === 'candidates') {
      index = new OverlapIndex(req.candidates);
      settings = req.settings;
      return null;
    }
    const positions = pairs(req.coords);
    return { seq: req.seq, points: positions.length, result: liveOverlap(positions, index, settings) };
  };
}
