// The Storage interface on an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, ...), so that every API and worker process
// of an installation reads the same files. Chunked data of more than one part goes up as a multipart upload, one part
// (PART_BYTES) at a time, so a large staged file is never joined in memory, and every request can be retried.
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { checkKey, StorageError, trackSource, type Storage, type StorageFailure } from './storage.js';

/** Where an S3-compatible bucket is (config.ts reads it from the environment). */
export type S3Config = {
  driver: 's3';
  bucket: string;
  /** null: AWS's own endpoint for the region. */
  endpoint: string | null;
  region: string;
  /** null: the SDK's default chain (AWS_* variables, an instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
};

/** The size of one part of a multipart upload (S3's minimum is 5 MiB for every part but the last). */
export const PART_BYTES = 8 * 1024 * 1024;

/** Bytes read per ranged GET by read() (each range is its own request, so each can be retried). */
export const READ_RANGE_BYTES = 8 * 1024 * 1024;

/** Chunks regrouped into parts of PART_BYTES (the last one shorter), copying at most one part's bytes at a time. */
async function* partsOf(chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  let pending: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    let rest = chunk;
    while (rest.byteLength > 0) {
      const take = Math.min(rest.byteLength, PART_BYTES - size);
      pending.push(rest.subarray(0, take));
      size += take;
      rest = rest.subarray(take);
      if (size === PART_BYTES) {
        yield Buffer.concat(pending, size);
        pending = [];
        size = 0;
      }
    }
  }
  if (size > 0) yield Buffer.concat(pending, size);
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'TimeoutError',
  'RequestTimeout',
]);

/** The kind of failure of an SDK error (a service answer, or a network error with a Node code). */
export function s3Failure(err: unknown): { failure: StorageFailure; detail: string } {
  if (err instanceof S3ServiceException) {
    const status = err.$metadata.httpStatusCode;
    const detail = `${err.name}${status ? `, HTTP ${status}` : ''}`;
    if (err.name === 'NoSuchBucket') return { failure: 'missing_bucket', detail };
    if (status === 403 || ['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AllAccessDisabled'].includes(err.name))
      return { failure: 'denied', detail };
    if (status !== undefined && status >= 500) return { failure: 'unreachable', detail };
    return { failure: 'failed', detail };
  }
  const e = err as { code?: string; name?: string; message?: string; errors?: Array<{ code?: string }> };
  // A refused connection to a host with several addresses is an AggregateError whose errors carry the code.
  const code = e.code ?? e.errors?.find((x) => x.code)?.code ?? e.name ?? 'Error';
  if (UNREACHABLE.has(code)) return { failure: 'unreachable', detail: code };
  return { failure: 'failed', detail: `${code}: ${e.message ?? String(err)}`.slice(0, 300) };
}

export function s3Client(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // Checksums only where the operation requires them: S3-compatible servers (older MinIO, Ceph, s3rver) do not all
    // understand the aws-chunked trailing checksums that newer SDKs add to every streamed upload by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    // A black-holed endpoint fails within seconds instead of holding a request (or an analysis) for minutes.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
  });
}

export function s3Storage(config: S3Config, client: S3Client = s3Client(config)): Storage {
  const Bucket = config.bucket;
  const fail = (operation: 'put' | 'get' | 'remove', key: string, err: unknown) => {
    const { failure, detail } = s3Failure(err);
    return new StorageError(operation, key, failure, `bucket ${Bucket}: ${detail}`, { cause: err });
  };
  const store: Storage = {
    async put(key, data) {
      checkKey(key);
      const source = trackSource(data);
      // The first part decides: a source that ends within one part is one PutObject, a longer one a multipart upload.
      const parts = partsOf(Buffer.isBuffer(source.data) ? [source.data] : (source.data as Iterable<Uint8Array> | AsyncIterable<Uint8Array>));
      let UploadId: string | undefined;
      try {
        const first = await parts.next();
        const second = first.done ? first : await parts.next();
        if (second.done) {
          const Body = first.done ? Buffer.alloc(0) : first.value;
          await client.send(new PutObjectCommand({ Bucket, Key: key, Body, ContentLength: Body.length }));
          return;
        }
        UploadId = (await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key }))).UploadId;
        if (!UploadId) throw new Error('the storage returned no upload id');
        const Parts: Array<{ ETag: string; PartNumber: number }> = [];
        const send = async (Body: Buffer) => {
          const PartNumber = Parts.length + 1;
          const { ETag } = await client.send(new UploadPartCommand({ Bucket, Key: key, UploadId, PartNumber, Body, ContentLength: Body.length }));
          if (!ETag) throw new Error(`the storage returned no ETag for part ${PartNumber}`);
          Parts.push({ ETag, PartNumber });
        };
        await send(first.value);
        await send(second.value);
        for await (const Body of parts) await send(Body);
        await client.send(new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId, MultipartUpload: { Parts } }));
      } catch (err) {
        // Nothing half-written stays behind: the parts already sent are dropped (the object itself never appeared).
        if (UploadId) await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId })).catch(() => undefined);
        const failed = source.failed();
        if (failed) throw failed.error;
        throw fail('put', key, err);
      }
    },
    async read(key) {
      checkKey(key);
      // The size first (HEAD), then ranged GETs, one range at a time as the caller consumes them: no connection is held
      // open while the caller works on a piece (an analysis reads its staged rows over a minute), and each range is a
      // request the SDK retries. (An empty object is never asked for a range: S3 answers 416, some servers reset.)
      let total: number;
      try {
        total = (await client.send(new HeadObjectCommand({ Bucket, Key: key }))).ContentLength ?? 0;
      } catch (err) {
        if (!(err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404)) throw fail('get', key, err);
        // A HEAD answer has no body: a 404 is a missing key or a missing bucket. A GET's error code tells them apart.
        return (await store.get(key)) === null ? null : store.read(key);
      }
      const range = async (from: number): Promise<Buffer> => {
        try {
          const res = await client.send(new GetObjectCommand({ Bucket, Key: key, Range: `bytes=${from}-${Math.min(total, from + READ_RANGE_BYTES) - 1}` }));
          const bytes = res.Body ? await res.Body.transformToByteArray() : new Uint8Array(0);
          return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        } catch (err) {
          throw fail('get', key, err);
        }
      };
      return {
        async *[Symbol.asyncIterator]() {
          for (let at = 0; at < total;) {
            const piece = await range(at);
            if (piece.length === 0) throw fail('get', key, new Error('the object ended before its size'));
            // At most a MB at a time to the caller, like the local store.
            for (let i = 0; i < piece.length; i += 1024 * 1024) yield piece.subarray(i, i + 1024 * 1024);
            at += piece.length;
          }
        },
      };
    },
    async get(key) {
      checkKey(key);
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!res.Body) return Buffer.alloc(0);
        const bytes = await res.Body.transformToByteArray();
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (err) {
        if (err instanceof S3ServiceException && (err.name === 'NoSuchKey' || (err.name === 'NotFound' && err.$metadata.httpStatusCode === 404))) return null;
        throw fail('get', key, err);
      }
    },
    async remove(key) {
      checkKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (err) {
        throw fail('remove', key, err);
      }
    },
  };
  return store;
}

/** At boot: the bucket exists and these credentials may use it. Returns the failure, or null when it answers. */
export async function checkBucket(config: S3Config, client: S3Client = s3Client(config)): Promise<StorageError | null> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: config.bucket }));
    return null;
  } catch (err) {
    const { failure, detail } = s3Failure(err);
    // HeadBucket answers without a body: a 404 is the missing bucket.
    const f = err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404 ? 'missing_bucket' : failure;
    return new StorageError('get', '', f, `bucket ${config.bucket}: ${detail}`, { cause: err });
  }
}
