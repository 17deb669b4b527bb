// The live overlap engine: the same figures as liveOverlap, one computation in flight with only the latest ring kept
// waiting, the latest ring measured again when the candidates change, and nothing after close. Vitest has no Worker, so
// this runs the main-thread port (the same handler the worker runs); the worker itself runs in the field app's browser
// tests and in bench:field.
import { describe, expect, it } from 'vitest';
import { liveOverlap, OverlapIndex, type OverlapCandidate } from './checks';
import { bboxOf, polygonArea, type LngLat } from './geodesy';
import { createLiveOverlapEngine, type LiveReply } from './live-overlap-engine';

const square = (x: number, y: number, s: number): LngLat[] => [
  [x, y],
  [x + s, y],
  [x + s, y + s],
  [x, y + s],
];
const candidate = (id: string, ring: LngLat[]): OverlapCandidate => {
  const rings = [[[...ring, ring[0]!]]];
  return { id, label: id, kind: 'registry', rings, box: bboxOf(rings[0]!), areaSqm: polygonArea(rings[0]!) };
};
const settings = { minimum_farm_size: 0, overlap_min_area_sqm: 1, overlap_min_share: 0.01 };
const farm = candidate('farm', square(3.9005, 7.4005, 0.001));

/** An engine on the main-thread port, and a wait for its next n answers. */
function engine() {
  const replies: LiveReply[] = [];
  let waiting: { n: number; resolve: () => void } | null = null;
  const e = createLiveOverlapEngine(
    (r) => {
      replies.push(r);
      if (waiting && replies.length >= waiting.n) waiting.resolve();
    },
    { worker: false },
  );
  const answers = (n: number) => new Promise<void>((resolve) => (replies.length >= n ? resolve() : (waiting = { n, resolve })));
  return { e, replies, answers };
}

describe('live overlap engine', () => {
  it('answers with liveOverlap’s figure and the vertex count it is for', async () => {
    const { e, replies, answers } = engine();
    e.setCandidates([farm], settings);
    const ring = square(3.9, 7.4, 0.001);
    e.ask(ring);
    await answers(1);
    const direct = liveOverlap(ring, new OverlapIndex([farm]), settings)!;
    expect(direct.count).toBe(1);
    expect(replies[0]).toMatchObject({ points: 4, result: direct });
  });

  it('keeps one computation in flight: of a burst, the first and the latest are measured', async () => {
    const { e, replies, answers } = engine();
    e.setCandidates([farm], settings);
    const rings = [3, 4, 5, 6].map((n) => square(3.9, 7.4, 0.001).concat(Array.from({ length: n - 4 }, (_, i): LngLat => [3.9 - 0.0001 * (i + 1), 7.4005])));
    for (const r of rings) e.ask(r);
    await answers(2);
    expect(replies.map((r) => r.points)).toEqual([rings[0]!.length, rings[3]!.length]);
    // Nothing else was waiting.
    e.ask(rings[1]!);
    await answers(3);
    expect(replies.map((r) => r.points)).toEqual([rings[0]!.length, rings[3]!.length, rings[1]!.length]);
  });

  it('measures nothing below 3 positions (no figure shows there), then the first ring of 3 against the candidates', async () => {
    const { e, replies, answers } = engine();
    e.setCandidates([farm], settings);
    const ring = square(3.9, 7.4, 0.001);
    e.ask([]);
    e.ask(ring.slice(0, 2));
    e.ask(ring.slice(0, 3));
    await answers(1);
    expect(replies.map((r) => r.points)).toEqual([3]);
    expect(replies[0]!.result?.count).toBe(1);
  });

  it('measures the latest ring again against new candidates', async () => {
    const { e, replies, answers } = engine();
    e.setCandidates([], settings);
    const ring = square(3.9, 7.4, 0.001);
    e.ask(ring);
    await answers(1);
    expect(replies[0]!.result?.count).toBe(0);
    e.setCandidates([farm], settings);
    await answers(2);
    expect(replies[1]!.result?.count).toBe(1);
  });

  it('answers nothing after close, and no figure for a ring that crosses itself', async () => {
    const { e, replies, answers } = engine();
    e.setCandidates([farm], settings);
    const bowtie: LngLat[] = [
      [3.9, 7.4],
      [3.901, 7.401],
      [3.901, 7.4],
      [3.9, 7.401],
    ];
    e.ask(bowtie);
    await answers(1);
    expect(replies[0]).toMatchObject({ points: 4, result: null });
    e.ask(square(3.9, 7.4, 0.001));
    e.close();
    await new Promise((r) => setTimeout(r, 0));
    expect(replies).toHaveLength(1);
  });
});
