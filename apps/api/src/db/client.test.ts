// The database layer's safety properties: row-level security holds even for a query that forgets the tenant filter,
// on both engines, and in PostgreSQL mode the API refuses to boot as a superuser.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../test/harness.js';
import { openDatabase, queryRows, withScope } from './client.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

describe('row-level security', () => {
  it('runs the app as a role that is neither superuser nor BYPASSRLS', async () => {
    const [me] = await env.sql<{ rolsuper: boolean; rolbypassrls: boolean }>(sql`SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user`);
    expect(me).toEqual({ rolsuper: false, rolbypassrls: false });
  });

  it('shows a tenant scope only its own rows, even without a WHERE clause', async () => {
    const rows = await withScope(env.deps.db, { kind: 'tenant', tenantId: env.fx.tenantB }, (tx) =>
      queryRows<{ tenant_id: string }>(tx, sql`SELECT DISTINCT tenant_id FROM farms`),
    );
    expect(rows).toEqual([{ tenant_id: env.fx.tenantB }]);
  });

  it('shows nothing outside a scope', async () => {
    const rows = await queryRows<{ n: number }>(env.deps.db, sql`SELECT count(*)::int AS n FROM users`);
    expect(rows[0]!.n).toBe(0);
  });

  it('refuses to write a row into another tenant', async () => {
    await expect(
      withScope(env.deps.db, { kind: 'tenant', tenantId: env.fx.tenantB }, (tx) =>
        tx.execute(sql`INSERT INTO regions (tenant_id, country_id, name) VALUES (${env.fx.tenantA}, '1e7050d0-9e8f-5e82-9ca3-884850256d74', 'Smuggled')`),
      ),
    ).rejects.toThrow();
    const smuggled = await env.sql(sql`SELECT 1 FROM regions WHERE name = 'Smuggled'`);
    expect(smuggled).toHaveLength(0);
  });
});

describe.runIf(Boolean(process.env['TEST_DATABASE_URL']))('PostgreSQL boot check', () => {
  it('refuses to start when DATABASE_URL is a superuser', async () => {
    const url = env.adminUrl!;
    await expect(openDatabase({ kind: 'postgres', url, adminUrl: url, poolSize: 1 })).rejects.toThrow(/Refusing to start/);
  });
});
