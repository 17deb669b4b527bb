// A real S3-protocol server for the tests (s3rver, from npm): it speaks the wire protocol, checks signatures and keeps
// objects in a temporary directory, so the S3 storage is tested through the SDK as in production, not against a mock.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { StorageConfig } from '../config.js';

type S3rverInstance = { run(): Promise<{ address: string; port: number }>; close(): Promise<void> };
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/** s3rver's fixed credentials: any other pair is refused (InvalidAccessKeyId, 403). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export type S3TestServer = {
  endpoint: string;
  /** A storage configuration for one of the server's buckets (or any name, to test a missing bucket). */
  config(bucket: string, credentials?: { accessKeyId: string; secretAccessKey: string }): Extract<StorageConfig, { driver: 's3' }>;
  /** The environment variables a process needs to use the bucket. */
  env(bucket: string): Record<string, string>;
  close(): Promise<void>;
};

/** Starts s3rver on a free loopback port with the given buckets; close() stops it and removes its directory. */
export async function startS3Server(buckets: string[]): Promise<S3TestServer> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: buckets.map((name) => ({ name, configs: [] })) });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    config: (bucket, credentials = S3RVER_CREDENTIALS) => ({ driver: 's3', bucket, endpoint, region: 'us-east-1', credentials, forcePathStyle: true }),
    env: (bucket) => ({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
