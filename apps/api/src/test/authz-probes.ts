// The authorization matrix's building blocks (authz-matrix.ts holds the rows): the row and expectation types, the
// usual expectations by persona, and the arrange steps that make a resource of tenant A (or the provider's) to probe.
import { sql } from 'drizzle-orm';
import type { Fixtures, Persona, TestEnv } from './harness.js';
import { makeTenant, makeUser } from './fixtures.js';
import { freshSpot, insertAreaDirect, insertFarmDirect, square, tenantGeo } from './geo-fixtures.js';

export type Expectation = Record<Persona, number>;
export type Probe = {
  /** Arrange step run once per persona; its result is passed to url and body. */
  setup?: (env: TestEnv) => Promise<Record<string, string>>;
  url?: (fx: Fixtures, ctx: Record<string, string>) => string;
  body?: (fx: Fixtures, ctx: Record<string, string>) => unknown;
  /** Sent as multipart/form-data with one file field. */
  multipart?: { field: string; filename: string; content: Buffer; contentType: string; fields?: Record<string, string> };
};
export type Row = { probe?: Probe; expect: Expectation };

export const all = (status: number): Expectation => ({ anonymous: status, super: status, adminA: status, agentA: status, adminB: status });
export const signedIn = (status: number): Expectation => ({ anonymous: 401, super: status, adminA: status, agentA: status, adminB: status });
export const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
/** A finished (empty) custom analysis of tenant A, and one of tenant A's operational areas. */
export const analysisA = async (env: TestEnv) => {
  const [a] = await env.sql<{ id: string }>(sql`
    INSERT INTO custom_analyses (tenant_id, name, minimum_farm_size, status, progress) VALUES (${env.fx.tenantA}, 'Matrix probe', 100, 'completed', 100) RETURNING id`);
  const [oa] = await env.sql<{ id: string }>(sql`SELECT id FROM operational_areas WHERE tenant_id = ${env.fx.tenantA} ORDER BY created_at LIMIT 1`);
  return { analysisId: a!.id, areaId: oa!.id };
};
export const adminAOnly = (ok: number): Expectation => ({ anonymous: 401, super: 403, adminA: ok, agentA: 403, adminB: 404 });
export const analysisList = (kind: string): Row => ({
  probe: { setup: analysisA, url: (_fx, c) => `/api/custom-analysis/${c['analysisId']}/${kind}/` },
  expect: adminAOnly(200),
});
export const disposableAgentA = async (env: TestEnv) => ({ userId: (await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' })).id });

export const geoA = async (env: TestEnv): Promise<Record<string, string>> => {
  const g = await tenantGeo(env, env.fx.tenantA);
  return { regionId: g.regionId, cityId: g.cityId, areaId: g.areaId, farmerId: g.farmerId, farmId: g.farmId };
};
export const disposableAreaA = async (env: TestEnv) => ({
  ...(await geoA(env)),
  areaId: await insertAreaDirect(env, env.fx.tenantA, square(...freshSpot(), 300)),
});
export const disposableFarmA = async (env: TestEnv) => {
  const g = await geoA(env);
  return { ...g, farmId: await insertFarmDirect(env, env.fx.tenantA, g['farmerId']!, square(...freshSpot(), 60)) };
};

export const disposableFarmerA = async (env: TestEnv) => {
  const [f] = await env.sql<{ id: string }>(sql`
    INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${env.fx.tenantA}, 'Probe', 'Farmer', ${`PROBE-${Math.random().toString(36).slice(2, 12)}`}) RETURNING id`);
  return { farmerId: f!.id };
};

/** Provider routes: super-admins only; every tenant user gets 403 (before any record is looked at). */
export const providerOnly = (ok: number): Expectation => ({ anonymous: 401, super: ok, adminA: 403, agentA: 403, adminB: 403 });
let tenantSeq = 0;
export const tenantPayload = () => {
  const u = `${process.pid}-${Date.now()}-${++tenantSeq}`;
  return {
    name: `Matrix Org ${u}`,
    phone_number: '+2348030000001',
    email: `matrix-org-${u}@test.example`,
    country_id: '1e7050d0-9e8f-5e82-9ca3-884850256d74',
    admin: { email: `matrix-admin-${u}@test.example`, first_name: 'Matrix', last_name: 'Admin', phone_number: '+2348030000002' },
    license: { type: 'SDK', issued_date: '2026-01-01', expiry_date: '2030-01-01', price: '1000' },
  };
};
/** A throwaway tenant with an SDK license, so that a probe may suspend, revoke or delete it. */
export const disposableTenant = async (env: TestEnv) => {
  const t = await makeTenant(env, { license: 'SDK' });
  const [l] = await env.sql<{ id: string }>(sql`SELECT id FROM licenses WHERE tenant_id = ${t.id}`);
  return { tenantId: t.id, licenseId: l!.id };
};

// ---- reference layers (issue 29): a ready layer inserted directly (no load), tenant A's or the provider's ----
export const layerOf = async (env: TestEnv, tenantId: string | null) => {
  const [l] = await env.sql<{ id: string }>(sql`
    INSERT INTO reference_layers (tenant_id, name, kind, reference_date, source, licence, status, progress)
    VALUES (${tenantId}, 'Matrix layer', 'forest_2020', '2020-12-31', 'Synthetic', 'CC0-1.0', 'ready', 100) RETURNING id`);
  return { layerId: l!.id };
};
export const layerA = (env: TestEnv) => layerOf(env, env.fx.tenantA);
export const providerLayer = (env: TestEnv) => layerOf(env, null);
export const LAYER_FILE = {
  field: 'file',
  filename: 'layer.geojson',
  content: Buffer.from(
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: {},
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [30, -10],
                [30.001, -10],
                [30.001, -9.999],
                [30, -10],
              ],
            ],
          },
        },
      ],
    }),
  ),
  contentType: 'application/geo+json',
};
/** An upload's details with the file, so that the probe passes validation and reaches the service. */
export const LAYER_UPLOAD = {
  ...LAYER_FILE,
  fields: { name: 'Matrix layer', kind: 'forest_2020', reference_date: '2020-12-31', source: 'Synthetic', licence: 'CC0-1.0' },
};
export const tenantAdmins = (ok: number): Expectation => ({ anonymous: 401, super: 403, adminA: ok, agentA: 403, adminB: ok });
/** A webhook endpoint of tenant A with one failed delivery (the secret's ciphertext is a placeholder: nothing is sent). */
export const webhookA = async (env: TestEnv) => {
  const [w] = await env.sql<{ id: string }>(sql`
    INSERT INTO webhook_endpoints (tenant_id, url, events, secret_enc, secret_hint, enabled)
    VALUES (${env.fx.tenantA}, 'https://93.184.215.14/matrix', '{analysis.completed}', 'x', '…abcd', false) RETURNING id`);
  const [e] = await env.sql<{ id: string }>(
    sql`INSERT INTO webhook_events (tenant_id, type, body) VALUES (${env.fx.tenantA}, 'analysis.completed', '{}') RETURNING id`,
  );
  const [d] = await env.sql<{ id: string }>(sql`
    INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id, status, attempts, next_attempt_at) VALUES (${env.fx.tenantA}, ${w!.id}, ${e!.id}, 'failed', 1, NULL) RETURNING id`);
  return { webhookId: w!.id, deliveryId: d!.id };
};

/** No webhook endpoints left for tenants A and B (the probe's deliveries and attempts go with them). */
export const clearWebhooks = async (env: TestEnv) => {
  await env.sql(sql`DELETE FROM webhook_endpoints WHERE tenant_id IN (${env.fx.tenantA}, ${env.fx.tenantB})`);
  return {};
};
