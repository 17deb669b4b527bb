// All SQL of farmers as the capture API writes them (create, edit) and reads them back with their farm totals.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, readerOf, type Executor, type Reader } from '../../db/client.js';
import { matchesSearch, type SearchTerms } from '../../db/search.js';
import { listPage, type Total } from '../../db/pagination.js';

export type FarmerRow = {
  id: string;
  tenant_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone_number: string | null;
  gender: string | null;
  address: string | null;
  location: string | null;
  folio_id: string;
  image_file_id: string | null;
  region_id: string | null;
  region: string | null;
  country_id: string | null;
  country: string | null;
  number_of_farm: number;
  total_farm_size: number;
  created_at: Date | string;
  updated_at: Date | string;
};

/** A farmer's columns with its farm totals, over farmers fr (both totals from one pass over the farmer's farms). */
const farmerColumns = sql`
  SELECT fr.id, fr.tenant_id, fr.first_name, fr.last_name, fr.email, fr.phone_number, fr.gender, fr.address, fr.location, fr.folio_id,
         fr.image_file_id, fr.region_id, r.name AS region, fr.country_id, c.name AS country,
         t.number_of_farm, t.total_farm_size, fr.created_at, fr.updated_at`;
const farmerJoins = sql`
    LEFT JOIN regions r ON r.id = fr.region_id
    LEFT JOIN countries c ON c.id = fr.country_id
    CROSS JOIN LATERAL (SELECT count(*)::int AS number_of_farm, coalesce(sum(f.area_sqm), 0)::float8 AS total_farm_size FROM farms f WHERE f.farmer_id = fr.id) t`;
const farmerSelect = sql`${farmerColumns} FROM farmers fr ${farmerJoins}`;

/** A farmer of the tenant (null tenant = provider scope) with farm count and total size. */
export async function findFarmer(tx: Executor, tenantId: string | null, id: string): Promise<FarmerRow | null> {
  const rows = await queryRows<FarmerRow>(tx, sql`${farmerSelect} WHERE fr.id = ${id} ${tenantId ? sql`AND fr.tenant_id = ${tenantId}` : sql``}`);
  return rows[0] ?? null;
}

export type FarmerFilter = { search?: string | SearchTerms | undefined; isMapped?: boolean | undefined; region?: string | undefined };

/** The columns a farmers search reads (farmerConditions), for searchTerms. */
export const FARMER_SEARCH = ['farmers.full_name', 'farmers.folio_id', 'farmers.phone_number', 'farmers.email'] as const;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function farmerConditions(tenantId: string | null, f: FarmerFilter): SQL {
  const conds: SQL[] = [];
  if (tenantId) conds.push(sql`fr.tenant_id = ${tenantId}`);
  if (f.search) {
    const t = f.search;
    conds.push(
      sql`(${matchesSearch(sql`fr.full_name`, 'farmers.full_name', t)} OR ${matchesSearch(sql`fr.folio_id`, 'farmers.folio_id', t)}
           OR ${matchesSearch(sql`fr.phone_number`, 'farmers.phone_number', t)} OR ${matchesSearch(sql`fr.email`, 'farmers.email', t)})`,
    );
  }
  // mapped (farm_count > 0) is kept by the triggers on farms (migrations 0016, 0019); each side has its partial index on
  // (tenant_id, created_at, id), whose predicate the condition must match word for word.
  if (f.isMapped !== undefined) conds.push(f.isMapped ? sql`fr.mapped` : sql`NOT fr.mapped`);
  if (f.region) {
    // The filter modal's "country" sends a region name or a country name; an id names a region.
    conds.push(
      UUID_RE.test(f.region)
        ? sql`fr.region_id = ${f.region}`
        : sql`(EXISTS (SELECT 1 FROM regions r WHERE r.id = fr.region_id AND lower(r.name) = lower(${f.region}))
               OR EXISTS (SELECT 1 FROM countries c WHERE c.id = fr.country_id AND lower(c.name) = lower(${f.region})))`,
    );
  }
  return conds.length ? sql`WHERE ${sql.join(conds, sql` AND `)}` : sql``;
}

/** The tenant's farmers (every tenant's in provider scope) and the mapped ones, as tenant_stats keeps them (migration 0016). */
function farmerTotal(tenantId: string | null, which: 'farmers' | 'mapped' | 'unmapped'): SQL {
  const sum = { farmers: sql`sum(farmers)`, mapped: sql`sum(farmers_mapped)`, unmapped: sql`sum(farmers - farmers_mapped)` }[which];
  return sql`(SELECT coalesce(${sum}, 0)::int FROM tenant_stats ${tenantId ? sql`WHERE tenant_id = ${tenantId}` : sql``})`;
}

/** One page of farmers (newest first) with their farm totals, and the count (db/pagination.ts), in one statement. */
export async function listFarmers(
  run: Reader | Executor,
  tenantId: string | null,
  f: FarmerFilter,
  limit: number,
  offset: number,
): Promise<{ rows: FarmerRow[]; total: Total }> {
  const where = farmerConditions(tenantId, f);
  return listPage<FarmerRow>(
    readerOf(run),
    {
      rows: sql`SELECT fr.id, fr.created_at FROM farmers fr ${where}`,
      details: sql`${farmerColumns} FROM page p JOIN farmers fr ON fr.id = p.id ${farmerJoins}`,
      // A search keeps few farmers: page and count in one pass over its matches; else (or when a search matches more
      // than that) the newest page by walking the created_at index (for is_mapped, its partial index).
      narrow: !!f.search,
      count: {
        from: sql`FROM farmers fr ${where}`,
        // Exact from tenant_stats: every farmer, the mapped ones, or the others.
        exact: f.search || f.region ? undefined : farmerTotal(tenantId, f.isMapped === undefined ? 'farmers' : f.isMapped ? 'mapped' : 'unmapped'),
        base: { from: sql`FROM farmers fr ${farmerConditions(tenantId, {})}`, total: farmerTotal(tenantId, 'farmers') },
      },
    },
    limit,
    offset,
  );
}

/** The overlap groups of a farmer's farms (to recompute once the farms are gone). */
export async function farmerFarmGroups(tx: Executor, tenantId: string, farmerId: string): Promise<Array<string | null>> {
  const rows = await queryRows<{ g: string | null }>(
    tx,
    sql`SELECT DISTINCT overlap_group_id AS g FROM farms WHERE tenant_id = ${tenantId} AND farmer_id = ${farmerId}`,
  );
  return rows.map((r) => r.g);
}

/** The farmer goes; its farms (with their history, snapshots and mapping records) go with it by the foreign keys' cascade. */
export async function deleteFarmer(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.execute(sql`DELETE FROM farmers WHERE tenant_id = ${tenantId} AND id = ${id}`);
}

export async function folioTaken(tx: Executor, tenantId: string, folioId: string, exceptId: string | null): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`SELECT id FROM farmers WHERE tenant_id = ${tenantId} AND folio_id = ${folioId} ${exceptId ? sql`AND id <> ${exceptId}` : sql``} LIMIT 1`,
  );
  return rows.length > 0;
}

export async function regionOfTenant(tx: Executor, tenantId: string, regionId: string): Promise<{ id: string; country_id: string } | null> {
  const rows = await queryRows<{ id: string; country_id: string }>(
    tx,
    sql`SELECT id, country_id FROM regions WHERE tenant_id = ${tenantId} AND id = ${regionId}`,
  );
  return rows[0] ?? null;
}

export async function countryExists(tx: Executor, _tenantId: string, countryId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(tx, sql`SELECT id FROM countries WHERE id = ${countryId}`);
  return rows.length > 0;
}

export type FarmerValues = {
  firstName: string;
  lastName: string;
  email: string | null;
  phoneNumber: string | null;
  gender: string | null;
  address: string | null;
  location: string | null;
  folioId: string;
  imageFileId: string | null;
  regionId: string | null;
  countryId: string | null;
  createdBy: string | null;
};

export async function insertFarmer(tx: Executor, tenantId: string, v: FarmerValues): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO farmers (tenant_id, first_name, last_name, email, phone_number, gender, address, location, folio_id, image_file_id, country_id, region_id, created_by)
        VALUES (${tenantId}, ${v.firstName}, ${v.lastName}, ${v.email}, ${v.phoneNumber}, ${v.gender}, ${v.address}, ${v.location}, ${v.folioId},
                ${v.imageFileId}, ${v.countryId}, ${v.regionId}, ${v.createdBy})
        RETURNING id`,
  );
  if (!row) throw new Error('farmer insert returned nothing');
  return row.id;
}

export type FarmerPatch = Partial<Omit<FarmerValues, 'createdBy'>>;

const columns: Record<keyof FarmerPatch, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phoneNumber: 'phone_number',
  gender: 'gender',
  address: 'address',
  location: 'location',
  folioId: 'folio_id',
  imageFileId: 'image_file_id',
  regionId: 'region_id',
  countryId: 'country_id',
};

export async function updateFarmer(tx: Executor, tenantId: string, id: string, patch: FarmerPatch): Promise<void> {
  const sets = (Object.keys(patch) as Array<keyof FarmerPatch>)
    .filter((k) => patch[k] !== undefined)
    .map((k) => sql`${sql.identifier(columns[k])} = ${patch[k]}`);
  sets.push(sql`updated_at = now()`);
  await tx.execute(sql`UPDATE farmers SET ${sql.join(sets, sql`, `)} WHERE tenant_id = ${tenantId} AND id = ${id}`);
}

/** Inserts many farmers in one statement (a bulk upload); returns their ids in the order given (folio ids are unique per tenant). */
export async function insertFarmers(tx: Executor, tenantId: string, values: readonly FarmerValues[]): Promise<string[]> {
  if (values.length === 0) return [];
  const rows = await queryRows<{ id: string; folio_id: string }>(
    tx,
    sql`INSERT INTO farmers (tenant_id, first_name, last_name, email, phone_number, gender, address, location, folio_id, image_file_id, country_id, region_id, created_by)
        SELECT ${tenantId}, x.first_name, x.last_name, x.email, x.phone_number, x.gender, x.address, x.location, x.folio_id, x.image_file_id, x.country_id, x.region_id, x.created_by
          FROM jsonb_to_recordset(${JSON.stringify(
            values.map((v, ord) => ({
              ord,
              first_name: v.firstName,
              last_name: v.lastName,
              email: v.email,
              phone_number: v.phoneNumber,
              gender: v.gender,
              address: v.address,
              location: v.location,
              folio_id: v.folioId,
              image_file_id: v.imageFileId,
              country_id: v.countryId,
              region_id: v.regionId,
              created_by: v.createdBy,
            })),
          )}::jsonb) AS x(ord int, first_name text, last_name text, email text, phone_number text, gender text, address text, location text,
                          folio_id text, image_file_id uuid, country_id uuid, region_id uuid, created_by uuid)
         ORDER BY x.ord
        RETURNING id, folio_id`,
  );
  const byFolio = new Map(rows.map((r) => [r.folio_id, r.id]));
  return values.map((v) => byFolio.get(v.folioId)!);
}

/** The folio ids among these that the tenant's farmers already use. */
export async function takenFolios(tx: Executor, tenantId: string, folios: readonly string[]): Promise<Set<string>> {
  if (folios.length === 0) return new Set();
  const rows = await queryRows<{ folio_id: string }>(
    tx,
    sql`SELECT folio_id FROM farmers WHERE tenant_id = ${tenantId} AND folio_id = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(folios)}::jsonb)))`,
  );
  return new Set(rows.map((r) => r.folio_id));
}

/** The farmers a user registered (created_by) in the tenant, newest first, at most `limit` (the field app's download). */
export async function farmersRegisteredBy(tx: Executor, tenantId: string, userId: string, limit: number): Promise<FarmerRow[]> {
  return queryRows<FarmerRow>(
    tx,
    sql`${farmerSelect} WHERE fr.tenant_id = ${tenantId} AND fr.created_by = ${userId} ORDER BY fr.created_at DESC, fr.id DESC LIMIT ${limit}`,
  );
}
