// Walking a boundary: which GPS fixes become vertices. A fix is refused when its accuracy is worse than the threshold
// the agent set, and dropped as a spike when reaching it from the last accepted position needs an impossible speed or
// jump (GPS multipath near trees and buildings). Refused and dropped fixes are counted, so the screen can say so.
import { distance, type LngLat } from './geodesy';

export type Fix = { lng: number; lat: number; accuracy: number; at: number };

export type WalkLimits = {
  /** Fixes less accurate than this (m) are not used. */
  accuracyM: number;
  /** Faster than this (m/s) from the last vertex is a spike. Walking is under 2 m/s; 8 leaves room for a motorbike. */
  maxSpeedMs: number;
  /** A single step longer than this (m) is a spike whatever the time between fixes. */
  maxJumpM: number;
  /** Steps shorter than this (m) add no vertex (standing still). */
  minStepM: number;
};

export const DEFAULT_WALK_LIMITS: WalkLimits = { accuracyM: 10, maxSpeedMs: 8, maxJumpM: 60, minStepM: 1 };

export type WalkState = {
  positions: LngLat[];
  times: number[];
  inaccurate: number;
  spikes: number;
  /** The last spike, for the notice. */
  lastSpike: { at: LngLat; jumpM: number } | null;
};

export const emptyWalk = (): WalkState => ({ positions: [], times: [], inaccurate: 0, spikes: 0, lastSpike: null });

export type FixVerdict = 'added' | 'inaccurate' | 'spike' | 'still';

/** The walk after one fix, and what happened to it. Pure: the same fixes give the same walk. */
export function addFix(state: WalkState, fix: Fix, limits: WalkLimits): { state: WalkState; verdict: FixVerdict } {
  if (fix.accuracy > limits.accuracyM) return { state: { ...state, inaccurate: state.inaccurate + 1 }, verdict: 'inaccurate' };
  const p: LngLat = [fix.lng, fix.lat];
  const last = state.positions[state.positions.length - 1];
  const lastAt = state.times[state.times.length - 1];
  if (last && lastAt !== undefined) {
    const d = distance(last, p);
    // Receivers deliver about one fix a second; closer fixes are counted as a second apart, so a burst of fixes (or a
    // replay) is not taken for a spike.
    const dt = Math.max(1, (fix.at - lastAt) / 1000);
    if (d > limits.maxJumpM || d / dt > limits.maxSpeedMs) {
      return { state: { ...state, spikes: state.spikes + 1, lastSpike: { at: p, jumpM: d } }, verdict: 'spike' };
    }
    if (d < limits.minStepM) return { state, verdict: 'still' };
  }
  return { state: { ...state, positions: [...state.positions, p], times: [...state.times, fix.at] }, verdict: 'added' };
}

/** The walk without its last n vertices (the "remove the last points" fix for a crossing). */
export function dropLast(state: WalkState, n: number): WalkState {
  const keep = Math.max(0, state.positions.length - n);
  return { ...state, positions: state.positions.slice(0, keep), times: state.times.slice(0, keep) };
}
