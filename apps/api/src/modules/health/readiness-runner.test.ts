// Readiness reads the analysis job runner made for the process's deps. A second app built on the same deps and closed
// (tests do this) stopped its own runner and, before, took the first one's place: every later /api/ready of the first
// app answered 503 (jobs: failed), as the authorization matrix saw in CI when it ran after such a file.
import { expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { testEnv } from '../../test/harness.js';
import { readinessOf } from './health.routes.js';

it('a second app on the same deps, once closed, leaves the first one ready', async () => {
  const env = await testEnv();
  expect((await readinessOf(env.deps)).status).toBe('ready');
  const app = await buildApp(env.deps);
  await app.ready();
  await app.close();
  expect((await readinessOf(env.deps)).checks).toMatchObject({ jobs: 'ok' });
  expect((await env.as('anonymous').request({ method: 'GET', url: '/api/ready' })).status).toBe(200);
});
