// The live overlap figure off the main thread. While walking or drawing, each new vertex asks for the overlap of the ring
// taken as closed (checks.ts, liveOverlap: a self-intersection test and polygon clipping against the nearby farms). At
// 200 vertices that was the largest part of a fix's render, and it cannot be cut into slices: at a 4× CPU throttle it
// made the walk's longest frames (issue 31's walk benchmark, decision 0093 addendum). The engine runs it in a worker
// (live-overlap.worker.ts) and answers with the figure and the vertex count it is for.
//
// One request in flight at a time: a ring asked for while another is computed waits, and a newer one replaces it (a
// burst of fixes costs one computation, and the answer is always for the latest ring asked). Where no worker can be
// made (a test environment) or the worker fails, the same handler runs on the main thread, so the figure is never lost.
import type { FieldBundle } from '../api/types';
import type { OverlapCandidate } from './checks';
import type { LngLat } from './geodesy';
import { flatCoords, liveOverlapHandler, type LiveReply, type LiveRequest } from './live-overlap-handler';

export type { LiveReply } from './live-overlap-handler';

export type LiveOverlapEngine = {
  setCandidates(candidates: OverlapCandidate[], settings: FieldBundle['settings'] | undefined): void;
  ask(positions: LngLat[]): void;
  close(): void;
};

type Port = { post(req: LiveRequest): void; close(): void };

const MIN_RING = 3;

/** The worker, or null where none can be made. */
function workerPort(onReply: (r: LiveReply) => void, onFailure: () => void): Port | null {
  if (typeof Worker === 'undefined') return null;
  let worker: Worker;
  try {
    worker = new Worker(new URL('./live-overlap.worker.ts', import.meta.url), { type: 'module', name: 'live-overlap' });
  } catch {
    return null;
  }
  worker.onmessage = (e: MessageEvent<LiveReply>) => onReply(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    worker.terminate();
    onFailure();
  };
  return {
    // A ring's array is handed over (transferred), not copied.
    post: (req) => (req.kind === 'ring' ? worker.postMessage(req, [req.coords.buffer]) : worker.postMessage(req)),
    close: () => worker.terminate(),
  };
}

/** A port running the handler on the main thread, answering in a task of its own (as a worker would). */
function localPort(onReply: (r: LiveReply) => void): Port {
  const handle = liveOverlapHandler();
  let closed = false;
  return {
    post: (req) => {
      const reply = handle(req);
      if (reply) setTimeout(() => !closed && onReply(reply), 0);
    },
    close: () => {
      closed = true;
    },
  };
}

export function createLiveOverlapEngine(onReply: (r: LiveReply) => void, options: { worker?: boolean } = {}): LiveOverlapEngine {
  let seq = 0;
  let inFlight: number | null = null;
  let pending: LngLat[] | null = null;
  let latest: LngLat[] | null = null;
  let candidates: LiveRequest | null = null;
  let candidatesSent = false;
  let closed = false;
  // The worker is made, and given the candidates, at the first ring to measure, not when the screen opens: an offline
  // start shows the capture controls without them (the candidates' copy to the worker was about 25 ms of a 4×-throttled
  // start; issue 31's bench, decision 0093 tenth session's addendum).
  let port: Port | null = null;

  const sendRing = (positions: LngLat[]) => {
    port ??= (options.worker !== false && workerPort(reply, fallBack)) || localPort(reply);
    if (!candidatesSent && candidates) port.post(candidates);
    candidatesSent = true;
    inFlight = ++seq;
    port.post({ kind: 'ring', seq: inFlight, coords: flatCoords(positions) });
  };
  function reply(r: LiveReply) {
    if (closed || r.seq !== inFlight) return;
    inFlight = null;
    onReply(r);
    if (pending) {
      const next = pending;
      pending = null;
      sendRing(next);
    }
  }
  // A worker that fails is replaced by the main thread, which is given the candidates and the latest ring again.
  function fallBack() {
    if (closed) return;
    port = localPort(reply);
    candidatesSent = false;
    pending = null;
    inFlight = null;
    if (latest) request(latest);
  }

  // A ring of fewer than 3 positions has no overlap, and the screen shows no figure for it: nothing is measured.
  const request = (positions: LngLat[]) => {
    latest = positions;
    if (positions.length < MIN_RING) pending = null;
    else if (inFlight !== null) pending = positions;
    else sendRing(positions);
  };
  // The same list asked for again (the GPS callback asks first, the screen's render a moment later) is measured once.
  const ask = (positions: LngLat[]) => {
    if (positions !== latest) request(positions);
  };
  return {
    setCandidates(list, settings) {
      candidates = { kind: 'candidates', candidates: list, settings };
      candidatesSent = false;
      // The ring on screen was measured against the old candidates: measure the latest again.
      if (latest) request(latest);
    },
    ask,
    close() {
      closed = true;
      port?.close();
    },
  };
}
