// Sends the queue when the network is there: farmers first (a capture for a farmer registered on the device waits for
// that farmer's id), then captures in the order they were saved. Each item carries the Idempotency-Key made when it was
// saved, so a retry after a lost answer (the network cut mid-sync) never makes a second farm or farmer.
// A 4xx is the server's refusal: the item is marked refused with the reason and kept. No answer, or a 5xx, leaves it
// waiting for the next sync. A 401 after the refresh means the device session has ended: the sync stops, nothing is lost.
import { api, ApiError, NetworkError } from '../lib/api-client';
import { listCaptures, listFarmers, putCapture, putFarmer, type QueuedCapture, type QueuedFarmer } from './db';
import type { LngLat } from './geo/geodesy';

export type SyncResult = { sent: number; refused: number; waiting: number; stopped: null | 'offline' | 'session_ended' | 'server_error' };

/** The server's reason, with the first field error (errors.<field>[0]) when it names one. */
export function refusalReason(err: ApiError): string {
  const errors = err.body?.['errors'];
  if (errors && typeof errors === 'object') {
    for (const [field, list] of Object.entries(errors as Record<string, unknown>)) {
      if (Array.isArray(list) && typeof list[0] === 'string') return `${err.message} (${field}: ${list[0]})`;
    }
  }
  return err.message;
}

export type Outcome = 'sent' | 'refused' | 'offline' | 'session_ended' | 'server_error';

export function classify(err: unknown): Outcome | { refused: string } {
  if (err instanceof NetworkError || (err instanceof DOMException && err.name === 'AbortError')) return 'offline';
  if (err instanceof ApiError) {
    if (err.status === 401) return 'session_ended';
    if (err.status >= 500 || err.status === 429) return 'server_error';
    // The same key's first request is still running on the server (its answer was lost when the network dropped): not
    // a refusal. The item stays waiting, and the next pass gets that request's kept answer.
    if (err.status === 409 && err.code === 'idempotency_key_in_progress') return 'server_error';
    return { refused: refusalReason(err) };
  }
  return 'server_error';
}

async function sendFarmer(f: QueuedFarmer, signal?: AbortSignal): Promise<Outcome> {
  await putFarmer({ ...f, state: 'sending' });
  try {
    const res = await api<{ data: { id: string } }>('/farmers/', { method: 'POST', body: f.body, headers: { 'Idempotency-Key': f.idempotencyKey }, signal });
    await putFarmer({ ...f, state: 'sent', reason: null, serverId: res.data.id });
    return 'sent';
  } catch (err) {
    const c = classify(err);
    if (typeof c === 'object') {
      await putFarmer({ ...f, state: 'refused', reason: c.refused });
      return 'refused';
    }
    await putFarmer({ ...f, state: 'waiting' });
    return c;
  }
}

/** A point plot's centre: the one saved with it, else (a capture queued before the point was kept) its polygon's centre. */
function pointOf(c: QueuedCapture): LngLat {
  if (c.point) return c.point;
  const ring = c.coordinates.slice(0, -1);
  return [ring.reduce((s, p) => s + p[0], 0) / ring.length, ring.reduce((s, p) => s + p[1], 0) / ring.length];
}

export function captureBody(c: QueuedCapture, farmerId: string) {
  // A point plot sends its centre and declared area (API fields) with the polygon drawn around it.
  const point = c.mode === 'point' && c.declaredAreaSqm ? { point: pointOf(c), declared_area_sqm: c.declaredAreaSqm } : {};
  return {
    farmer_id: farmerId,
    name: c.name,
    coordinates: c.coordinates,
    ...point,
    time_taken_to_map: c.timeTakenToMap,
    gps_device_id: c.gpsDeviceId,
    location: c.location || undefined,
    // Why the agent saved despite the device's warnings; the server keeps it with the mapping record.
    capture_note: c.saveReason ? c.saveReason.slice(0, 500) : undefined,
  };
}

async function sendCapture(c: QueuedCapture, farmerId: string, signal?: AbortSignal): Promise<Outcome> {
  await putCapture({ ...c, state: 'sending' });
  try {
    const res = await api<{ data: { id: string } }>('/farms/', {
      method: 'POST',
      body: captureBody(c, farmerId),
      headers: { 'Idempotency-Key': c.idempotencyKey },
      signal,
    });
    await putCapture({ ...c, state: 'sent', reason: null, serverId: res.data.id, sentAt: Date.now() });
    return 'sent';
  } catch (err) {
    const o = classify(err);
    if (typeof o === 'object') {
      await putCapture({ ...c, state: 'refused', reason: o.refused });
      return 'refused';
    }
    await putCapture({ ...c, state: 'waiting' });
    return o;
  }
}

let running: Promise<SyncResult> | null = null;

/** One pass over the queue (single-flight: a second call joins the running one). */
export function syncQueue(onProgress?: () => void, signal?: AbortSignal): Promise<SyncResult> {
  running ??= (async (): Promise<SyncResult> => {
    const result: SyncResult = { sent: 0, refused: 0, waiting: 0, stopped: null };
    const stop = (o: Outcome): boolean => {
      if (o === 'sent') result.sent++;
      else if (o === 'refused') result.refused++;
      else {
        result.stopped = o;
        return true;
      }
      onProgress?.();
      return false;
    };
    for (const f of await listFarmers()) {
      if (f.state === 'sent' || f.state === 'refused') continue;
      if (stop(await sendFarmer(f, signal))) break;
    }
    if (!result.stopped) {
      const farmers = new Map((await listFarmers()).map((f) => [f.localId, f]));
      for (const c of await listCaptures()) {
        if (c.state === 'sent' || c.state === 'refused') continue;
        let farmerId: string | null = null;
        if ('serverId' in c.farmer) farmerId = c.farmer.serverId;
        else {
          const f = farmers.get(c.farmer.localId);
          if (f?.state === 'refused') {
            await putCapture({ ...c, state: 'refused', reason: `The farmer ${c.farmer.name} was refused: ${f.reason ?? ''}` });
            result.refused++;
            continue;
          }
          farmerId = f?.serverId ?? null;
        }
        if (!farmerId) continue; // its farmer is still waiting
        if (stop(await sendCapture(c, farmerId, signal))) break;
      }
    }
    result.waiting = (await listCaptures()).filter((c) => c.state === 'waiting').length + (await listFarmers()).filter((f) => f.state === 'waiting').length;
    onProgress?.();
    return result;
  })().finally(() => {
    running = null;
  });
  return running;
}

/** Items left 'sending' by a closed app go back to waiting at start-up (their key makes the resend safe). */
export async function recoverInterrupted(): Promise<void> {
  const [farmers, captures] = await Promise.all([listFarmers(), listCaptures()]);
  for (const f of farmers) if (f.state === 'sending') await putFarmer({ ...f, state: 'waiting' });
  for (const c of captures) if (c.state === 'sending') await putCapture({ ...c, state: 'waiting' });
}

/** The queue as a GeoJSON FeatureCollection: the last resort when the device cannot sync. */
export function queueAsGeoJson(captures: QueuedCapture[]): GeoJSON.FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: captures.map((c) => ({
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [c.coordinates] },
      properties: {
        local_id: c.localId,
        idempotency_key: c.idempotencyKey,
        state: c.state,
        reason: c.reason,
        name: c.name,
        farmer: c.farmer.name,
        farmer_id: 'serverId' in c.farmer ? c.farmer.serverId : null,
        mode: c.mode,
        mapped_by: c.mappedBy,
        time_taken_to_map: c.timeTakenToMap,
        gps_device_id: c.gpsDeviceId,
        location: c.location,
        region: c.region,
        area_sqm: Math.round(c.areaSqm),
        declared_area_sqm: c.declaredAreaSqm,
        warnings: c.warnings,
        save_reason: c.saveReason,
        created_at: new Date(c.createdAt).toISOString(),
      },
    })),
  };
}
