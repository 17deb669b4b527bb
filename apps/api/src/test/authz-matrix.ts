// The authorization matrix: one row per route (METHOD + path as registered), with the expected status for each persona.
// authz-matrix.test.ts fails for any route that has no row here, so every new route must state who may call it.
// Probes act on tenant A's resources: an admin of tenant B must get 404 (a foreign record looks like a missing one).
import type { Fixtures } from './harness.js';
import { freshSpot, overlappingPair, square } from './geo-fixtures.js';
import {
  LAYER_FILE,
  LAYER_UPLOAD,
  PNG,
  adminAOnly,
  all,
  analysisA,
  analysisList,
  clearWebhooks,
  disposableAgentA,
  disposableAreaA,
  disposableFarmA,
  disposableFarmerA,
  disposableTenant,
  geoA,
  layerA,
  providerLayer,
  providerOnly,
  signedIn,
  tenantAdmins,
  tenantPayload,
  webhookA,
  type Row,
} from './authz-probes.js';

export type { Expectation, Probe, Row } from './authz-probes.js';

export const matrix: Record<string, Row> = {
  // ---- operations ----
  'GET /api/health': { expect: all(200) },
  'GET /api/health/ready': { expect: all(200) },
  'GET /api/ready': { expect: all(200) },
  // Without METRICS_TOKEN, a direct call from this machine (inject's loopback peer) is answered whoever asks;
  // plugins/ops.test.ts checks the token and the refusals.
  'GET /api/metrics': { expect: all(200) },
  'GET /api/openapi.json': { expect: all(200) },
  'GET /api/config': { expect: all(200) },
  'GET /api/crypto/key': { expect: all(200) },

  // ---- sign-in: public routes answer the same to everyone (bad tokens are 400 / 401, never 403) ----
  'POST /api/auth/login/': { probe: { body: () => ({ email: 'nobody@test.example', password: 'wrong-password' }) }, expect: all(401) },
  'POST /api/auth/setup-mfa/': { probe: { body: () => ({ mfa_token: 'x', user_token: 'y' }) }, expect: all(400) },
  'POST /api/auth/confirm-mfa/': { probe: { body: () => ({ mfa_token: 'x', user_token: 'y', code: '123456' }) }, expect: all(400) },
  'POST /api/auth/login/confirm': { probe: { body: () => ({ mfa_token: 'x', user_token: 'y', code: '123456' }) }, expect: all(400) },
  'POST /api/auth/token/refresh/': { probe: { body: () => ({ refresh: 'not-a-token' }) }, expect: all(401) },
  'POST /api/auth/logout/': { probe: { body: () => ({}) }, expect: signedIn(200) },
  'POST /api/auth/admin-login/': { probe: { body: () => ({ request_id: 'unknown-request' }) }, expect: all(400) },
  'POST /api/auth/:id/reset-mfa/': {
    probe: { setup: disposableAgentA, url: (_fx, c) => `/api/auth/${c['userId']}/reset-mfa/`, body: () => ({}) },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 404 },
  },
  'POST /api/auth/password/update/': {
    probe: { body: () => ({ old_password: 'wrong-old-password', new_password: 'another-password-1' }) },
    expect: signedIn(400),
  },
  'POST /api/auth/password/reset/': { probe: { body: () => ({ email: 'nobody@test.example' }) }, expect: all(200) },
  'POST /api/auth/password/confirm-reset-token/': { probe: { body: () => ({ token: 'not-a-token' }) }, expect: all(400) },
  'POST /api/auth/password/set-new-password/': { probe: { body: () => ({ token: 'not-a-token', password: 'long-enough-pass' }) }, expect: all(400) },
  'POST /api/onboarding/tenant-admin/': {
    probe: { url: () => '/api/onboarding/tenant-admin/?signed_key=bogus.key', body: () => ({ password: 'long-enough-pass' }) },
    expect: all(400),
  },

  'POST /api/internal/admin-links/': { probe: { body: () => ({ email: 'superadmin@farmland.local' }) }, expect: all(404) },
  'POST /api/internal/backup/': { expect: all(404) },
  'GET /api/internal/outbox/': { probe: { url: () => '/api/internal/outbox/?to=superadmin@farmland.local' }, expect: all(404) },

  // ---- accounts: yourself, provider staff anyone, tenant admins their tenant ----
  'GET /api/accounts/users/:id/': {
    probe: { url: (fx) => `/api/accounts/users/${fx.adminA}/` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 404, adminB: 404 },
  },
  'PATCH /api/accounts/users/:id/': {
    probe: { setup: disposableAgentA, url: (_fx, c) => `/api/accounts/users/${c['userId']}/`, body: () => ({ first_name: 'Changed' }) },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 404, adminB: 404 },
  },
  'PUT /api/accounts/users/upload-image/': {
    probe: { multipart: { field: 'image', filename: 'a.png', content: PNG, contentType: 'image/png' } },
    expect: signedIn(200),
  },
  'PUT /api/accounts/users/:id/reset': {
    probe: { setup: disposableAgentA, url: (_fx, c) => `/api/accounts/users/${c['userId']}/reset`, body: () => ({}) },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 404 },
  },

  // ---- agents: tenant admins manage their own; provider staff read every tenant's; agents may not ----
  'GET /api/accounts/agents/template.csv': { expect: all(200) },
  'GET /api/accounts/agents/': { expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 200 } },
  'POST /api/accounts/agents/': {
    probe: {
      body: () => ({
        first_name: 'Probe',
        last_name: 'Agent',
        email: `probe-${Math.random().toString(36).slice(2, 12)}@test.example`,
        phone_number: '+2348030000000',
      }),
    },
    expect: { anonymous: 401, super: 403, adminA: 201, agentA: 403, adminB: 201 },
  },
  'POST /api/accounts/agents/bulk-upload/': {
    probe: {
      multipart: {
        field: 'file',
        filename: 'agents.csv',
        content: Buffer.from('first_name,last_name,email,phone_number\nProbe,Agent,not-an-email,+2348030000000\n'),
        contentType: 'text/csv',
      },
    },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 200 },
  },
  'GET /api/accounts/agents/:id/': {
    probe: { setup: disposableAgentA, url: (_fx, c) => `/api/accounts/agents/${c['userId']}/` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 404 },
  },
  'PUT /api/accounts/agents/:id/': {
    probe: { setup: disposableAgentA, url: (_fx, c) => `/api/accounts/agents/${c['userId']}/`, body: () => ({ phone_number: '+2348031234567' }) },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 404 },
  },
  'DELETE /api/accounts/agents/:id/': {
    probe: { setup: disposableAgentA, url: (_fx, c) => `/api/accounts/agents/${c['userId']}/` },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 404 },
  },
  'PUT /api/accounts/agents/:id/suspend': {
    probe: { setup: disposableAgentA, url: (_fx, c) => `/api/accounts/agents/${c['userId']}/suspend`, body: () => ({}) },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 404 },
  },

  // ---- files: signed URLs only ----
  'GET /api/files/:id': {
    probe: { url: () => '/api/files/00000000-0000-4000-8000-000000000000?exp=9999999999&sig=not-a-valid-signature' },
    expect: all(404),
  },

  // ---- activity log ----
  'GET /api/activity-logs/': { expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 200 } },

  // ---- exports: a list's own readers may export it, scoped like the list (tenant admins: their tenant) ----
  'POST /api/base/export/:name/': {
    probe: { url: () => '/api/base/export/activity-logs/', body: () => ({ column_list: ['user', 'description', 'timestamp'] }) },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 200 },
  },

  // ---- lookups and regions ----
  'GET /api/base/all-countries/': { expect: signedIn(200) },
  'GET /api/base/states/:id/': { probe: { url: () => '/api/base/states/1e7050d0-9e8f-5e82-9ca3-884850256d74/' }, expect: signedIn(200) },
  'GET /api/base/countries/:id/cities/': {
    probe: { url: () => '/api/base/countries/1e7050d0-9e8f-5e82-9ca3-884850256d74/cities/?search=Og' },
    expect: signedIn(200),
  },
  'GET /api/base/regions/': { expect: signedIn(200) },
  'POST /api/base/regions/': {
    probe: { body: () => ({ country_id: '1e7050d0-9e8f-5e82-9ca3-884850256d74', name: `Region ${Math.random().toString(36).slice(2, 10)}` }) },
    expect: { anonymous: 401, super: 403, adminA: 201, agentA: 403, adminB: 201 },
  },

  // ---- custom analysis: tenant admins only, on their own tenant's analyses ----
  'GET /api/custom-analysis/template.csv': { expect: all(200) },
  'GET /api/custom-analysis/template.geojson': { expect: all(200) },
  'POST /api/custom-analysis/': {
    probe: {
      setup: analysisA,
      body: (_fx, c) => ({
        name: 'Matrix',
        operational_areas: [c['areaId']],
        locations: [
          {
            farm_name: 'x',
            farm_coordinates: [
              [3.7, 7.6],
              [3.701, 7.6],
              [3.701, 7.601],
            ],
          },
        ],
      }),
    },
    // adminB names tenant A's operational area: not one of theirs (400, field operational_areas).
    expect: { anonymous: 401, super: 403, adminA: 201, agentA: 403, adminB: 400 },
  },
  'GET /api/custom-analysis/': { expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 200 } },
  // ---- reference layers and screening (issue 29) ----
  'GET /api/base/reference-layers/': { expect: providerOnly(200) },
  'POST /api/base/reference-layers/': { probe: { multipart: LAYER_UPLOAD }, expect: providerOnly(202) },
  'GET /api/base/reference-layers/:id/': {
    probe: { setup: providerLayer, url: (_fx, c) => `/api/base/reference-layers/${c['layerId']}/` },
    expect: providerOnly(200),
  },
  'GET /api/base/reference-layers/:id/progress/': {
    probe: { setup: providerLayer, url: (_fx, c) => `/api/base/reference-layers/${c['layerId']}/progress/` },
    expect: providerOnly(200),
  },
  'POST /api/base/reference-layers/:id/replace/': {
    probe: { setup: providerLayer, url: (_fx, c) => `/api/base/reference-layers/${c['layerId']}/replace/`, multipart: LAYER_FILE },
    expect: providerOnly(202),
  },
  'DELETE /api/base/reference-layers/:id/': {
    probe: { setup: providerLayer, url: (_fx, c) => `/api/base/reference-layers/${c['layerId']}/` },
    expect: providerOnly(200),
  },
  'GET /api/reference-layers/': { expect: tenantAdmins(200) },
  'POST /api/reference-layers/': { probe: { multipart: LAYER_UPLOAD }, expect: tenantAdmins(202) },
  'GET /api/reference-layers/:id/': { probe: { setup: layerA, url: (_fx, c) => `/api/reference-layers/${c['layerId']}/` }, expect: adminAOnly(200) },
  'GET /api/reference-layers/:id/progress/': {
    probe: { setup: layerA, url: (_fx, c) => `/api/reference-layers/${c['layerId']}/progress/` },
    expect: adminAOnly(200),
  },
  'POST /api/reference-layers/:id/replace/': {
    probe: { setup: layerA, url: (_fx, c) => `/api/reference-layers/${c['layerId']}/replace/`, multipart: LAYER_FILE },
    expect: adminAOnly(202),
  },
  'DELETE /api/reference-layers/:id/': { probe: { setup: layerA, url: (_fx, c) => `/api/reference-layers/${c['layerId']}/` }, expect: adminAOnly(200) },
  'GET /api/reference-layers/risk-settings/': { expect: tenantAdmins(200) },
  'PUT /api/reference-layers/risk-settings/': { probe: { body: () => ({ eudr_min_overlap_sqm: 10 }) }, expect: tenantAdmins(200) },
  'GET /api/webhooks/': { expect: tenantAdmins(200) },
  'POST /api/webhooks/': {
    // Other files of this worker (the hostile fuzz) can leave tenants A and B at the 20-endpoint limit: start below it.
    probe: { setup: clearWebhooks, body: () => ({ url: 'https://93.184.215.14/matrix', events: ['analysis.completed'], enabled: false }) },
    expect: tenantAdmins(201),
  },
  'GET /api/webhooks/:id/': { probe: { setup: webhookA, url: (_fx, c) => `/api/webhooks/${c['webhookId']}/` }, expect: adminAOnly(200) },
  'PATCH /api/webhooks/:id/': {
    probe: { setup: webhookA, url: (_fx, c) => `/api/webhooks/${c['webhookId']}/`, body: () => ({ description: 'matrix' }) },
    expect: adminAOnly(200),
  },
  'DELETE /api/webhooks/:id/': { probe: { setup: webhookA, url: (_fx, c) => `/api/webhooks/${c['webhookId']}/` }, expect: adminAOnly(200) },
  'POST /api/webhooks/:id/rotate-secret/': {
    probe: { setup: webhookA, url: (_fx, c) => `/api/webhooks/${c['webhookId']}/rotate-secret/` },
    expect: adminAOnly(200),
  },
  'POST /api/webhooks/:id/test/': { probe: { setup: webhookA, url: (_fx, c) => `/api/webhooks/${c['webhookId']}/test/` }, expect: adminAOnly(202) },
  'GET /api/webhooks/:id/deliveries/': { probe: { setup: webhookA, url: (_fx, c) => `/api/webhooks/${c['webhookId']}/deliveries/` }, expect: adminAOnly(200) },
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver/': {
    probe: { setup: webhookA, url: (_fx, c) => `/api/webhooks/${c['webhookId']}/deliveries/${c['deliveryId']}/redeliver/` },
    expect: adminAOnly(202),
  },
  'GET /api/eudr-reports/summary/': { expect: tenantAdmins(200) },
  'GET /api/eudr-reports/plots/': { expect: tenantAdmins(200) },
  'GET /api/eudr-reports/plots/export/': { expect: tenantAdmins(200) },
  'GET /api/eudr-reports/due-diligence/': {
    probe: { setup: disposableAreaA, url: (_fx, c) => `/api/eudr-reports/due-diligence/?area_id=${c['areaId']}` },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 400 },
  },
  'GET /api/eudr-reports/tenant-readiness/': { expect: providerOnly(200) },
  'GET /api/farms/:id/screening/': { probe: { setup: geoA, url: (_fx, c) => `/api/farms/${c['farmId']}/screening/` }, expect: adminAOnly(200) },
  'GET /api/farms/:id/screening/evidence/': {
    probe: { setup: geoA, url: (_fx, c) => `/api/farms/${c['farmId']}/screening/evidence/` },
    expect: adminAOnly(200),
  },
  'GET /api/custom-analysis/:id/': { probe: { setup: analysisA, url: (_fx, c) => `/api/custom-analysis/${c['analysisId']}/` }, expect: adminAOnly(200) },
  'DELETE /api/custom-analysis/:id/': { probe: { setup: analysisA, url: (_fx, c) => `/api/custom-analysis/${c['analysisId']}/` }, expect: adminAOnly(200) },
  'GET /api/custom-analysis/:id/within/': analysisList('within'),
  'GET /api/custom-analysis/:id/outside/': analysisList('outside'),
  'GET /api/custom-analysis/:id/overlapping/': analysisList('overlapping'),
  'GET /api/custom-analysis/:id/unrecognized/': analysisList('unrecognized'),
  'GET /api/custom-analysis/:id/errors/': analysisList('errors'),
  'GET /api/custom-analysis/:id/map/': analysisList('map'),
  'GET /api/custom-analysis/:id/export/': {
    probe: { setup: analysisA, url: (_fx, c) => `/api/custom-analysis/${c['analysisId']}/export/?category=within&format=geojson` },
    expect: adminAOnly(200),
  },

  // ---- geo registry: operational areas (admins write; everyone of the tenant reads; provider staff read all) ----
  'GET /api/operational-areas/': { expect: signedIn(200) },
  'POST /api/operational-areas/': {
    probe: {
      setup: geoA,
      body: (_fx, c) => ({ name: 'Probe area', region_id: c['regionId'], city_id: c['cityId'], coordinates: square(...freshSpot(), 500) }),
    },
    expect: { anonymous: 401, super: 403, adminA: 201, agentA: 403, adminB: 400 },
  },
  'GET /api/operational-areas/:id/': {
    probe: { setup: geoA, url: (_fx, c) => `/api/operational-areas/${c['areaId']}/` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 200, adminB: 404 },
  },
  'PUT /api/operational-areas/:id/': {
    probe: {
      setup: disposableAreaA,
      url: (_fx, c) => `/api/operational-areas/${c['areaId']}/`,
      body: (_fx, c) => ({ name: 'Renamed area', region_id: c['regionId'], city_id: c['cityId'], coordinates: square(...freshSpot(), 400) }),
    },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 404 },
  },
  'DELETE /api/operational-areas/:id/': {
    probe: { setup: disposableAreaA, url: (_fx, c) => `/api/operational-areas/${c['areaId']}/` },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 404 },
  },

  // ---- the field app's download (issue 31): agents and tenant admins of the tenant; provider staff have no field app ----
  'GET /api/field/areas/': { expect: { anonymous: 401, super: 403, adminA: 200, agentA: 200, adminB: 200 } },
  'GET /api/field/bundle/': {
    probe: { setup: geoA, url: (_fx, c) => `/api/field/bundle/?area_id=${c['areaId']}` },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 200, adminB: 404 },
  },

  // ---- farm registry: reads for everyone of the tenant and provider staff; captures by agents (or SDK keys); retain/delete by admins ----
  'GET /api/farms/': { expect: signedIn(200) },
  'GET /api/farms/overview': { expect: signedIn(200) },
  'GET /api/farms/export/eudr': { expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 200 } },
  'GET /api/farms/tiles/:z/:x/:y.mvt': { probe: { url: () => '/api/farms/tiles/12/2090/1960.mvt' }, expect: signedIn(200) },
  'GET /api/farms/global': { expect: signedIn(200) },
  'GET /api/farms/regional': { probe: { url: () => '/api/farms/regional?name=Nigeria' }, expect: signedIn(200) },
  'GET /api/farms/categorized-by-state': { expect: signedIn(200) },
  'GET /api/farms/:id/': {
    probe: { setup: geoA, url: (_fx, c) => `/api/farms/${c['farmId']}/` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 200, adminB: 404 },
  },
  'GET /api/farms/:id/history/': {
    probe: { setup: geoA, url: (_fx, c) => `/api/farms/${c['farmId']}/history/` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 200, adminB: 404 },
  },
  'GET /api/farms/:id/overlapping/': {
    probe: { setup: async (env) => overlappingPair(env), url: (_fx, c) => `/api/farms/${c['a']}/overlapping/` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 200, adminB: 404 },
  },
  'GET /api/farms/:id/overlaps/': {
    probe: { setup: async (env) => overlappingPair(env), url: (_fx, c) => `/api/farms/${c['a']}/overlaps/` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 200, adminB: 404 },
  },
  'POST /api/farms/': {
    probe: {
      setup: geoA,
      body: (_fx, c) => ({ farmer_id: c['farmerId'], coordinates: square(...freshSpot(), 80), time_taken_to_map: '00:12:30', gps_device_id: 'GPS-PROBE' }),
    },
    expect: { anonymous: 401, super: 403, adminA: 403, agentA: 201, adminB: 403 },
  },
  'PUT /api/farms/:id/': {
    probe: { setup: disposableFarmA, url: (_fx, c) => `/api/farms/${c['farmId']}/`, body: () => ({ name: 'Renamed farm' }) },
    expect: { anonymous: 401, super: 403, adminA: 403, agentA: 200, adminB: 403 },
  },
  'DELETE /api/farms/:id/': {
    probe: { setup: disposableFarmA, url: (_fx, c) => `/api/farms/${c['farmId']}/` },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 404 },
  },
  'POST /api/farms/:id/intersect': {
    probe: { setup: async (env) => overlappingPair(env), url: (_fx, c) => `/api/farms/${c['a']}/intersect` },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 404 },
  },

  // ---- farmers through the capture API ----
  'POST /api/farmers/': {
    probe: { body: () => ({ first_name: 'Probe', last_name: 'Farmer', gender: 'Female' }) },
    expect: { anonymous: 401, super: 403, adminA: 201, agentA: 201, adminB: 201 },
  },
  'PUT /api/farmers/:id/': {
    probe: { setup: geoA, url: (_fx, c) => `/api/farmers/${c['farmerId']}/`, body: () => ({ address: '1 Probe Road' }) },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 200, adminB: 404 },
  },
  'GET /api/farmers/template.csv': { expect: all(200) },
  'GET /api/farmers/': { expect: signedIn(200) },
  'GET /api/farmers/:id/': {
    probe: { setup: geoA, url: (_fx, c) => `/api/farmers/${c['farmerId']}/` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 200, adminB: 404 },
  },
  'DELETE /api/farmers/:id/': {
    probe: { setup: disposableFarmerA, url: (_fx, c) => `/api/farmers/${c['farmerId']}/` },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 404 },
  },
  'POST /api/farmers/bulk-upload/': {
    probe: {
      multipart: { field: 'file', filename: 'farmers.csv', content: Buffer.from('first_name,last_name,gender\nProbe,Farmer,Other\n'), contentType: 'text/csv' },
    },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 200 },
  },
  'GET /api/farmers/:id/farms/': {
    probe: { setup: geoA, url: (_fx, c) => `/api/farmers/${c['farmerId']}/farms/` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 200, adminB: 404 },
  },
  'GET /api/farmers/:id/farms/:farmId/': {
    probe: { setup: geoA, url: (_fx, c) => `/api/farmers/${c['farmerId']}/farms/${c['farmId']}/` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 200, adminB: 404 },
  },

  // ---- tenant configuration: the tenant's own (naming another tenant is a 404); provider staff name the tenant ----
  // ---- analytics: tenant admins their own tenant; provider staff any (naming another tenant is a 404 for tenant users) ----
  'GET /api/analytics/': { expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 200 } },
  'GET /api/analytics/tenant-mapped-count/': {
    probe: { url: (fx) => `/api/analytics/tenant-mapped-count/?range_type=days&range_value=7&tenant_id=${fx.tenantA}` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 404 },
  },

  'GET /api/analytics/agent-ranking/': {
    probe: { url: (fx) => `/api/analytics/agent-ranking/?tenant_id=${fx.tenantA}` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 404 },
  },

  // ---- provider analytics (issue 11): the single counts and mapping data like the tenant analytics; the tenants,
  // licenses, ranking and Reports are the provider's alone ----
  ...Object.fromEntries(
    ['agents-count', 'farms-count', 'operational-areas-count', 'mapped-farms-count', 'unmapped-farms-count'].map((p) => [
      `GET /api/analytics/${p}/`,
      {
        probe: { url: (fx: Fixtures) => `/api/analytics/${p}/?tenant_id=${fx.tenantA}` },
        expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 404 },
      },
    ]),
  ),
  'GET /api/analytics/mapping-data/': {
    probe: { url: (fx) => `/api/analytics/mapping-data/?year=2026&tenant_id=${fx.tenantA}` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 404 },
  },
  ...Object.fromEntries(
    [
      'mapping-ranking/?year=2026',
      'tenants-dashboard-count/?year=2026',
      'tenants-count/',
      'tenants-status-count/',
      'licenses-count/',
      'tenant-progress/?year=2026',
    ].map((p) => [`GET /api/analytics/${p.split('?')[0]}`, { probe: { url: () => `/api/analytics/${p}` }, expect: providerOnly(200) }]),
  ),

  // ---- tenants and licenses (issue 11): provider staff only; a tenant admin or agent gets 403 ----
  'GET /api/base/tenants/': { expect: providerOnly(200) },
  'POST /api/base/tenants/': { probe: { body: () => tenantPayload() }, expect: providerOnly(201) },
  'GET /api/base/tenants/:id/': { probe: { url: (fx) => `/api/base/tenants/${fx.tenantA}/` }, expect: providerOnly(200) },
  'PUT /api/base/tenants/:id/': {
    probe: { setup: disposableTenant, url: (_fx, c) => `/api/base/tenants/${c['tenantId']}/`, body: () => tenantPayload() },
    expect: providerOnly(200),
  },
  'PUT /api/base/tenants/:id/suspend-deactivate/': {
    probe: { setup: disposableTenant, url: (_fx, c) => `/api/base/tenants/${c['tenantId']}/suspend-deactivate/`, body: () => ({ is_suspended: true }) },
    expect: providerOnly(200),
  },
  'POST /api/base/tenants/delete/': { probe: { setup: disposableTenant, body: (_fx, c) => ({ uuids: [c['tenantId']] }) }, expect: providerOnly(200) },
  // The one exception to "403 on every /base/tenants and /base/licenses route" (issue 11's check), decided in
  // docs/decisions/0013-provider-area-api.md (Routes): docs/requirements.md §7 has the tenant dashboard's license card read
  // GET /base/licenses/, so a tenant admin reads its own organisation's licenses there (forced to its own tenant);
  // agents do not. Revoke and re-issue stay 403 for a tenant admin, its own license included (tenants.test.ts).
  'GET /api/base/licenses/': { expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 200 } },
  'PUT /api/base/licenses/:id/revoke/': {
    probe: { setup: disposableTenant, url: (_fx, c) => `/api/base/licenses/${c['licenseId']}/revoke/` },
    expect: providerOnly(200),
  },
  'POST /api/base/licenses/:id/reissue/': {
    probe: { setup: disposableTenant, url: (_fx, c) => `/api/base/licenses/${c['licenseId']}/reissue/` },
    expect: providerOnly(200),
  },
  'POST /api/base/licenses/:id/rotate-key/': {
    probe: { setup: disposableTenant, url: (_fx, c) => `/api/base/licenses/${c['licenseId']}/rotate-key/` },
    expect: providerOnly(200),
  },

  'GET /api/base/tenant-configurations': {
    probe: { url: (fx) => `/api/base/tenant-configurations?tenant_id=${fx.tenantA}` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 200, adminB: 404 },
  },
  'PUT /api/base/tenant-configurations': {
    probe: { url: (fx) => `/api/base/tenant-configurations?tenant_id=${fx.tenantA}`, body: () => ({ minimum_farm_size: 100 }) },
    expect: { anonymous: 401, super: 403, adminA: 200, agentA: 403, adminB: 404 },
  },
  'GET /api/base/tenant-settings/': {
    probe: { url: (fx) => `/api/base/tenant-settings/?tenant_id=${fx.tenantA}` },
    expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 404 },
  },
};
