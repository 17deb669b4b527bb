// Stores uploads (bytes in Storage, metadata in the files table) and hands out signed, expiring URLs to read them,
// so that <img> tags work without a bearer token and without making files public.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../context.js';
import { withScope, type Executor } from '../../db/client.js';
import { sha256 } from '../../lib/crypto.js';
import { problems } from '../../lib/problems.js';
import { isStorageError, type StorageError } from '../../lib/storage.js';
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
export const fileKey = (tenantId: string | null, kind: StoreInput['kind'], extension: string) =>
  `${tenantId ?? 'provider'}/${kind}/${crypto.randomUUID()}.${extension}`;

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

/** A stored file opened for reading: its bytes come as a stream of pieces, never joined whole in memory. */
export type SignedFile = { contentType: string; size: number; body: Readable };

/**
 * Opens a stored file through its signed URL. The first piece is read before anything is answered, so a missing object
 * is a 404 and a store that cannot be read a 503 (StorageError); a failure after that ends the response early (the
 * client sees a short body) and is logged. Reading stops when the client goes away: the stream is destroyed, which
 * ends the store's reader (the local file is closed; on S3 no further range is asked for).
 */
export async function readSignedFile(deps: Deps, fileId: string, exp: number, sig: string, log: FastifyBaseLogger = deps.log): Promise<SignedFile> {
  const expected = Buffer.from(signature(deps, fileId, exp));
  const given = Buffer.from(sig);
  if (exp * 1000 < Date.now() || given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw problems.notFound('File');
  const file = await withScope(deps.db, { kind: 'system' }, (tx) => findFile(tx, fileId));
  if (!file) throw problems.notFound('File');
  const pieces = await deps.storage.read(file.storageKey);
  if (!pieces) throw problems.notFound('File');
  const it = pieces[Symbol.asyncIterator]();
  const first = await it.next();
  const fail = (err: unknown) => {
    const e = err as StorageError;
    const storage = isStorageError(err) ? { key: e.key, failure: e.failure, detail: e.detail } : undefined;
    log.error({ err, fileId, storage }, `file download ended early: ${e.message}${storage ? ` (${storage.detail})` : ''}`);
  };
  const body = new Readable({
    read() {
      it.next().then(
        (next) => void this.push(next.done ? null : next.value),
        (err: unknown) => {
          fail(err);
          this.destroy(err as Error);
        },
      );
    },
    // Ended, failed or abandoned by the client: the store's reader is closed (a reader never started closes at once).
    destroy(err, callback) {
      Promise.resolve(it.return?.()).then(
        () => callback(err),
        () => callback(err),
      );
    },
  });
  body.push(first.done ? null : first.value);
  return { contentType: file.contentType, size: file.sizeBytes, body };
}
