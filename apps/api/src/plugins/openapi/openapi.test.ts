// The OpenAPI document is complete: every operation has its stable operationId (operations.ts) and declares its 4xx
// answers in the Problem shape, every 4xx of the authorization matrix is declared for its route, and the document
// passes Redocly's recommended rules (redocly.yaml turns off the ones the spec contradicts, with the reason).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { matrix } from '../../test/authz-matrix.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { openApiPath } from './index.js';
import { operations } from './operations.js';

type Op = {
  operationId?: string;
  security?: unknown[];
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: { maxLength?: number } }>;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }>; description: string }>;
};
type Doc = {
  paths: Record<string, Record<string, Op>>;
  servers?: { url: string }[];
  info: { license?: { name: string } };
  components: { schemas: Record<string, unknown> };
};

let env: TestEnv;
let doc: Doc;
beforeAll(async () => {
  env = await testEnv();
  doc = (await env.as('anonymous').get('/api/openapi.json')).body as Doc;
});

const ops = () => Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, op })));

describe('OpenAPI document', () => {
  it('gives every operation an operationId from the table, each used once, and the table names no missing route', () => {
    const missing = ops()
      .filter((o) => !o.op.operationId)
      .map((o) => o.key);
    expect(missing).toEqual([]);
    const ids = ops().map((o) => o.op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const registered = new Set(env.app.routeTable.map((r) => `${r.method} ${r.url}`));
    expect(
      Object.keys(operations).filter((k) => !registered.has(k)),
      'rows for routes that are not registered',
    ).toEqual([]);
    for (const [k, row] of Object.entries(operations)) expect(row.id, k).toMatch(/^[a-z][A-Za-z0-9]+$/);
  });

  it('declares on every operation at least one 4xx, each in the one Problem shape, with the codes it can answer', () => {
    expect(doc.components.schemas['Problem']).toMatchObject({ required: ['code', 'message'] });
    for (const { key, op } of ops()) {
      const errors = Object.entries(op.responses).filter(([s]) => Number(s) >= 400 && Number(s) < 500);
      expect(errors.length, key).toBeGreaterThan(0);
      for (const [status, r] of errors) {
        expect(r.content?.['application/json']?.schema?.$ref, `${key} ${status}`).toBe('#/components/schemas/Problem');
        expect(r.description, `${key} ${status}`).toMatch(/Codes: [a-z_0-9]+/);
      }
    }
    // A signed-in route can answer 401 and 403; a route with an id, 404; a capture route with a body, 413.
    const captureFarm = doc.paths['/api/farms/']!['post']!;
    expect(Object.keys(captureFarm.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '409', '413', '415']));
    expect(captureFarm.security).toEqual([{ bearer: [] }, { licenseKey: [] }]);
    expect(doc.paths['/api/farms/{id}/']!['get']!.responses['404']!.description).toMatch(/not_found/);
    expect(doc.paths['/api/farmers/{id}/']!['delete']!.responses['409']!.description).toMatch(/farmer_has_farms/);
    expect(doc.paths['/api/auth/login/']!['post']!.responses['429']!.description).toMatch(/too_many_attempts/);
  });

  it('declares, for every route, each 4xx status the authorization matrix sees it answer', () => {
    const undeclared: string[] = [];
    for (const [key, row] of Object.entries(matrix)) {
      const [method, url] = key.split(' ') as [string, string];
      const op = doc.paths[openApiPath(url)]?.[method.toLowerCase()];
      if (!op) continue; // hidden routes (internal, the document itself) are not in the document
      for (const status of new Set(Object.values(row.expect))) {
        if (status >= 400 && status < 500 && !op.responses[String(status)]) undeclared.push(`${key} ${status}`);
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('documents the Idempotency-Key header on the create routes that take it, and on no other', () => {
    const withKey = ops()
      .filter(({ op }) => op.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'))
      .map(({ key }) => key)
      .sort();
    expect(withKey).toEqual(['POST /api/farmers/', 'POST /api/farms/']);
    const param = doc.paths['/api/farms/']!['post']!.parameters!.find((p) => p.name === 'Idempotency-Key')!;
    expect(param).toMatchObject({ in: 'header', required: false, schema: { maxLength: 255 } });
  });

  it('names its servers and its licence', () => {
    expect(doc.servers?.[0]?.url).toBe(env.config.publicUrl);
    expect(doc.info.license?.name).toBeTruthy();
  });

  it("passes Redocly's recommended rules (offline)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    const apiDir = path.resolve(import.meta.dirname, '../../..');
    const bin = path.resolve(apiDir, '../../node_modules/.bin/redocly');
    const r = spawnSync(bin, ['lint', file, '--config', path.join(apiDir, 'redocly.yaml'), '--format=stylish', '--max-problems=50'], {
      encoding: 'utf8',
      // No telemetry and no update check: CI has no network beyond npm.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      timeout: 120_000,
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(`${r.stdout}\n${r.stderr}`).toMatch(/Woohoo! Your API description is valid|validated in/);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/You have \d+ warnings?/);
  });
});
