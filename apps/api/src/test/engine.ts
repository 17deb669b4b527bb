// Names shared by the test global setup and the per-worker harness.
import path from 'node:path';

export const PG_TEST_ROLE = 'farmland_test_app';
export const pgTemplateName = (fp: string) => `farmland_tpl_${fp}`;
export const pgliteTemplatePath = (fp: string) => path.resolve(import.meta.dirname, '../../.test-data', `pglite-${fp}.tar.gz`);

export function withDatabase(url: string, database: string, user?: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  if (user) {
    u.username = user;
    u.password = '';
  }
  return u.toString();
}
