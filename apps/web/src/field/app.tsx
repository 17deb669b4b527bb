// The field app's shell: the signed-in agent (from the device when offline), the online state, the areas on the
// device, the queue, and three screens (Areas, Capture, Queue) behind a bottom bar reachable with one thumb.
// The queue syncs when the network returns, when the app starts online, and on "Send now".
import { useCallback, useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import type { SessionResult, SessionUser } from '@farmland/contracts';
import { deviceId as loadDeviceId, getKv, listBundles, listCaptures, listFarmers, setKv, type CachedBundle, type QueuedCapture, type QueuedFarmer } from './db';
import { useLatest } from '../lib/use-latest';
import { m } from './messages';
import { Areas } from './screens/areas';
import { Capture } from './screens/capture';
import { Queue } from './screens/queue';
import { SignIn } from './screens/sign-in';
import { beginDeviceSession, markSessionEnded, onSessionEnded, renewDeviceSession, sessionEndedFlag, signOut, storedUser } from './session';
import { recoverInterrupted, syncQueue, type SyncResult } from './sync';

type Tab = 'areas' | 'capture' | 'queue';

type StoredLists = { bundles: CachedBundle[]; captures: QueuedCapture[]; farmers: QueuedFarmer[]; areaId: string | undefined };

/** The areas, the queue and the area in use, as stored on the device. */
async function readLists(): Promise<StoredLists> {
  const [bundles, captures, farmers, areaId] = await Promise.all([listBundles(), listCaptures(), listFarmers(), getKv<string>('areaId')]);
  return { bundles, captures, farmers, areaId };
}

function useOnline(): boolean {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const up = () => setOnline(true);
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }, []);
  return online;
}

export function FieldApp(props: { updateReady: boolean }) {
  const intl = useIntl();
  const online = useOnline();
  const [loaded, setLoaded] = useState(false);
  const [user, setUser] = useState<SessionUser | null>(null);
  const [ended, setEnded] = useState(false);
  const [sessionLive, setSessionLive] = useState(false);
  const [device, setDevice] = useState('');
  const [tab, setTab] = useState<Tab>('areas');
  const [bundles, setBundles] = useState<CachedBundle[]>([]);
  const [areaId, setAreaId] = useState<string | null>(null);
  const [captures, setCaptures] = useState<QueuedCapture[]>([]);
  const [farmers, setFarmers] = useState<QueuedFarmer[]>([]);
  const [syncing, setSyncing] = useState(false);
  const [lastSync, setLastSync] = useState<SyncResult | null>(null);
  const [editing, setEditing] = useState<QueuedCapture | null>(null);
  const [captureKey, setCaptureKey] = useState(0);

  const show = useCallback((s: StoredLists) => {
    setBundles(s.bundles);
    setCaptures(s.captures);
    setFarmers(s.farmers);
    setAreaId(s.areaId ?? s.bundles[0]?.area.id ?? null);
  }, []);
  const reload = useCallback(async () => show(await readLists()), [show]);

  // The start reads the device in one round of parallel reads (the queue after its interrupted sends are put back to
  // waiting), not one after another: each IndexedDB read is a round trip, and the area's bundle (its farms) is the
  // largest to read. At a 4× CPU throttle the sequence was a large part of the offline start (issue 31's bench).
  useEffect(() => {
    onSessionEnded(() => {
      setEnded(true);
      setSessionLive(false);
    });
    void (async () => {
      const [dev, u, endedFlag, lists] = await Promise.all([loadDeviceId(), storedUser(), sessionEndedFlag(), recoverInterrupted().then(readLists)]);
      setDevice(dev);
      setUser(u);
      setEnded(endedFlag);
      show(lists);
      if (u) setTab(lists.bundles.length ? 'capture' : 'areas');
      setLoaded(true);
    })();
  }, [show]);

  // Online with a stored agent: renew the access token from the refresh cookie, then send the queue.
  const sync = useCallback(async () => {
    if (!user || ended) return;
    const renewed = await renewDeviceSession(user);
    if (renewed === 'ended') {
      setEnded(true);
      return;
    }
    if (renewed !== 'ok') return;
    setSessionLive(true);
    setSyncing(true);
    try {
      const result = await syncQueue(() => void reload());
      setLastSync(result);
      if (result.stopped === 'session_ended') {
        await markSessionEnded();
        setEnded(true);
      }
    } finally {
      setSyncing(false);
      await reload();
    }
  }, [user, ended, reload]);

  // Only on becoming online (or signing in), not on every queue change: the effect calls the newest sync through a ref.
  const syncLatest = useLatest(sync);
  useEffect(() => {
    if (loaded && online && user && !ended) void syncLatest.current();
  }, [loaded, online, user, ended, syncLatest]);
  // Going offline ends the live session (a renewal or a sign-in made it live).
  const live = sessionLive && online;

  const signedIn = async (r: SessionResult) => {
    await beginDeviceSession(r);
    setUser(r.user);
    setEnded(false);
    setSessionLive(true);
    await reload();
    setTab('areas');
  };

  if (!loaded)
    return (
      <p className="field-screen" aria-busy="true">
        {intl.formatMessage(m.busy)}
      </p>
    );

  const pending = captures.filter((c) => c.state !== 'sent').length + farmers.filter((f) => f.state !== 'sent').length;
  if (!user || ended) {
    return (
      <>
        <Header online={online} user={null} onSignOut={null} />
        <SignIn onSignedIn={(r) => void signedIn(r)} notice={ended ? intl.formatMessage(m.sessionEnded, { count: pending }) : null} />
      </>
    );
  }

  const bundle = bundles.find((b) => b.area.id === areaId) ?? null;
  return (
    <div className="field-app">
      <Header
        online={online}
        user={user}
        onSignOut={() =>
          void signOut().then(() => {
            setUser(null);
            setSessionLive(false);
          })
        }
      />
      {props.updateReady && (
        <p className="field-alert field-alert-info">
          {intl.formatMessage(m.updateReady)}{' '}
          <button type="button" className="field-link" onClick={() => window.location.reload()}>
            {intl.formatMessage(m.reload)}
          </button>
        </p>
      )}
      {tab === 'areas' && (
        <Areas
          online={online}
          bundles={bundles}
          currentAreaId={areaId}
          onChanged={() => void reload()}
          onUse={(id) => {
            setAreaId(id);
            void setKv('areaId', id);
          }}
        />
      )}
      {tab === 'capture' &&
        (bundle ? (
          <Capture
            key={`${captureKey}-${editing?.localId ?? ''}`}
            bundle={bundle}
            user={user}
            deviceId={device}
            captures={captures}
            farmers={farmers}
            editing={editing}
            onSaved={() => {
              setEditing(null);
              void reload();
              if (online) void sync();
            }}
          />
        ) : (
          <main className="field-screen">
            <p className="field-empty">{intl.formatMessage(m.noArea)}</p>
          </main>
        ))}
      {tab === 'queue' && (
        <Queue
          online={online}
          canSync={live || online}
          captures={captures}
          farmers={farmers}
          lastSync={lastSync}
          syncing={syncing}
          onSync={() => void sync()}
          onFix={(c) => {
            setEditing(c);
            setAreaId(c.areaId);
            setTab('capture');
          }}
        />
      )}
      <nav className="field-nav" aria-label={intl.formatMessage(m.appTitle)}>
        {(['areas', 'capture', 'queue'] as const).map((t) => (
          <button
            key={t}
            type="button"
            className={tab === t ? 'field-nav-btn field-nav-on' : 'field-nav-btn'}
            aria-current={tab === t ? 'page' : undefined}
            onClick={() => {
              if (t === 'capture' && tab === 'capture') setCaptureKey((k) => k + 1);
              if (t !== 'capture') setEditing(null);
              setTab(t);
            }}
          >
            {t === 'areas'
              ? intl.formatMessage(m.navAreas)
              : t === 'capture'
                ? intl.formatMessage(m.navCapture)
                : intl.formatMessage(m.navQueue, { count: pending })}
          </button>
        ))}
      </nav>
    </div>
  );
}

function Header(props: { online: boolean; user: SessionUser | null; onSignOut: (() => void) | null }) {
  const intl = useIntl();
  return (
    <header className="field-header">
      <strong>{intl.formatMessage(m.appTitle)}</strong>
      <span className={props.online ? 'field-status field-status-on' : 'field-status field-status-off'} data-testid="net-status">
        {intl.formatMessage(props.online ? m.online : m.offline)}
      </span>
      {props.user && props.onSignOut && (
        <button type="button" className="field-link" onClick={props.onSignOut}>
          {intl.formatMessage(m.signOut)}
        </button>
      )}
    </header>
  );
}
