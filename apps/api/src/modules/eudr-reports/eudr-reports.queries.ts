// All SQL of the EUDR readiness reports (issue 29): the tenant's plots in keyset batches (farm id order) with what a
// verdict and the geolocation warnings are read from (screening figures, interior rings, validity, the polygon as the
// export writes it), narrowed by operational area, agent or named farms; the layers that apply; tenant names.
import { sql } from 'drizzle-orm';
import type { ReferenceLayerKind } from '@farmland/contracts';
import { queryRows, uuidArray, type Executor } from '../../db/client.js';
import type { RiskFigure } from '../reference-layers/plot-risk.js';

export type PlotRow = {
  id: string;
  tenant_id: string;
  name: string;
  farmer_id: string;
  farmer: string;
  area_id: string | null;
  area_name: string | null;
  agent_id: string | null;
  agent_name: string | null;
  area_sqm: number;
  created_at: string;
  /** The polygon as GeoJSON text, exterior ring counter-clockwise, 6 decimals (what the EUDR export writes). */
  geometry: string;
  holes: number;
  valid: boolean;
  /** The producer country the EUDR export writes (the farmer's, else the tenant's; ISO alpha-2), for outside_country. */
  country: string | null;
  figures: RiskFigure[];
};

export type PlotSelection = { areaId?: string | undefined; agentId?: string | undefined; farmIds?: readonly string[] | undefined };

/** One batch of plots after `after` (farm id order). tenantId null: every tenant's (provider staff, readiness). */
export async function plotBatch(tx: Executor, tenantId: string | null, sel: PlotSelection, after: string | null, limit: number): Promise<PlotRow[]> {
  const rows = await queryRows<PlotRow & { created_at: Date | string }>(
    tx,
    sql`
    SELECT f.id::text AS id, f.tenant_id::text AS tenant_id, f.name, fr.id::text AS farmer_id, fr.first_name || ' ' || fr.last_name AS farmer,
           oa.id::text AS area_id, oa.name AS area_name, u.id::text AS agent_id, CASE WHEN u.id IS NULL THEN NULL ELSE u.first_name || ' ' || u.last_name END AS agent_name,
           f.area_sqm::float8 AS area_sqm, f.created_at,
           ST_AsGeoJSON(ST_ForcePolygonCCW(f.geom), 6) AS geometry, ST_NumInteriorRings(f.geom) AS holes, ST_IsValid(f.geom) AS valid,
           (SELECT c.iso2 FROM countries c WHERE c.id = coalesce(fr.country_id, (SELECT t.country_id FROM tenants t WHERE t.id = f.tenant_id))) AS country,
           (SELECT coalesce(jsonb_agg(jsonb_build_object('layer_id', s.layer_id, 'layer_name', l.name, 'kind', l.kind, 'overlap_sqm', s.overlap_sqm, 'share', s.share) ORDER BY l.kind, l.name), '[]'::jsonb)
              FROM farm_screenings s JOIN reference_layers l ON l.id = s.layer_id WHERE s.farm_id = f.id AND l.version > 0) AS figures
      FROM farms f
      JOIN farmers fr ON fr.id = f.farmer_id
      LEFT JOIN operational_areas oa ON oa.id = f.operational_area_id
      LEFT JOIN users u ON u.id = f.mapped_by AND u.role = 'agent'
     WHERE ${tenantId ? sql`f.tenant_id = ${tenantId}` : sql`true`}
       ${sel.areaId ? sql`AND f.operational_area_id = ${sel.areaId}` : sql``}
       ${sel.agentId ? sql`AND f.mapped_by = ${sel.agentId}` : sql``}
       ${sel.farmIds ? sql`AND f.id = ANY(${uuidArray(sel.farmIds)})` : sql``}
       ${after ? sql`AND f.id > ${after}::uuid` : sql``}
     ORDER BY f.id
     LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    ...r,
    area_sqm: Number(r.area_sqm),
    holes: Number(r.holes),
    created_at: new Date(r.created_at).toISOString(),
    figures: (typeof r.figures === 'string' ? (JSON.parse(r.figures) as RiskFigure[]) : r.figures).map((f) => ({
      ...f,
      overlap_sqm: Number(f.overlap_sqm),
      share: Number(f.share),
    })),
  }));
}

export type LayerInUse = {
  id: string;
  tenant_id: string | null;
  name: string;
  kind: ReferenceLayerKind;
  reference_date: string;
  source: string;
  version: number;
};

/** Layers in use that apply to the tenant: the provider's and its own. */
export async function layersInUse(tx: Executor, tenantId: string): Promise<LayerInUse[]> {
  return queryRows<LayerInUse>(
    tx,
    sql`SELECT id::text AS id, tenant_id::text AS tenant_id, name, kind::text AS kind, reference_date::text AS reference_date, source, version
          FROM reference_layers WHERE version > 0 AND (tenant_id IS NULL OR tenant_id = ${tenantId}) ORDER BY kind, name, id`,
  );
}

export async function tenantName(tx: Executor, tenantId: string): Promise<string | null> {
  const [row] = await queryRows<{ name: string }>(tx, sql`SELECT name FROM tenants WHERE id = ${tenantId}`);
  return row?.name ?? null;
}

/** Every tenant (not deleted), by name, with the layers in use that apply to it: the provider's readiness table lists each. */
export async function allTenants(tx: Executor): Promise<Array<{ id: string; name: string; layers: number }>> {
  return queryRows(
    tx,
    sql`SELECT t.id::text AS id, t.name, (SELECT count(*)::int FROM reference_layers l WHERE l.version > 0 AND (l.tenant_id IS NULL OR l.tenant_id = t.id)) AS layers
          FROM tenants t WHERE t.deleted_at IS NULL ORDER BY t.name, t.id`,
  );
}

/** The tenant's operational area (null when it is not one of the tenant's). */
export async function areaOf(tx: Executor, tenantId: string, areaId: string): Promise<{ id: string; name: string } | null> {
  const [row] = await queryRows<{ id: string; name: string }>(
    tx,
    sql`SELECT id::text AS id, name FROM operational_areas WHERE tenant_id = ${tenantId} AND id = ${areaId}`,
  );
  return row ?? null;
}

/** How many of the tenant's farms an area holds (to refuse a report past the cap before reading them). */
export async function countAreaFarms(tx: Executor, tenantId: string, areaId: string, cap: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM farms WHERE tenant_id = ${tenantId} AND operational_area_id = ${areaId} LIMIT ${cap + 1}) x`,
  );
  return row?.n ?? 0;
}
