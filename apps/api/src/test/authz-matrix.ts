// The authorization matrix: one row per route (METHOD + path as registered), with the expected status for each persona.
// authz-matrix.test.ts fails for any route that has no row here, so every new route must state who may call it.
// Probes act on tenant A's resources: an admin of tenant B must get 404 (a foreign record looks like a missing one).
import type { Fixtures, Persona, TestEnv } from './harness.js';
import { createUser } from './harness.js';

export type Expectation = Record<Persona, number>;
export type Probe = {
  /** Arrange step run once per persona; its result is passed to url and body. */
  setup?: (env: TestEnv) => Promise<Record<string, string>>;
  url?: (fx: Fixtures, ctx: Record<string, string>) => string;
  body?: (fx: Fixtures, ctx: Record<string, string>) => unknown;
  /** Sent as multipart/form-data with one file field. */
  multipart?: { field: string; filename: string; content: Buffer; contentType: string };
};
export type Row = { probe?: Probe; expect: Expectation };

const all = (status: number): Expectation => ({ anonymous: status, super: status, adminA: status, agentA: status, adminB: status });
const signedIn = (status: number): Expectation => ({ anonymous: 401, super: status, adminA: status, agentA: status, adminB: status });
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const disposableAgentA = async (env: TestEnv) => ({ userId: await createUser(env, { tenantId: env.fx.tenantA, role: 'agent' }) });

export const matrix: Record<string, Row> = {
  // ---- operations ----
  'GET /api/health': { expect: all(200) },
  'GET /api/openapi.json': { expect: all(200) },

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

  // ---- files: signed URLs only ----
  'GET /api/files/:id': {
    probe: { url: () => '/api/files/00000000-0000-4000-8000-000000000000?exp=9999999999&sig=not-a-valid-signature' },
    expect: all(404),
  },

  // ---- activity log ----
  'GET /api/activity-logs/': { expect: { anonymous: 401, super: 200, adminA: 200, agentA: 403, adminB: 200 } },

  // ---- lookups and regions ----
  'GET /api/base/all-countries/': { expect: signedIn(200) },
  'GET /api/base/states/:id/': { probe: { url: () => '/api/base/states/1e7050d0-9e8f-5e82-9ca3-884850256d74/' }, expect: signedIn(200) },
  'GET /api/base/countries/:id/cities/': { probe: { url: () => '/api/base/countries/1e7050d0-9e8f-5e82-9ca3-884850256d74/cities/?search=Og' }, expect: signedIn(200) },
  'GET /api/base/regions/': { expect: signedIn(200) },
  'POST /api/base/regions/': {
    probe: { body: () => ({ country_id: '1e7050d0-9e8f-5e82-9ca3-884850256d74', name: `Region ${Math.random().toString(36).slice(2, 10)}` }) },
    expect: { anonymous: 401, super: 403, adminA: 201, agentA: 403, adminB: 201 },
  },
};
