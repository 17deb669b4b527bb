// Before going to the field: the agent's areas, what of each is on the device (when, how many farms and farmers, how
// big), download or update, and which one the capture uses.
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { fetchAreas, fetchBundle } from '../api/field-api';
import type { FieldArea } from '../api/types';
import { deleteBundle, saveBundle, type CachedBundle } from '../db';
import { m } from '../messages';

export function Areas(props: { online: boolean; bundles: CachedBundle[]; currentAreaId: string | null; onChanged: () => void; onUse: (id: string) => void }) {
  const intl = useIntl();
  const [areas, setAreas] = useState<FieldArea[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    if (!props.online) return;
    let cancelled = false;
    fetchAreas()
      .then((a) => !cancelled && (setAreas(a), setError(null)))
      .catch((err: unknown) => !cancelled && setError(intl.formatMessage(m.areasLoadFailed, { reason: err instanceof Error ? err.message : String(err) })));
    return () => {
      cancelled = true;
    };
  }, [props.online, intl]);

  const byId = new Map(props.bundles.map((b) => [b.area.id, b]));
  const rows: FieldArea[] = [...(areas ?? [])];
  for (const b of props.bundles) if (!rows.some((a) => a.id === b.area.id)) rows.push({ id: b.area.id, name: b.area.name });

  const download = async (id: string) => {
    setBusy(id);
    setError(null);
    try {
      const { bundle, bytes } = await fetchBundle(id);
      await saveBundle(bundle, bytes);
      if (!props.currentAreaId) props.onUse(id);
      props.onChanged();
    } catch (err) {
      setError(intl.formatMessage(m.downloadFailed, { reason: err instanceof Error ? err.message : String(err) }));
    } finally {
      setBusy(null);
    }
  };

  return (
    <main className="field-screen">
      <h1>{intl.formatMessage(m.areasTitle)}</h1>
      <p>{intl.formatMessage(m.areasIntro)}</p>
      {!props.online && <p className="field-alert field-alert-info">{intl.formatMessage(m.areasOffline)}</p>}
      {error && (
        <p className="field-alert field-alert-error" role="alert">
          {error}
        </p>
      )}
      {props.online && areas === null && !error && <p aria-busy="true">{intl.formatMessage(m.busy)}</p>}
      {rows.length === 0 && (areas !== null || !props.online) && <p className="field-empty">{intl.formatMessage(m.areasEmpty)}</p>}
      <ul className="field-list">
        {rows.map((a) => {
          const b = byId.get(a.id);
          return (
            <li key={a.id} className="field-card" data-testid="area-row">
              <h2>
                {a.name}
                {a.assigned && <span className="field-badge field-badge-sent"> {intl.formatMessage(m.assigned)}</span>}
              </h2>
              {b ? (
                <p data-testid="area-cached">
                  {intl.formatMessage(m.cachedSummary, {
                    when: intl.formatDate(b.cachedAt, { dateStyle: 'medium', timeStyle: 'short' }),
                    farms: b.farms.length,
                    farmers: b.farmers.length,
                    size: `${intl.formatNumber(b.bytes / 1024, { maximumFractionDigits: 0 })} KB`,
                  })}
                </p>
              ) : (
                <p>{intl.formatMessage(m.notCached)}</p>
              )}
              {b?.truncated && <p className="field-alert field-alert-warn">{intl.formatMessage(m.truncated)}</p>}
              <div className="field-row">
                {props.online && (
                  <button type="button" className="field-btn field-btn-primary" disabled={busy !== null} onClick={() => void download(a.id)}>
                    {busy === a.id ? intl.formatMessage(m.busy) : intl.formatMessage(b ? m.refresh : m.download)}
                  </button>
                )}
                {b && (
                  <button type="button" className="field-btn" disabled={props.currentAreaId === a.id} onClick={() => props.onUse(a.id)}>
                    {intl.formatMessage(props.currentAreaId === a.id ? m.inUse : m.use)}
                  </button>
                )}
                {b && props.currentAreaId !== a.id && (
                  <button type="button" className="field-btn" onClick={() => void deleteBundle(a.id).then(props.onChanged)}>
                    {intl.formatMessage(m.remove)}
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <p className="field-note">{intl.formatMessage(m.basemapCached)}</p>
    </main>
  );
}
