// Stores uploads (bytes in Storage, metadata in the files table) and hands out signed, expiring URLs to read them,
// so that <img> tags work without a bearer token and without making files public.
import crypto from 'node:crypto';
import type { Deps } from '../../context.js';
import { withScope, type Executor } from '../../db/client.js';
import { sha256 } from '../../lib/crypto.js';
import { problems } from '../../lib/problems.js';
import { findFile, insertFile } from './files.queries.js';

const URL_TTL_SECONDS = 24 * 60 * 60;

export type StoreInput = {
  tenantId: string | null;
  kind: 'avatar' | 'snapshot' | 'analysis_source' | 'export';
  data: Buffer;
  contentType: string;
  extension: string;
  originalName?: string | null;
  createdBy: string | null;
};

/** A fresh storage key for a file of a tenant (or the provider) and kind. */
export const fileKey = (tenantId: string | null, kind: StoreInput['kind'], extension: string) => `${tenantId ?? 'provider'}/${kind}/${crypto.randomUUID()}.${extension}`;

/** Writes the bytes first, then the row in the caller's transaction; an orphaned blob on rollback is harmless. */
export async function storeFile(tx: Executor, deps: Deps, input: StoreInput): Promise<string> {
  const key = fileKey(input.tenantId, input.kind, input.extension);
  await deps.storage.put(key, input.data);
  return insertFile(tx, {
    tenantId: input.tenantId,
    kind: input.kind,
    storageKey: key,
    contentType: input.contentType,
    sizeBytes: input.data.length,
    sha256: sha256(input.data),
    originalName: input.originalName ?? null,
    createdBy: input.createdBy,
  });
}

function signature(deps: Deps, fileId: string, exp: number): string {
  return crypto.createHmac('sha256', deps.keys.signing).update(`file:${fileId}:${exp}`).digest('base64url');
}

/** A URL valid for at least a day; the expiry is rounded so that the same file gets the same URL all day (cacheable). */
export function fileUrl(deps: Deps, fileId: string | null): string | null {
  if (!fileId) return null;
  const exp = (Math.floor(Date.now() / 1000 / URL_TTL_SECONDS) + 2) * URL_TTL_SECONDS;
  return `${deps.config.publicUrl}/api/files/${fileId}?exp=${exp}&sig=${signature(deps, fileId, exp)}`;
}

export async function readSignedFile(deps: Deps, fileId: string, exp: number, sig: string) {
  const expected = Buffer.from(signature(deps, fileId, exp));
  const given = Buffer.from(sig);
  if (exp * 1000 < Date.now() || given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw problems.notFound('File');
  const file = await withScope(deps.db, { kind: 'system' }, (tx) => findFile(tx, fileId));
  if (!file) throw problems.notFound('File');
  const data = await deps.storage.get(file.storageKey);
  if (!data) throw problems.notFound('File');
  return { data, contentType: file.contentType };
}
