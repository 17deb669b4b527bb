// SQL of the dashboard analytics. tenantId null: every tenant (provider staff); row-level security scopes it either way.
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.js';

const forTenant = (column: string, tenantId: string | null) => (tenantId ? sql`AND ${sql.raw(column)} = ${tenantId}` : sql``);

export type CountsRow = { agents: number; farmers: number; farms: number; operational_areas: number; gps_devices: number; mapped_farmers: number };

export async function counts(tx: Executor, tenantId: string | null): Promise<CountsRow> {
  const [row] = await queryRows<CountsRow>(tx, sql`
    SELECT (SELECT count(*) FROM users WHERE role = 'agent' ${forTenant('tenant_id', tenantId)})::int AS agents,
           (SELECT count(*) FROM farmers WHERE true ${forTenant('tenant_id', tenantId)})::int AS farmers,
           (SELECT count(*) FROM farms WHERE true ${forTenant('tenant_id', tenantId)})::int AS farms,
           (SELECT count(*) FROM operational_areas WHERE true ${forTenant('tenant_id', tenantId)})::int AS operational_areas,
           (SELECT count(DISTINCT gps_device_id) FROM mapping_records WHERE gps_device_id IS NOT NULL AND gps_device_id <> '' ${forTenant('tenant_id', tenantId)})::int AS gps_devices,
           (SELECT count(*) FROM farmers fr WHERE EXISTS (SELECT 1 FROM farms f WHERE f.farmer_id = fr.id) ${forTenant('fr.tenant_id', tenantId)})::int AS mapped_farmers`);
  return row!;
}

export type Unit = 'year' | 'month' | 'day';
const FORMAT: Record<Unit, string> = { year: 'YYYY', month: 'YYYY-MM', day: 'YYYY-MM-DD' };

/** Farms created per bucket for the last n units (UTC), the current one last, and the n units before them. */
export async function mappedSeries(tx: Executor, tenantId: string | null, unit: Unit, n: number): Promise<{ buckets: Array<{ period: string; count: number }>; previous: number }> {
  const step = sql.raw(`'1 ${unit}'::interval`);
  const trunc = sql.raw(`'${unit}'`);
  const buckets = await queryRows<{ period: string; count: number }>(tx, sql`
    WITH b AS (
      SELECT generate_series(date_trunc(${trunc}, now() AT TIME ZONE 'UTC') - (${n - 1} * ${step}), date_trunc(${trunc}, now() AT TIME ZONE 'UTC'), ${step}) AS start
    )
    SELECT to_char(b.start, ${FORMAT[unit]}) AS period, count(f.id)::int AS count
      FROM b
      LEFT JOIN farms f ON (f.created_at AT TIME ZONE 'UTC') >= b.start AND (f.created_at AT TIME ZONE 'UTC') < b.start + ${step} ${forTenant('f.tenant_id', tenantId)}
     GROUP BY b.start ORDER BY b.start`);
  const [prev] = await queryRows<{ n: number }>(tx, sql`
    SELECT count(*)::int AS n FROM farms f
     WHERE (f.created_at AT TIME ZONE 'UTC') >= date_trunc(${trunc}, now() AT TIME ZONE 'UTC') - (${2 * n - 1} * ${step})
       AND (f.created_at AT TIME ZONE 'UTC') < date_trunc(${trunc}, now() AT TIME ZONE 'UTC') - (${n - 1} * ${step}) ${forTenant('f.tenant_id', tenantId)}`);
  return { buckets, previous: prev?.n ?? 0 };
}
