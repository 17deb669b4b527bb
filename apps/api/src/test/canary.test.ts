// Canary for the PGlite trap (docs/design-rules.md, "Engine traps"): an overlay on an invalid polygon must be refused or impossible on both engines.
// PGlite's PostGIS swallows GEOS errors (the overlay yields nothing, silently); PostgreSQL raises. Either way the registry
// never runs one: invalid boundaries cannot be stored (CHECK constraint), captures refuse them (ST_IsValid), and retain
// re-checks validity before its ST_Difference.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { withScope } from '../db/client.js';
import { invalidGeometries } from '../modules/farms/farms.groups.queries.js';
import { freshSpot, square, tenantGeo, type TenantGeo } from './geo-fixtures.js';
import { testEnv, type TestEnv } from './harness.js';

let env: TestEnv;
let geoA: TenantGeo;
const BOWTIE = 'SRID=4326;POLYGON((30 -20, 30.001 -19.999, 30.001 -20, 30 -19.999, 30 -20))';
const SQUARE = 'SRID=4326;POLYGON((30 -20, 30.0005 -20, 30.0005 -19.9995, 30 -19.9995, 30 -20))';

beforeAll(async () => {
  env = await testEnv();
  geoA = await tenantGeo(env, env.fx.tenantA);
});

describe(`canary: overlays on invalid polygons (${process.env['TEST_DATABASE_URL'] ? 'postgres' : 'pglite'})`, () => {
  it('shows the engine trap itself: the overlay result on a bow-tie cannot be trusted', async () => {
    let outcome: 'error' | 'silent';
    try {
      const rows = await env.sql<{ d: string | null }>(sql`SELECT ST_AsText(ST_Difference(${BOWTIE}::geometry, ${SQUARE}::geometry)) AS d`);
      // PGlite: no error, and no (or an empty) answer.
      outcome = 'silent';
      expect(rows.length === 0 || rows[0]!.d === null || rows[0]!.d === 'POLYGON EMPTY' || rows[0]!.d === 'GEOMETRYCOLLECTION EMPTY').toBe(true);
    } catch (err) {
      outcome = 'error';
      expect(String((err as Error).message) + String((err as { cause?: Error }).cause?.message ?? '')).toMatch(/TopologyException|Self-intersection|GEOS/i);
    }
    expect(outcome).toBe(env.engine === 'postgres' ? 'error' : 'silent');
  });

  it('makes storing an invalid farm boundary impossible (CHECK constraint)', async () => {
    await expect(
      env.sql(
        sql`INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm) VALUES (${env.fx.tenantA}, ${geoA.farmerId}, 'bow-tie', ${BOWTIE}::geometry, 1)`,
      ),
    ).rejects.toThrow();
    const [n] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farms WHERE name = 'bow-tie'`);
    expect(n!.n).toBe(0);
  });

  it('refuses an invalid boundary at capture, so retain can never be asked to cut one', async () => {
    const [a, b, c, d] = square(...freshSpot(), 50);
    const res = await env.as('agentA').post('/api/farms/', { farmer_id: geoA.farmerId, coordinates: [a, c, b, d] });
    expect(res.status).toBe(400);
    expect(res.body.errors.coordinates[0]).toMatch(/Self-intersection/);
  });

  it("retain's guard reports invalid members before any overlay (checked by ST_IsValid, not by an overlay)", async () => {
    // The guard query runs on stored farms; every stored farm is valid, so it finds none, on both engines.
    const ids = (await env.sql<{ id: string }>(sql`SELECT id FROM farms WHERE tenant_id = ${env.fx.tenantA} LIMIT 50`)).map((r) => r.id);
    const invalid = await withScope(env.deps.db, { kind: 'tenant', tenantId: env.fx.tenantA }, (tx) => invalidGeometries(tx, env.fx.tenantA, ids));
    expect(invalid).toEqual([]);
    // And the check it relies on does flag the bow-tie without running an overlay.
    const [v] = await env.sql<{ valid: boolean; reason: string }>(
      sql`SELECT ST_IsValid(${BOWTIE}::geometry) AS valid, ST_IsValidReason(${BOWTIE}::geometry) AS reason`,
    );
    expect(v).toMatchObject({ valid: false });
    expect(v!.reason).toMatch(/Self-intersection/);
  });
});
