// The SDK against the built server (apps/api/dist, as `npm start` runs it; build first): the README's examples run as
// a partner would run them (an SDK license key; a tenant admin's token), typed errors, retries with an Idempotency-Key,
// the list iterator, and no drift between the API's document and the SDK's committed, generated files.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFarmer, createFarmlandClient, FarmlandApiError, listItems, signIn, type FarmlandClient } from '../src/index.js';

const root = path.resolve(import.meta.dirname, '../../..');
const sdkDir = path.resolve(import.meta.dirname, '..');
const serverJs = path.join(root, 'apps/api/dist/server.js');
let server: ChildProcess;
let baseUrl: string;
let dataDir: string;
let serverLog = '';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  if (!fs.existsSync(serverJs)) throw new Error('Build first (npm run build): the SDK is tested against apps/api/dist/server.js');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-sdk-'));
  const port = Number(process.env['SDK_TEST_PORT'] ?? (await freePort()));
  baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PAYLOAD_ENCRYPTION: 'required',
  };
  delete env['DATABASE_URL'];
  server = spawn(process.execPath, [serverJs], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (d: Buffer) => void (serverLog += d.toString()));
  server.stderr!.on('data', (d: Buffer) => void (serverLog += d.toString()));
  // Ready: the database answers, migrations are applied, the store and the job runner are up.
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The server ended: ${serverLog}`);
    const ready = await fetch(`${baseUrl}/api/health/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (ready === 200) break;
    await new Promise((r) => setTimeout(r, 250));
  }
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    const ended = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await ended;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function runExample(file: string, env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(sdkDir, 'examples', file)], {
    cwd: sdkDir,
    env: { ...process.env, FARMLAND_URL: baseUrl, ...env },
    encoding: 'utf8',
    timeout: 170_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A tenant admin's session through the SDK's sign-in (first sign-in: two-factor enrolment with a computed code); once,
 * as a code is accepted once per 30-second step.
 */
let tokenOnce: Promise<string> | null = null;
const adminToken = (): Promise<string> => (tokenOnce ??= signInAdmin());
async function signInAdmin(): Promise<string> {
  const client = createFarmlandClient({ baseUrl });
  const session = await signIn(client, {
    email: 'admin@oyo-agro.example',
    password: 'Farmland#2026',
    code: ({ secret }) => new TOTP({ secret: Secret.fromBase32(secret!), digits: 6, period: 30, algorithm: 'SHA1' }).generate(),
  });
  return session.access;
}

const sdkKey = (): string => {
  const keys = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-license-keys.json'), 'utf8')) as Array<{ type: string; key: string }>;
  return keys.find((k) => k.type === 'SDK')!.key;
};

describe('README examples against the built server (encrypted bodies required)', () => {
  it('shows each example verbatim in the README', () => {
    const readme = fs.readFileSync(path.join(sdkDir, 'README.md'), 'utf8');
    for (const f of ['capture-farm.mjs', 'analysis.mjs']) expect(readme).toContain(fs.readFileSync(path.join(sdkDir, 'examples', f), 'utf8'));
  });

  it('captures a farm with the SDK license key, and reads a refusal as a typed error', () => {
    const r = runExample('capture-farm.mjs', { FARMLAND_LICENSE_KEY: sdkKey() });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^farmer [0-9a-f-]{36} \(.+\)$/m);
    expect(r.stdout).toMatch(/^farm [0-9a-f-]{36}: North field, [0-9.]+ ha, source sdk$/m);
    expect(r.stdout).toMatch(/^refused: 400 validation_failed, coordinates: .+$/m);
  });

  it("runs an analysis with a tenant admin's token and streams every result row", async () => {
    const r = runExample('analysis.mjs', { FARMLAND_TOKEN: await adminToken() });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^finished: completed, 2 rows$/m);
    const counts = [...r.stdout.matchAll(/^(within|outside|overlapping|unrecognized|errors): (\d+)$/gm)].map((m) => Number(m[2]));
    expect(counts).toHaveLength(5);
    // Each of the two farms is in one category (within or outside its area), and overlapping rows are counted again.
    expect(counts[0]! + counts[1]! + counts[4]!).toBe(2);
  });
});

describe('client', () => {
  let admin: FarmlandClient;
  beforeAll(async () => {
    const token = await adminToken();
    admin = createFarmlandClient({ baseUrl, token });
  });

  it('throws FarmlandApiError with the code, the fields and the request id', async () => {
    const missing = await admin.ops.getFarm({ params: { path: { id: '00000000-0000-4000-8000-000000000000' } } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(FarmlandApiError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    expect((missing as FarmlandApiError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    const invalid = await admin.ops.createRegion({ body: { name: '' } as never }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(Object.keys((invalid as FarmlandApiError).fieldErrors).length).toBeGreaterThan(0);
  });

  it('refuses plain bodies on this server, so the encryption really ran', async () => {
    const plain = createFarmlandClient({ baseUrl, token: await adminToken(), encryption: 'off' });
    const err = await plain.ops.createRegion({ body: { name: 'Plain' } as never }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, code: 'payload_encryption_required' });
  });

  it("retries a capture whose connection failed with the same Idempotency-Key, in the key's tenant only", async () => {
    const seen: Array<string | null> = [];
    let failNext = true;
    const client = createFarmlandClient({
      baseUrl,
      licenseKey: sdkKey(),
      fetch: async (req) => {
        if (req.url.endsWith('/api/farmers/')) {
          seen.push(req.headers.get('idempotency-key'));
          // The first attempt never reaches the server (a dropped connection).
          if (failNext) {
            failNext = false;
            throw new TypeError('fetch failed');
          }
        }
        return fetch(req);
      },
    });
    const folio = `SDK-RETRY-${Date.now()}`;
    const farmer = await createFarmer(client, { first_name: 'Retry', last_name: 'Once', folio_id: folio }, { backoffMs: 10 });
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]).toBe(seen[0]);
    expect(farmer.data.folio_id).toBe(folio);
    // It exists in the key's tenant (the same folio again is a conflict), and another tenant's admin does not see it.
    const again = await createFarmer(client, { first_name: 'Retry', last_name: 'Twice', folio_id: folio }, { attempts: 1 }).catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 409 });
    const elsewhere = await admin.ops.listFarmers({ params: { query: { search: folio } } });
    expect(elsewhere.data.results).toEqual([]);
  });

  it('iterates every item of a paged list', async () => {
    const first = await admin.ops.listFarmers({ params: { query: { page_size: 3 } } });
    const ids: string[] = [];
    for await (const f of listItems((query) => admin.ops.listFarmers({ params: { query: { ...query, page_size: 3 } as never } }), { page_size: 3 }))
      ids.push((f as { id: string }).id);
    expect(ids.length).toBe(first.data.count);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(3);
  });
});

describe('no drift', () => {
  it("commits the built API's OpenAPI document and what it generates", async () => {
    const { buildOpenApiDocument, serialiseDocument } = (await import(path.join(root, 'apps/api/dist/openapi-document.js'))) as {
      buildOpenApiDocument(): Promise<unknown>;
      serialiseDocument(d: unknown): string;
    };
    const committed = fs.readFileSync(path.join(sdkDir, 'openapi.json'), 'utf8');
    expect(serialiseDocument(await buildOpenApiDocument()) === committed, 'packages/sdk/openapi.json differs from the build: run npm run openapi').toBe(true);
    const check = spawnSync(process.execPath, [path.join(sdkDir, 'scripts/generate.mjs'), '--check'], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});
