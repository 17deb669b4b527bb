// The capture's review: the device checks' findings (with "remove the last points"), the farmer (picked or registered
// offline), the farm's name and place, and saving the capture to the queue (with a reason when a check warned).
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { SessionUser } from '@farmland/contracts';
import type { FieldBundle } from '../api/types';
import { checksPass, type runChecks } from '../geo/checks';
import { closeRing, pointsToDropForValidRing, polygonPerimeter, type LngLat } from '../geo/geodesy';
import { newId, nextSeq, putCapture, putFarmer, type CaptureMode, type QueuedCapture, type QueuedFarmer } from '../db';
import { m } from '../messages';

export type CaptureProps = {
  bundle: FieldBundle;
  user: SessionUser;
  deviceId: string;
  captures: QueuedCapture[];
  farmers: QueuedFarmer[];
  /** A refused capture being fixed (fix and send again). */
  editing: QueuedCapture | null;
  onSaved: () => void;
};

export type ReviewProps = CaptureProps & {
  mode: CaptureMode;
  positions: LngLat[];
  checks: NonNullable<ReturnType<typeof runChecks>>;
  duration: string;
  declaredSqm: number | null;
  point: LngLat | null;
  onRemoveLast: (n: number) => void;
  onDiscard: () => void;
};

export function Review(props: ReviewProps) {
  const intl = useIntl();
  const fmt = (n: number) => intl.formatNumber(n, { maximumFractionDigits: 0 });
  const c = props.checks;
  const ok = checksPass(c);
  const editing = props.editing;
  const [farmerChoice, setFarmerChoice] = useState<string>(
    editing ? ('serverId' in editing.farmer ? `s:${editing.farmer.serverId}` : `l:${editing.farmer.localId}`) : '',
  );
  const [newFarmer, setNewFarmer] = useState({ first_name: '', last_name: '', phone_number: '', gender: '' });
  const [name, setName] = useState(editing?.name ?? '');
  const [location, setLocation] = useState(editing?.location ?? props.bundle.area.name);
  const [reason, setReason] = useState(editing?.saveReason ?? '');
  const [error, setError] = useState<string | null>(null);
  const drop = c.crossings.length > 0 ? pointsToDropForValidRing(props.positions) : 0;

  const localFarmers = props.farmers.filter((f) => f.state !== 'refused');
  const warnings = [
    ...(c.crossings.length ? [intl.formatMessage(m.crossing, { count: c.crossings.length })] : []),
    ...(c.tooSmall ? [intl.formatMessage(m.tooSmall, { min: fmt(c.minimumSqm) })] : []),
    ...(c.outsideSqm > 0 ? [intl.formatMessage(m.outside, { sqm: fmt(c.outsideSqm) })] : []),
    ...c.overlaps.map((o) => intl.formatMessage(m.overlap, { kind: o.kind, label: o.label, sqm: fmt(o.areaSqm) })),
  ];

  const save = async () => {
    setError(null);
    let farmer: QueuedCapture['farmer'] | null = null;
    if (farmerChoice === 'new') {
      const first = newFarmer.first_name.trim();
      const last = newFarmer.last_name.trim();
      if (!first || !last) return setError(intl.formatMessage(m.needName));
      const f: QueuedFarmer = {
        localId: newId(),
        idempotencyKey: newId(),
        createdAt: Date.now(),
        body: {
          first_name: first,
          last_name: last,
          ...(newFarmer.phone_number.trim() ? { phone_number: newFarmer.phone_number.trim() } : {}),
          ...(newFarmer.gender === 'Male' || newFarmer.gender === 'Female' ? { gender: newFarmer.gender } : {}),
          location: location.trim() || props.bundle.area.name,
        },
        state: 'waiting',
        reason: null,
        serverId: null,
      };
      await putFarmer(f);
      farmer = { localId: f.localId, name: `${first} ${last}` };
    } else if (farmerChoice.startsWith('s:')) {
      const id = farmerChoice.slice(2);
      const bf = props.bundle.farmers.find((x) => x.id === id);
      const lf = props.farmers.find((x) => x.serverId === id);
      farmer = { serverId: id, name: bf?.farmer_name ?? (lf ? `${lf.body.first_name} ${lf.body.last_name}` : id) };
    } else if (farmerChoice.startsWith('l:')) {
      const lf = props.farmers.find((x) => x.localId === farmerChoice.slice(2));
      if (lf)
        farmer = lf.serverId
          ? { serverId: lf.serverId, name: `${lf.body.first_name} ${lf.body.last_name}` }
          : { localId: lf.localId, name: `${lf.body.first_name} ${lf.body.last_name}` };
    }
    if (!farmer) return setError(intl.formatMessage(m.needFarmer));
    if (!ok && !reason.trim()) return setError(intl.formatMessage(m.needReason));
    const ring = closeRing(props.positions);
    const capture: QueuedCapture = {
      localId: editing?.localId ?? newId(),
      // A refused capture made nothing on the server: its fixed version gets a new key (the old one would answer 409).
      idempotencyKey: newId(),
      seq: editing?.seq ?? (await nextSeq()),
      createdAt: editing?.createdAt ?? Date.now(),
      mode: props.mode,
      areaId: props.bundle.area.id,
      farmer,
      name: name.trim() || `${farmer.name} ${new Date().toISOString().slice(0, 10)}`,
      coordinates: ring,
      timeTakenToMap: props.duration,
      gpsDeviceId: props.deviceId,
      location: location.trim(),
      region: props.bundle.area.name,
      mappedBy: props.user.email,
      areaSqm: c.areaSqm,
      perimeterM: polygonPerimeter([ring]),
      declaredAreaSqm: props.declaredSqm,
      point: props.point,
      warnings,
      overlaps: c.overlaps.map((o) => ({ with: o.label, kind: o.kind, areaSqm: o.areaSqm })),
      saveReason: ok ? null : reason.trim(),
      state: 'waiting',
      reason: null,
      serverId: null,
      sentAt: null,
    };
    await putCapture(capture);
    props.onSaved();
  };

  return (
    <div className="field-review" data-testid="review">
      <h2>{intl.formatMessage(m.checksTitle)}</h2>
      {ok ? (
        <p className="field-alert field-alert-ok" data-testid="checks-ok">
          {intl.formatMessage(m.checksOk)}
        </p>
      ) : (
        <ul className="field-warnings" data-testid="warnings">
          {warnings.map((w) => (
            <li key={w} className="field-alert field-alert-warn">
              {w}
            </li>
          ))}
        </ul>
      )}
      {c.partialRegistry && <p className="field-alert field-alert-info">{intl.formatMessage(m.partialRegistry)}</p>}
      {drop > 0 && (
        <button type="button" className="field-btn" onClick={() => props.onRemoveLast(drop)}>
          {intl.formatMessage(m.removeLast, { count: drop })}
        </button>
      )}
      {!ok && (
        <label>
          {intl.formatMessage(m.saveReason)}
          <textarea rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
      )}
      <h2>{intl.formatMessage(m.farmerTitle)}</h2>
      <label>
        {intl.formatMessage(m.farmerPick)}
        <select value={farmerChoice} onChange={(e) => setFarmerChoice(e.target.value)}>
          <option value="">{intl.formatMessage(m.farmerNone)}</option>
          {props.bundle.farmers.map((f) => (
            <option key={f.id} value={`s:${f.id}`}>
              {f.farmer_name}
            </option>
          ))}
          {localFarmers
            .filter((f) => !f.serverId || !props.bundle.farmers.some((b) => b.id === f.serverId))
            .map((f) => (
              <option key={f.localId} value={`l:${f.localId}`}>
                {intl.formatMessage(m.onDevice, { name: `${f.body.first_name} ${f.body.last_name}` })}
              </option>
            ))}
          <option value="new">{intl.formatMessage(m.farmerNew)}</option>
        </select>
      </label>
      {farmerChoice === 'new' && (
        <fieldset className="field-fieldset">
          <legend>{intl.formatMessage(m.farmerNew)}</legend>
          <label>
            {intl.formatMessage(m.firstName)}
            <input value={newFarmer.first_name} onChange={(e) => setNewFarmer({ ...newFarmer, first_name: e.target.value })} />
          </label>
          <label>
            {intl.formatMessage(m.lastName)}
            <input value={newFarmer.last_name} onChange={(e) => setNewFarmer({ ...newFarmer, last_name: e.target.value })} />
          </label>
          <label>
            {intl.formatMessage(m.phone)}
            <input type="tel" value={newFarmer.phone_number} onChange={(e) => setNewFarmer({ ...newFarmer, phone_number: e.target.value })} />
          </label>
          <label>
            {intl.formatMessage(m.gender)}
            <select value={newFarmer.gender} onChange={(e) => setNewFarmer({ ...newFarmer, gender: e.target.value })}>
              <option value="">—</option>
              <option value="Male">{intl.formatMessage(m.male)}</option>
              <option value="Female">{intl.formatMessage(m.female)}</option>
            </select>
          </label>
        </fieldset>
      )}
      <label>
        {intl.formatMessage(m.farmName)}
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        {intl.formatMessage(m.location)}
        <input value={location} onChange={(e) => setLocation(e.target.value)} />
      </label>
      {error && (
        <p className="field-alert field-alert-error" role="alert">
          {error}
        </p>
      )}
      <div className="field-row">
        <button type="button" className="field-btn field-btn-primary" onClick={() => void save()}>
          {intl.formatMessage(ok ? m.save : m.saveAnyway)}
        </button>
        {!editing && (
          <button type="button" className="field-btn" onClick={props.onDiscard}>
            {intl.formatMessage(m.discard)}
          </button>
        )}
      </div>
    </div>
  );
}
