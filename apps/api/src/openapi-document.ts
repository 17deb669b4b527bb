// The OpenAPI document of this build, without a server: the app is built on a throwaway in-memory embedded database
// (made ready, as @fastify/swagger needs, never listening), and its document read. `npm run openapi` writes it for the
// SDK (packages/sdk/openapi.json); the SDK's test regenerates it and fails when the committed copy differs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { deriveKeys } from './lib/crypto.js';
import { localStorage } from './lib/storage.js';

/** PUBLIC_URL of the committed document: the default development address, so that the file does not depend on a machine. */
export const DOCUMENT_PUBLIC_URL = 'http://localhost:3000';

export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  // The secret only derives keys that the document never shows; PAYLOAD_ENCRYPTION at its default.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-openapi-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: DOCUMENT_PUBLIC_URL,
    APP_SECRET: 'openapi-document-build-only-0123456789',
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  const app = await buildApp({
    config,
    database,
    db: database.db,
    keys: deriveKeys(config.secret, config.payload.keyVersion),
    storage: localStorage(config.storage.driver === 'local' ? config.storage.dir : config.dataDir),
    log: pino({ level: 'silent' }),
  });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The committed form: two-space JSON with a final newline. */
export const serialiseDocument = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;
