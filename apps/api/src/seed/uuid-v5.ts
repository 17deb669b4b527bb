// Stable UUID v5 ids for lookup rows, apart from lookups-data.ts so that code needing only an id (the demo seed) does
// not load country-state-city (about 27 MB of heap for the life of the process).
import { createHash } from 'node:crypto';

/** Fixed namespace for all lookup ids; never change it, or every lookup id (and every foreign key to it) changes. */
export const LOOKUP_NAMESPACE = '5b0c8a3e-2f4d-4c1e-9a7b-3d6e8f1a2c40';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const namespaceBytes = new Map<string, Buffer>();

function uuidToBytes(uuid: string): Buffer {
  const cached = namespaceBytes.get(uuid);
  if (cached !== undefined) return cached;
  if (!UUID_RE.test(uuid)) throw new TypeError(`Not a UUID: ${uuid}`);
  const bytes = Buffer.from(uuid.replace(/-/g, ''), 'hex');
  if (namespaceBytes.size < 16) namespaceBytes.set(uuid, bytes);
  return bytes;
}

/** RFC 4122 UUID version 5 (SHA-1, name-based) of `name` (UTF-8) in `namespace`. */
export function uuidV5(name: string, namespace: string = LOOKUP_NAMESPACE): string {
  const hash = createHash('sha1').update(uuidToBytes(namespace)).update(name, 'utf8').digest();
  const b = hash.subarray(0, 16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x50; // version 5
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
