// The queue: farmers and captures with their state (waiting, sending, sent, refused with the reason), "send now",
// fix-and-resend for a refused capture, and the GeoJSON export as the last resort.
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { saveBlob } from '../../lib/download';
import type { QueuedCapture, QueuedFarmer, QueueState } from '../db';
import { m } from '../messages';
import { queueAsGeoJson, type SyncResult } from '../sync';

const STATE_MESSAGES = { waiting: m.stateWaiting, sending: m.stateSending, sent: m.stateSent, refused: m.stateRefused } as const;

export function Queue(props: {
  online: boolean;
  canSync: boolean;
  captures: QueuedCapture[];
  farmers: QueuedFarmer[];
  lastSync: SyncResult | null;
  syncing: boolean;
  onSync: () => void;
  onFix: (c: QueuedCapture) => void;
}) {
  const intl = useIntl();
  const [exported, setExported] = useState(false);
  const badge = (s: QueueState) => (
    <span className={`field-badge field-badge-${s}`} data-state={s}>
      {intl.formatMessage(STATE_MESSAGES[s])}
    </span>
  );
  const exportQueue = () => {
    const blob = new Blob([JSON.stringify(queueAsGeoJson(props.captures), null, 1)], { type: 'application/geo+json' });
    saveBlob(blob, `field-queue-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.geojson`);
    setExported(true);
  };
  const empty = props.captures.length === 0 && props.farmers.length === 0;
  return (
    <main className="field-screen">
      <h1>{intl.formatMessage(m.queueTitle)}</h1>
      <div className="field-row">
        <button type="button" className="field-btn field-btn-primary" disabled={!props.online || !props.canSync || props.syncing} onClick={props.onSync}>
          {props.syncing ? intl.formatMessage(m.busy) : intl.formatMessage(m.syncNow)}
        </button>
        <button type="button" className="field-btn" disabled={props.captures.length === 0} onClick={exportQueue} data-exported={exported}>
          {intl.formatMessage(m.exportGeoJson)}
        </button>
      </div>
      {props.lastSync && (
        <p className="field-alert field-alert-info" data-testid="sync-result">
          {intl.formatMessage(m.syncResult, { sent: props.lastSync.sent, refused: props.lastSync.refused, waiting: props.lastSync.waiting })}{' '}
          {props.lastSync.stopped === 'offline' && intl.formatMessage(m.syncOffline)}
          {props.lastSync.stopped === 'server_error' && intl.formatMessage(m.syncServer)}
        </p>
      )}
      {empty && <p className="field-empty">{intl.formatMessage(m.queueEmpty)}</p>}
      <ul className="field-list" data-testid="queue">
        {props.farmers.map((f) => (
          <li key={f.localId} className="field-card" data-testid="queue-farmer" data-state={f.state}>
            <div className="field-row field-between">
              <span>{intl.formatMessage(m.farmerItem, { name: `${f.body.first_name} ${f.body.last_name}` })}</span>
              {badge(f.state)}
            </div>
            {f.reason && <p className="field-reason">{f.reason}</p>}
          </li>
        ))}
        {props.captures.map((c) => (
          <li key={c.localId} className="field-card" data-testid="queue-capture" data-state={c.state} data-name={c.name}>
            <div className="field-row field-between">
              <span>
                {intl.formatMessage(m.captureItem, {
                  name: c.name,
                  farmer: c.farmer.name,
                  ha: intl.formatNumber(c.areaSqm / 10000, { maximumFractionDigits: 2, minimumFractionDigits: 2 }),
                  duration: c.timeTakenToMap,
                })}
              </span>
              {badge(c.state)}
            </div>
            {c.saveReason && <p className="field-note">“{c.saveReason}”</p>}
            {c.reason && <p className="field-reason">{c.reason}</p>}
            {c.state === 'refused' && (
              <button type="button" className="field-btn" onClick={() => props.onFix(c)}>
                {intl.formatMessage(m.fixResend)}
              </button>
            )}
          </li>
        ))}
      </ul>
    </main>
  );
}
