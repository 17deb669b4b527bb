// All SQL of tenant configuration (minimum farm size, recognition threshold, overlap tolerance) and the settings summary.
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.js';

export type ConfigRow = {
  tenant_id: string;
  minimum_farm_size: number;
  recognition_threshold: number;
  overlap_min_area_sqm: number;
  overlap_min_share: number;
  updated_at: Date | string;
};

const COLUMNS = sql`tenant_id, minimum_farm_size, recognition_threshold, overlap_min_area_sqm, overlap_min_share, updated_at`;

export type ConfigPatch = {
  minimumFarmSize?: number | undefined;
  recognitionThreshold?: number | undefined;
  overlapMinAreaSqm?: number | undefined;
  overlapMinShare?: number | undefined;
};

/** The tenant's configuration; a tenant without a row gets the schema defaults (100 sqm, 0.5, 1 m², 1 %). */
export async function getConfiguration(tx: Executor, tenantId: string): Promise<ConfigRow> {
  const rows = await queryRows<ConfigRow>(tx, sql`SELECT ${COLUMNS} FROM tenant_configurations WHERE tenant_id = ${tenantId}`);
  return (
    rows[0] ?? {
      tenant_id: tenantId,
      minimum_farm_size: 100,
      recognition_threshold: 0.5,
      overlap_min_area_sqm: 1,
      overlap_min_share: 0.01,
      updated_at: new Date(0),
    }
  );
}

export async function upsertConfiguration(tx: Executor, tenantId: string, patch: ConfigPatch): Promise<ConfigRow> {
  const v = (x: number | undefined) => sql`${x ?? null}::float8`;
  const [row] = await queryRows<ConfigRow>(
    tx,
    sql`INSERT INTO tenant_configurations (tenant_id, minimum_farm_size, recognition_threshold, overlap_min_area_sqm, overlap_min_share, updated_at)
        VALUES (${tenantId}, coalesce(${v(patch.minimumFarmSize)}, 100), coalesce(${v(patch.recognitionThreshold)}, 0.5),
                coalesce(${v(patch.overlapMinAreaSqm)}, 1), coalesce(${v(patch.overlapMinShare)}, 0.01), now())
        ON CONFLICT (tenant_id) DO UPDATE
           SET minimum_farm_size = coalesce(${v(patch.minimumFarmSize)}, tenant_configurations.minimum_farm_size),
               recognition_threshold = coalesce(${v(patch.recognitionThreshold)}, tenant_configurations.recognition_threshold),
               overlap_min_area_sqm = coalesce(${v(patch.overlapMinAreaSqm)}, tenant_configurations.overlap_min_area_sqm),
               overlap_min_share = coalesce(${v(patch.overlapMinShare)}, tenant_configurations.overlap_min_share),
               updated_at = now()
        RETURNING ${COLUMNS}`,
  );
  if (!row) throw new Error('configuration upsert returned nothing');
  return row;
}

export type TenantRow = { id: string; name: string; country_id: string | null; country: string | null; is_active: boolean; is_suspended: boolean };

export async function findTenant(tx: Executor, tenantId: string): Promise<TenantRow | null> {
  const rows = await queryRows<TenantRow>(
    tx,
    sql`SELECT t.id, t.name, t.country_id, c.name AS country, t.is_active, t.is_suspended
          FROM tenants t LEFT JOIN countries c ON c.id = t.country_id WHERE t.id = ${tenantId}`,
  );
  return rows[0] ?? null;
}

export type LicenseRow = { id: string; type: string; key: string; issued_date: string; expiry_date: string; is_revoked: boolean; is_expired: boolean };

/** The tenant's current license: the most recently issued one (the same rule as the tenant gate). */
export async function currentLicense(tx: Executor, tenantId: string): Promise<LicenseRow | null> {
  const rows = await queryRows<LicenseRow>(
    tx,
    sql`SELECT id, type, key_hint AS key, issued_date::text AS issued_date, expiry_date::text AS expiry_date, is_revoked, (expiry_date < current_date) AS is_expired
          FROM licenses WHERE tenant_id = ${tenantId} ORDER BY issued_date DESC, created_at DESC LIMIT 1`,
  );
  return rows[0] ?? null;
}

/** Flags the tenant's registry for re-grouping under a new overlap tolerance (cleared by farm-overlaps.regroup.ts when done). */
export async function markRegroupPending(tx: Executor, tenantId: string): Promise<void> {
  await tx.execute(sql`UPDATE tenants SET overlap_regroup_pending = true WHERE id = ${tenantId}`);
}
