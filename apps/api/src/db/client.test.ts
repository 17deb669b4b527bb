// The database layer's safety properties: row-level security holds even for a query that forgets the tenant filter,
// on both engines; the scope set in the same round trip as BEGIN or as a single statement; and in PostgreSQL mode the
// API refuses to boot as a superuser.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../test/harness.js';
import { openDatabase, queryRows, scopedRows, withScope } from './client.js';

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

// withScope sends BEGIN and the scope in one round trip, scopedRows the scope and its statement in one: the scope
// must hold exactly as before, end with its transaction, and never carry over to the next user of the connection.
describe('the scope in the same round trip', () => {
  it('scopes one statement (scopedRows) like a transaction, and the scope ends with it', async () => {
    const mine = await scopedRows<{ tenant_id: string }>(env.deps.db, { kind: 'tenant', tenantId: env.fx.tenantA }, sql`SELECT DISTINCT tenant_id FROM farms`);
    expect(mine).toEqual([{ tenant_id: env.fx.tenantA }]);
    const all = await scopedRows<{ n: number }>(env.deps.db, { kind: 'system' }, sql`SELECT count(DISTINCT tenant_id)::int AS n FROM farms`);
    expect(all[0]!.n).toBeGreaterThanOrEqual(2);
    // A value with quotes and a backslash travels intact (a parameter on PGlite, a literal on PostgreSQL).
    const odd = `O'Brien \\ "x" $1`;
    expect(await scopedRows<{ v: string }>(env.deps.db, { kind: 'system' }, sql`SELECT ${odd}::text AS v`)).toEqual([{ v: odd }]);
    // Nothing of either scope is left behind for the next statement.
    expect((await queryRows<{ n: number }>(env.deps.db, sql`SELECT count(*)::int AS n FROM farms`))[0]!.n).toBe(0);
  });

  it('undoes a scoped transaction that throws, and hands the next one a clean connection with its own scope', async () => {
    for (let i = 0; i < 12; i++) {
      await expect(
        withScope(env.deps.db, { kind: 'tenant', tenantId: env.fx.tenantA }, async (tx) => {
          await tx.execute(
            sql`INSERT INTO regions (tenant_id, country_id, name) VALUES (${env.fx.tenantA}, '1e7050d0-9e8f-5e82-9ca3-884850256d74', ${`Undone ${i}`})`,
          );
          await tx.execute(sql`SELECT 1 / 0`);
        }),
      ).rejects.toMatchObject({ cause: { code: '22012' } });
    }
    expect(await env.sql(sql`SELECT 1 FROM regions WHERE name LIKE 'Undone %'`)).toHaveLength(0);
    // More transactions than the PostgreSQL pool has connections: each sees only its own tenant.
    const seen = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        const tenantId = i % 2 ? env.fx.tenantA : env.fx.tenantB;
        return withScope(env.deps.db, { kind: 'tenant', tenantId }, async (tx) => ({
          tenantId,
          rows: await queryRows<{ tenant_id: string }>(tx, sql`SELECT DISTINCT tenant_id FROM farms`),
          setting: (await queryRows<{ s: string }>(tx, sql`SELECT current_setting('app.tenant_id') AS s`))[0]!.s,
        }));
      }),
    );
    for (const s of seen) {
      expect(s.rows).toEqual([{ tenant_id: s.tenantId }]);
      expect(s.setting).toBe(s.tenantId);
    }
  });

  it('commits without waiting for the disk only when asked (asyncCommit), for that transaction alone', async () => {
    const setting = (opts?: { asyncCommit?: boolean }) =>
      withScope(
        env.deps.db,
        { kind: 'tenant', tenantId: env.fx.tenantA },
        async (tx) => ({
          commit: (await queryRows<{ s: string }>(tx, sql`SELECT current_setting('synchronous_commit') AS s`))[0]!.s,
          tenant: (await queryRows<{ s: string }>(tx, sql`SELECT current_setting('app.tenant_id') AS s`))[0]!.s,
        }),
        opts,
      );
    const durable = await setting();
    expect(durable).toEqual({ commit: 'on', tenant: env.fx.tenantA });
    // PostgreSQL turns it off for the transaction; PGlite (no WAL flush to wait for) ignores the option.
    expect(await setting({ asyncCommit: true })).toEqual({ commit: env.engine === 'postgres' ? 'off' : 'on', tenant: env.fx.tenantA });
    // SET LOCAL ends with its transaction: every pooled connection is durable again afterwards.
    const after = await Promise.all(Array.from({ length: 8 }, () => setting()));
    expect(after.every((x) => x.commit === 'on')).toBe(true);
    // A write committed that way is there for the next transaction, like any other.
    await withScope(
      env.deps.db,
      { kind: 'tenant', tenantId: env.fx.tenantA },
      (tx) =>
        tx.execute(sql`INSERT INTO regions (tenant_id, country_id, name) VALUES (${env.fx.tenantA}, '1e7050d0-9e8f-5e82-9ca3-884850256d74', 'Async commit')`),
      { asyncCommit: true },
    );
    expect(await env.sql(sql`SELECT 1 FROM regions WHERE name = 'Async commit'`)).toHaveLength(1);
  });

  it('reads as prepared statements on PostgreSQL: the same rows and scope on every run, at most 100 per connection, literals where a parameter has no type', async () => {
    const read = <T>(tenantId: string, q: ReturnType<typeof sql>) => scopedRows<T>(env.deps.db, { kind: 'tenant', tenantId }, q);
    // The same text, run more often than the five custom plans PostgreSQL makes before a generic one, keeps each
    // tenant's scope: a generic plan is still filtered by the policies at run time.
    for (let i = 0; i < 8; i++) {
      const tenantId = i % 2 === 0 ? env.fx.tenantA : env.fx.tenantB;
      const rows = await read<{ tenant_id: string; n: number }>(
        tenantId,
        sql`SELECT tenant_id, count(*)::int AS n FROM farms WHERE name <> ${'x'} GROUP BY tenant_id`,
      );
      expect(rows.map((r) => r.tenant_id)).toEqual([tenantId]);
    }
    // A parameter whose type only its value tells cannot be prepared: it is read with the value as a literal.
    expect(await read<{ v: string }>(env.fx.tenantA, sql`SELECT ${'plain'} AS v`)).toEqual([{ v: 'plain' }]);
    // Many distinct texts: each connection keeps at most 100 prepared (the least recently used are deallocated).
    for (let i = 0; i < 130; i++) expect(await read<{ n: number }>(env.fx.tenantA, sql.raw(`SELECT ${i} + 0 AS n`))).toEqual([{ n: i }]);
    const held = await read<{ n: number; mine: number }>(
      env.fx.tenantA,
      sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE name LIKE ${'r\\_%'})::int AS mine FROM pg_prepared_statements`,
    );
    if (env.engine === 'postgres') {
      expect(held[0]!.mine).toBeGreaterThan(0);
      expect(held[0]!.mine).toBeLessThanOrEqual(100);
    }
  });

  it('plans a read generically and serially only when it asks (genericPlan), for that read alone', async () => {
    const settings = sql`SELECT current_setting('plan_cache_mode') AS mode, current_setting('max_parallel_workers_per_gather') AS workers FROM farms LIMIT 1`;
    const scope = { kind: 'tenant', tenantId: env.fx.tenantA } as const;
    const asked = await scopedRows<{ mode: string; workers: string }>(env.deps.db, scope, settings, { genericPlan: true });
    const after = await scopedRows<{ mode: string; workers: string }>(env.deps.db, scope, settings);
    if (env.engine === 'postgres') {
      expect(asked).toEqual([{ mode: 'force_generic_plan', workers: '0' }]);
      expect(after[0]!.mode).toBe('auto');
      expect(after[0]!.workers).not.toBe('0');
    } else {
      // PGlite plans every statement and has no parallel workers: the option changes nothing there.
      expect(asked).toEqual(after);
    }
  });

  it('refuses a tenant scope without a tenant uuid before any SQL runs', async () => {
    for (const tenantId of ['', "x', true); SELECT 1; --", 'not-a-uuid']) {
      await expect(withScope(env.deps.db, { kind: 'tenant', tenantId }, async () => 1)).rejects.toThrow(/tenant id/);
      await expect(scopedRows(env.deps.db, { kind: 'tenant', tenantId }, sql`SELECT 1`)).rejects.toThrow(/tenant id/);
    }
  });
});

describe.runIf(Boolean(process.env['TEST_DATABASE_URL']))('PostgreSQL boot check', () => {
  it('refuses to start when DATABASE_URL is a superuser', async () => {
    const url = env.adminUrl!;
    await expect(openDatabase({ kind: 'postgres', url, adminUrl: url, poolSize: 1 })).rejects.toThrow(/Refusing to start/);
  });
});
