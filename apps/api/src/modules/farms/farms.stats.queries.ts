// The farm registry's statistics: the overview counts, and farms per country and per state (the provider's map).
import { sql } from 'drizzle-orm';
import { queryRows, readerOf, type Executor, type Reader } from '../../db/client.js';

export type Overview = { total_farms: number; within: number; outside: number; overlapping: number; unrecognized: number };

/** From the tenant_stats rollup (every tenant's in provider scope): no farm is read. */
export async function overview(run: Reader | Executor, tenantId: string | null): Promise<Overview> {
  const [row] = await readerOf(run)<Overview>(
    sql`SELECT coalesce(sum(farms), 0)::int AS total_farms,
               coalesce(sum(farms_within), 0)::int AS within,
               coalesce(sum(farms - farms_within), 0)::int AS outside,
               coalesce(sum(farms_overlapping), 0)::int AS overlapping,
               coalesce(sum(farms_unrecognized), 0)::int AS unrecognized
          FROM tenant_stats ${tenantId ? sql`WHERE tenant_id = ${tenantId}` : sql``}`,
  );
  return row ?? { total_farms: 0, within: 0, outside: 0, overlapping: 0, unrecognized: 0 };
}

/** Farmers and farms per country: the farmer's country, else the tenant's. */
export async function perCountry(tx: Executor, tenantId: string | null) {
  return queryRows<{ code: string; name: string; total_farms: number; total_farmers: number }>(
    tx,
    sql`SELECT c.iso2 AS code, c.name, count(f.id)::int AS total_farms, count(DISTINCT fr.id)::int AS total_farmers
          FROM farmers fr
          JOIN tenants t ON t.id = fr.tenant_id
          JOIN countries c ON c.id = coalesce(fr.country_id, t.country_id)
          LEFT JOIN farms f ON f.farmer_id = fr.id
         ${tenantId ? sql`WHERE fr.tenant_id = ${tenantId}` : sql``}
         GROUP BY c.iso2, c.name
         ORDER BY total_farms DESC, c.name`,
  );
}

export async function findCountryByName(tx: Executor, name: string): Promise<{ id: string; name: string } | null> {
  const rows = await queryRows<{ id: string; name: string }>(
    tx,
    sql`SELECT id, name FROM countries WHERE lower(name) = lower(${name}) OR lower(iso2) = lower(${name}) OR lower(iso3) = lower(${name}) ORDER BY (lower(name) = lower(${name})) DESC LIMIT 1`,
  );
  return rows[0] ?? null;
}

/**
 * Farms per state, within the farm's country (farmer's, else tenant's), the state placed by the farm's geometry (below).
 * With countryId every state of that country is listed (zeros included); without it, only states that have farms.
 */
export async function perState(tx: Executor, tenantId: string | null, countryId: string | null) {
  // A farm's state is read from its own geometry, never from its operational area's city label (issue 33: demo areas
  // labelled with a city of another state put their farms there). There are no state boundaries in the lookups, so a
  // farm belongs to the state of the city (of its country) nearest to its centroid: a Voronoi partition by the
  // lookups' cities (424 in Nigeria, about 11 a state), which follows state borders far better than the nearest state
  // centroid, still the fallback for a country without cities. Centroids are snapped to a 0.01° grid (about 1 km) so
  // each cell is placed once, however many farms it holds (docs/decisions/0051-farm-state-by-geometry.md).
  return queryRows<{ code: string; name: string; country: string; total_farms: number }>(
    tx,
    sql`WITH ff AS (
          SELECT ST_SnapToGrid(ST_Centroid(f.geom), 0.01) AS cell, coalesce(fr.country_id, t.country_id) AS country_id
            FROM farms f JOIN farmers fr ON fr.id = f.farmer_id JOIN tenants t ON t.id = f.tenant_id
           WHERE true ${tenantId ? sql`AND f.tenant_id = ${tenantId}` : sql``}
        ), cells AS (
          SELECT cell, country_id, count(*)::int AS n FROM ff ${countryId ? sql`WHERE ff.country_id = ${countryId}` : sql``} GROUP BY cell, country_id
        ), fs AS (
          SELECT cells.n, coalesce(
                   (SELECT ci.state_id FROM cities ci
                     WHERE ci.country_id = cells.country_id AND ci.state_id IS NOT NULL
                     ORDER BY ci.location <-> cells.cell LIMIT 1),
                   (SELECT s.id FROM states s
                     WHERE s.country_id = cells.country_id AND s.latitude IS NOT NULL AND s.longitude IS NOT NULL
                     ORDER BY ST_SetSRID(ST_MakePoint(s.longitude, s.latitude), 4326) <-> cells.cell LIMIT 1)
                 ) AS state_id
            FROM cells
        )
        SELECT s.code, s.name, c.name AS country, coalesce(sum(fs.n), 0)::int AS total_farms
          FROM states s
          JOIN countries c ON c.id = s.country_id
          ${countryId ? sql`LEFT JOIN fs ON fs.state_id = s.id WHERE s.country_id = ${countryId}` : sql`JOIN fs ON fs.state_id = s.id`}
         GROUP BY s.id, s.code, s.name, c.name
         ORDER BY total_farms DESC, s.name`,
  );
}
