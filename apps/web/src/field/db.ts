// The device's store (IndexedDB through idb): the downloaded areas, the queue of farmers and captures, and a few
// settings (the device id, the signed-in agent, the walk's accuracy threshold). Nothing here is a credential: the
// refresh token stays in the API's httpOnly cookie (docs/decisions/0065-field-app.md, threat model).
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { SessionUser } from '@farmland/contracts';
import type { FieldBundle } from './api/types';
import type { LngLat } from './geo/geodesy';

export type QueueState = 'waiting' | 'sending' | 'sent' | 'refused';

/** A farmer registered on the device, waiting to be sent (POST /api/farmers/). */
export type QueuedFarmer = {
  localId: string;
  idempotencyKey: string;
  createdAt: number;
  body: { first_name: string; last_name: string; phone_number?: string; gender?: 'Male' | 'Female'; location?: string };
  state: QueueState;
  reason: string | null;
  serverId: string | null;
};

export type CaptureMode = 'walk' | 'draw' | 'point';

/** One overlap found on the device before saving. */
export type OverlapNote = { with: string; kind: 'registry' | 'device'; areaSqm: number };

/** A capture (the spec's capture record) waiting to be sent (POST /api/farms/). */
export type QueuedCapture = {
  localId: string;
  idempotencyKey: string;
  /** Order of saving: the queue syncs in this order. */
  seq: number;
  createdAt: number;
  mode: CaptureMode;
  areaId: string;
  /** The farmer: a registry id, or a farmer registered on the device (sent first). */
  farmer: { serverId: string; name: string } | { localId: string; name: string };
  name: string;
  coordinates: LngLat[];
  /** hh:mm:ss */
  timeTakenToMap: string;
  gpsDeviceId: string;
  location: string;
  /** The operational area's name; the server fills the region (country) itself. */
  region: string;
  mappedBy: string;
  areaSqm: number;
  perimeterM: number;
  declaredAreaSqm: number | null;
  /** A point plot's centre (absent on captures queued before it was kept: the polygon's centre is sent then). */
  point?: LngLat | null;
  /** What the device checks found, and the agent's reason to save anyway. */
  warnings: string[];
  overlaps: OverlapNote[];
  saveReason: string | null;
  state: QueueState;
  reason: string | null;
  serverId: string | null;
  sentAt: number | null;
};

export type CachedBundle = FieldBundle & { cachedAt: number; bytes: number };

type KvValue = string | number | SessionUser | null;

interface FieldDb extends DBSchema {
  kv: { key: string; value: KvValue };
  bundles: { key: string; value: CachedBundle };
  farmers: { key: string; value: QueuedFarmer; indexes: { byCreated: number } };
  captures: { key: string; value: QueuedCapture; indexes: { bySeq: number } };
}

let dbPromise: Promise<IDBPDatabase<FieldDb>> | null = null;

export function db(): Promise<IDBPDatabase<FieldDb>> {
  dbPromise ??= openDB<FieldDb>('farmland-field', 1, {
    upgrade(d) {
      d.createObjectStore('kv');
      d.createObjectStore('bundles', { keyPath: 'area.id' });
      d.createObjectStore('farmers', { keyPath: 'localId' }).createIndex('byCreated', 'createdAt');
      d.createObjectStore('captures', { keyPath: 'localId' }).createIndex('bySeq', 'seq');
    },
  });
  return dbPromise;
}

export const newId = (): string => crypto.randomUUID();

/** The per-device id sent as gps_device_id: generated once, kept for the life of the app's storage. */
export async function deviceId(): Promise<string> {
  const d = await db();
  const existing = await d.get('kv', 'deviceId');
  if (typeof existing === 'string') return existing;
  const id = `field-${newId()}`;
  await d.put('kv', id, 'deviceId');
  return id;
}

export async function getKv<T extends KvValue>(key: string): Promise<T | undefined> {
  return (await (await db()).get('kv', key)) as T | undefined;
}
export async function setKv(key: string, value: KvValue): Promise<void> {
  await (await db()).put('kv', value, key);
}

export async function listBundles(): Promise<CachedBundle[]> {
  return (await db()).getAll('bundles');
}
export async function saveBundle(bundle: FieldBundle, bytes: number): Promise<void> {
  await (await db()).put('bundles', { ...bundle, cachedAt: Date.now(), bytes });
}
export async function deleteBundle(areaId: string): Promise<void> {
  await (await db()).delete('bundles', areaId);
}

export async function listFarmers(): Promise<QueuedFarmer[]> {
  return (await db()).getAllFromIndex('farmers', 'byCreated');
}
export async function putFarmer(f: QueuedFarmer): Promise<void> {
  await (await db()).put('farmers', f);
}

export async function listCaptures(): Promise<QueuedCapture[]> {
  return (await db()).getAllFromIndex('captures', 'bySeq');
}
export async function putCapture(c: QueuedCapture): Promise<void> {
  await (await db()).put('captures', c);
}
export async function nextSeq(): Promise<number> {
  const all = await listCaptures();
  return (all[all.length - 1]?.seq ?? 0) + 1;
}
