// Capture: walk the boundary (GPS), draw or adjust it on the map, or place a point plot with its declared area; then
// the device checks, the farmer (picked or registered offline), the farm's name, and save to the queue.
import { lazy, startTransition, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useIntl } from 'react-intl';
import { overlapCandidates, runChecks, type DevicePlot, type OverlapCandidate } from '../geo/checks';
import { createLiveOverlapEngine, type LiveOverlapEngine, type LiveReply } from '../geo/live-overlap-engine';
import type { FieldBundle } from '../api/types';
import { circlePolygon, closeRing, hhmmss, polygonArea, polygonPerimeter, type LngLat, type PolygonRings } from '../geo/geodesy';
import { addFix, DEFAULT_WALK_LIMITS, dropLast, emptyWalk, type WalkState } from '../geo/walk';
import { getKv, setKv, type CaptureMode } from '../db';
import { useLatest } from '../../lib/use-latest';
import { m } from '../messages';
import { Review, type CaptureProps } from './review';

const CaptureMap = lazy(() => import('../components/capture-map'));

const MAX_POINT_HA = 4;
const NO_POSITIONS: LngLat[] = [];
const NO_SHAPES: PolygonRings[] = [];

type Props = CaptureProps;

type Phase = 'capture' | 'review';

// Time spent mapping: the clock runs from the first action to the close, without pauses. Only event handlers start,
// stop or reset it (it reads the time, so never during render).
function createClock() {
  let since: number | null = null;
  let ms = 0;
  return {
    start() {
      if (since === null) since = Date.now();
    },
    stop() {
      if (since !== null) ms += Date.now() - since;
      since = null;
    },
    reset() {
      since = null;
      ms = 0;
    },
    elapsedMs: () => ms,
  };
}

/**
 * The live overlap figure of the ring (null: none asked for), from the worker of live-overlap-engine.ts: the latest
 * answer, with the vertex count it is for (a fix's figure shows a few milliseconds after the fix's area).
 */
function useLiveOverlap(
  engineRef: RefObject<LiveOverlapEngine | null>,
  positions: LngLat[] | null,
  candidates: OverlapCandidate[],
  settings: FieldBundle['settings'] | undefined,
): LiveReply | null {
  const [shown, setShown] = useState<LiveReply | null>(null);
  useLayoutEffect(() => {
    const e = createLiveOverlapEngine(setShown);
    engineRef.current = e;
    return () => {
      e.close();
      engineRef.current = null;
    };
  }, [engineRef]);
  // Layout effects: the ring goes to the worker as soon as the screen's render commits, not after the browser paints.
  useLayoutEffect(() => engineRef.current?.setCandidates(candidates, settings), [engineRef, candidates, settings]);
  useLayoutEffect(() => {
    if (positions) engineRef.current?.ask(positions);
  }, [engineRef, positions]);
  return positions ? shown : null;
}

export function Capture(props: Props) {
  const intl = useIntl();
  const fmt = (n: number, digits = 0) => intl.formatNumber(n, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const [mode, setMode] = useState<CaptureMode>(props.editing?.mode ?? 'walk');
  const [phase, setPhase] = useState<Phase>(props.editing ? 'review' : 'capture');
  const [positions, setPositions] = useState<LngLat[]>(props.editing?.coordinates.slice(0, -1) ?? []);
  const [walk, setWalk] = useState<WalkState>(emptyWalk);
  const walkRef = useRef(walk);
  const [walking, setWalking] = useState<'idle' | 'running' | 'paused'>('idle');
  const [fix, setFix] = useState<{ lng: number; lat: number; accuracy: number } | null>(null);
  const [fixes, setFixes] = useState(0);
  const [geoFailure, setGeoFailure] = useState<string | null>(null);
  const [accuracyM, setAccuracyM] = useState(DEFAULT_WALK_LIMITS.accuracyM);
  const [centre, setCentre] = useState<LngLat | null>(null);
  const [pointAt, setPointAt] = useState<LngLat | null>(null);
  const [declaredHa, setDeclaredHa] = useState('');
  const [clock] = useState(createClock);
  const [duration, setDuration] = useState(props.editing?.timeTakenToMap ?? '00:00:00');
  const [savedNotice, setSavedNotice] = useState(false);

  useEffect(() => {
    void getKv<number>('accuracyM').then((v) => typeof v === 'number' && setAccuracyM(v));
  }, []);

  // GPS: watched on the walk tab before the walk starts too (the position and its accuracy show, and the map centres on
  // the agent, before "Start walking"), while walking (each fix goes through the accuracy and spike filter), and for a
  // point plot. Not while paused. Only a walk's or a point plot's fixes are counted in `fixes`.
  const limits = useMemo(() => ({ ...DEFAULT_WALK_LIMITS, accuracyM }), [accuracyM]);
  const limitsRef = useLatest(limits);
  // The live overlap's worker (useLiveOverlap, below), also asked by the GPS callback.
  const overlapEngineRef = useRef<LiveOverlapEngine | null>(null);
  const walkTab = mode === 'walk' && phase === 'capture';
  const wantsGps = walking === 'running' || (mode === 'point' && phase === 'capture') || (walkTab && walking === 'idle');
  const hasGeolocation = 'geolocation' in navigator;
  // A device without geolocation is told so once the GPS is wanted (and while the walk is paused); no watch starts.
  const geoError = geoFailure ?? (!hasGeolocation && (wantsGps || walking === 'paused') ? 'no geolocation' : null);
  useEffect(() => {
    if (!wantsGps || !hasGeolocation) return;
    const id = navigator.geolocation.watchPosition(
      (p) => {
        const f = { lng: p.coords.longitude, lat: p.coords.latitude, accuracy: p.coords.accuracy, at: p.timestamp || Date.now() };
        let next: WalkState | null = null;
        if (walking === 'running') {
          const before = walkRef.current;
          next = addFix(before, f, limitsRef.current).state;
          walkRef.current = next;
          // A new vertex goes to the overlap worker at once: it measures while React renders the fix's figures.
          if (next.positions !== before.positions) overlapEngineRef.current?.ask(next.positions);
        }
        // The screen's render for a fix as a transition: React renders it in slices of a few milliseconds and lets the
        // browser draw frames between them, where an ordinary update renders the whole screen in one task (at a 4× CPU
        // throttle, one frame in a few hundred then took 50–100 ms; issue 31's walk benchmark, decision 0093).
        startTransition(() => {
          setFix(f);
          setGeoFailure(null);
          if (next) {
            setWalk(next);
            setPositions(next.positions);
          }
          if (walking === 'running' || mode === 'point') setFixes((n) => n + 1);
        });
      },
      (err) => setGeoFailure(err.message || String(err.code)),
      { enableHighAccuracy: true, maximumAge: 0, timeout: 60_000 },
    );
    return () => navigator.geolocation.clearWatch(id);
  }, [wantsGps, walking, mode, hasGeolocation, limitsRef]);

  const live = useMemo(() => {
    if (positions.length < 3) return { sqm: 0, perimeter: positions.length === 2 ? polygonPerimeter([positions]) / 2 : 0 };
    const ring = closeRing(positions);
    return { sqm: polygonArea([ring]), perimeter: polygonPerimeter([ring]) };
  }, [positions]);

  const devicePlots: DevicePlot[] = useMemo(
    () =>
      props.captures
        .filter((c) => c.state !== 'refused' && c.localId !== props.editing?.localId && c.areaId === props.bundle.area.id)
        .map((c) => ({ id: c.localId, label: c.name, coordinates: c.coordinates, areaSqm: c.areaSqm })),
    [props.captures, props.editing, props.bundle.area.id],
  );

  // The farms of the area and the earlier captures, with their boxes and a grid over them: built once per downloaded
  // area (and change to the device captures), used by the live figure and the review check alike.
  const candidates = useMemo(() => overlapCandidates(props.bundle, devicePlots), [props.bundle, devicePlots]);
  const checks = useMemo(
    () => (phase === 'review' && positions.length >= 3 ? runChecks(positions, props.bundle, devicePlots, candidates) : null),
    [phase, positions, props.bundle, devicePlots, candidates],
  );
  // While walking or drawing: the overlap of the ring taken as closed, once per new position (positions changes only
  // when a fix adds a vertex or terra-draw reports a change), computed in a worker. Not for a point plot (its polygon
  // exists only at review).
  const liveFigure = useLiveOverlap(overlapEngineRef, phase === 'capture' && mode !== 'point' ? positions : null, candidates, props.bundle.settings);
  const liveOv = liveFigure?.result ?? null;
  const overlapShapes = useMemo(() => {
    // No overlap keeps the same empty list, so the map's overlap source is not rewritten at each fix.
    if (checks) return checks.overlaps.length === 0 ? NO_SHAPES : checks.overlaps.flatMap((o) => o.shape);
    return liveOv && liveOv.shapes.length > 0 ? liveOv.shapes : NO_SHAPES;
  }, [checks, liveOv]);

  // Stable props for the memoised map: a fix that changes nothing drawn re-renders the figures, not the map.
  const crossings = useMemo(() => checks?.crossings.map((c) => c.at) ?? NO_POSITIONS, [checks]);
  const onDrawn = useCallback(
    (ring: LngLat[]) => {
      clock.start();
      setPositions(ring);
    },
    [clock],
  );

  const toReview = () => {
    clock.stop();
    setDuration(hhmmss(clock.elapsedMs() / 1000));
    setWalking('idle');
    setPhase('review');
  };

  const reset = () => {
    clock.reset();
    walkRef.current = emptyWalk();
    setWalk(walkRef.current);
    setPositions([]);
    setWalking('idle');
    setPointAt(null);
    setDeclaredHa('');
    setPhase('capture');
  };

  const declared = Number(declaredHa.replace(',', '.'));
  const declaredOk = declaredHa !== '' && Number.isFinite(declared) && declared > 0 && declared <= MAX_POINT_HA;

  const mapLabel = intl.formatMessage(m.captureTitle);
  return (
    <main className="field-screen field-capture">
      <h1 className="field-sr-only">{mapLabel}</h1>
      {phase === 'capture' && !props.editing && (
        <div className="field-tabs" role="tablist">
          {(['walk', 'draw', 'point'] as const).map((k) => (
            <button
              key={k}
              role="tab"
              type="button"
              aria-selected={mode === k}
              className={mode === k ? 'field-tab field-tab-on' : 'field-tab'}
              onClick={() => {
                reset();
                setSavedNotice(false);
                setMode(k);
                if (k !== 'walk') clock.start();
              }}
            >
              {intl.formatMessage(k === 'walk' ? m.modeWalk : k === 'draw' ? m.modeDraw : m.modePoint)}
            </button>
          ))}
        </div>
      )}
      <Suspense fallback={<div className="field-map-wrap field-map-loading">{intl.formatMessage(m.busy)}</div>}>
        <CaptureMap
          bundle={props.bundle}
          devicePlots={devicePlots}
          drawing={mode === 'draw' && phase === 'capture'}
          line={positions}
          closed={phase === 'review' || mode === 'walk'}
          crossings={crossings}
          overlapShapes={overlapShapes}
          position={mode === 'draw' ? null : fix}
          walkTab={walkTab}
          onDrawn={onDrawn}
          onCentre={setCentre}
          label={mapLabel}
        />
      </Suspense>

      <section className="field-panel" aria-live="polite">
        {savedNotice && phase === 'capture' && (
          <p className="field-alert field-alert-ok" role="status">
            {intl.formatMessage(m.saved)}
          </p>
        )}
        <p className="field-stats" data-testid="live-stats" data-points={positions.length} data-sqm={Math.round(live.sqm)} data-fixes={fixes}>
          {intl.formatMessage(m.walkStats, { points: positions.length, ha: fmt(live.sqm / 10000, 2), sqm: fmt(live.sqm), perimeter: fmt(live.perimeter) })}
        </p>
        {phase === 'capture' && mode !== 'point' && positions.length >= 3 && (
          <p
            className={liveOv && liveOv.count > 0 ? 'field-stats field-stats-overlap' : 'field-stats'}
            data-testid="live-overlap"
            data-points={liveFigure?.points ?? ''}
            data-count={liveOv?.count ?? ''}
            data-sqm={liveOv ? Math.round(liveOv.areaSqm) : ''}
          >
            {liveOv
              ? intl.formatMessage(m.liveOverlap, { count: liveOv.count, sqm: fmt(liveOv.areaSqm) })
              : intl.formatMessage(!liveFigure || liveFigure.points < 3 ? m.liveOverlapPending : m.liveOverlapNone)}
          </p>
        )}

        {phase === 'capture' && mode === 'walk' && (
          <>
            <p className="field-gps" data-testid="gps">
              {fix ? intl.formatMessage(m.accuracy, { metres: fmt(fix.accuracy) }) : wantsGps ? intl.formatMessage(m.noFix) : ''}
              {walking === 'paused' && <strong> · {intl.formatMessage(m.paused)}</strong>}
            </p>
            {geoError && <p className="field-alert field-alert-error">{intl.formatMessage(m.geoDenied, { reason: geoError })}</p>}
            {walk.spikes > 0 && (
              <p className="field-alert field-alert-warn" data-testid="spike-notice">
                {intl.formatMessage(m.spikeNotice, { count: walk.spikes, metres: fmt(walk.lastSpike?.jumpM ?? 0) })}
              </p>
            )}
            {walk.inaccurate > 0 && (
              <p className="field-alert field-alert-info">{intl.formatMessage(m.inaccurateNotice, { count: walk.inaccurate, limit: accuracyM })}</p>
            )}
            <label className="field-inline">
              {intl.formatMessage(m.threshold)}
              <input
                type="number"
                min={1}
                max={100}
                value={accuracyM}
                onChange={(e) => {
                  const v = Math.max(1, Math.min(100, Number(e.target.value) || DEFAULT_WALK_LIMITS.accuracyM));
                  setAccuracyM(v);
                  void setKv('accuracyM', v);
                }}
              />
            </label>
            <div className="field-row">
              {walking === 'idle' && (
                <button type="button" className="field-btn field-btn-primary" onClick={() => (clock.start(), setWalking('running'))}>
                  {intl.formatMessage(m.start)}
                </button>
              )}
              {walking === 'running' && (
                <button type="button" className="field-btn" onClick={() => (clock.stop(), setWalking('paused'))}>
                  {intl.formatMessage(m.pause)}
                </button>
              )}
              {walking === 'paused' && (
                <button type="button" className="field-btn field-btn-primary" onClick={() => (clock.start(), setWalking('running'))}>
                  {intl.formatMessage(m.resume)}
                </button>
              )}
              <button type="button" className="field-btn field-btn-primary" disabled={positions.length < 3} onClick={toReview}>
                {intl.formatMessage(m.closeRing)}
              </button>
            </div>
          </>
        )}

        {phase === 'capture' && mode === 'draw' && (
          <>
            <p>{intl.formatMessage(m.drawHint)}</p>
            <div className="field-row">
              <button type="button" className="field-btn field-btn-primary" disabled={positions.length < 3} onClick={toReview}>
                {intl.formatMessage(m.drawDone)}
              </button>
            </div>
          </>
        )}

        {phase === 'capture' && mode === 'point' && (
          <>
            <p>{intl.formatMessage(m.pointHint)}</p>
            {pointAt && <p data-testid="point-centre">{intl.formatMessage(m.pointCentre, { lat: pointAt[1].toFixed(6), lng: pointAt[0].toFixed(6) })}</p>}
            <div className="field-row">
              <button type="button" className="field-btn" disabled={!fix} onClick={() => fix && setPointAt([fix.lng, fix.lat])}>
                {intl.formatMessage(m.pointUseGps)}
              </button>
              <button type="button" className="field-btn" disabled={!centre} onClick={() => centre && setPointAt(centre)}>
                {intl.formatMessage(m.pointUseMap)}
              </button>
            </div>
            <label>
              {intl.formatMessage(m.declaredArea)}
              <input inputMode="decimal" value={declaredHa} onChange={(e) => setDeclaredHa(e.target.value)} />
            </label>
            {declaredHa !== '' && !declaredOk && <p className="field-alert field-alert-error">{intl.formatMessage(m.declaredTooLarge)}</p>}
            <button
              type="button"
              className="field-btn field-btn-primary"
              disabled={!pointAt || !declaredOk}
              onClick={() => {
                setPositions(circlePolygon(pointAt!, declared * 10000).slice(0, -1));
                toReview();
              }}
            >
              {intl.formatMessage(m.pointDone)}
            </button>
          </>
        )}

        {phase === 'review' && checks && (
          <Review
            {...props}
            mode={mode}
            positions={positions}
            checks={checks}
            duration={duration}
            declaredSqm={mode === 'point' ? declared * 10000 || props.editing?.declaredAreaSqm || null : null}
            point={mode === 'point' ? (pointAt ?? props.editing?.point ?? null) : null}
            onRemoveLast={(n) => {
              if (mode === 'walk') {
                const next = dropLast(walkRef.current.positions.length ? walkRef.current : { ...emptyWalk(), positions, times: positions.map(() => 0) }, n);
                walkRef.current = next;
                setWalk(next);
                setPositions(next.positions);
              } else setPositions(positions.slice(0, Math.max(0, positions.length - n)));
            }}
            onDiscard={reset}
            onSaved={() => {
              reset();
              setSavedNotice(true);
              props.onSaved();
            }}
          />
        )}
      </section>
    </main>
  );
}
