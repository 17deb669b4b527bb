// All SQL of farmers as the capture API writes them (create, edit) and reads them back with their farm totals.
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.js';

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

/** A farmer of the tenant (null tenant = provider scope) with farm count and total size. */
export async function findFarmer(tx: Executor, tenantId: string | null, id: string): Promise<FarmerRow | null> {
  const rows = await queryRows<FarmerRow>(
    tx,
    sql`SELECT fr.id, fr.tenant_id, fr.first_name, fr.last_name, fr.email, fr.phone_number, fr.gender, fr.address, fr.location, fr.folio_id,
               fr.image_file_id, fr.region_id, r.name AS region, fr.country_id, c.name AS country,
               (SELECT count(*)::int FROM farms f WHERE f.farmer_id = fr.id) AS number_of_farm,
               (SELECT coalesce(sum(f.area_sqm), 0)::float8 FROM farms f WHERE f.farmer_id = fr.id) AS total_farm_size,
               fr.created_at, fr.updated_at
          FROM farmers fr
          LEFT JOIN regions r ON r.id = fr.region_id
          LEFT JOIN countries c ON c.id = fr.country_id
         WHERE fr.id = ${id} ${tenantId ? sql`AND fr.tenant_id = ${tenantId}` : sql``}`,
  );
  return rows[0] ?? null;
}

export async function folioTaken(tx: Executor, tenantId: string, folioId: string, exceptId: string | null): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`SELECT id FROM farmers WHERE tenant_id = ${tenantId} AND folio_id = ${folioId} ${exceptId ? sql`AND id <> ${exceptId}` : sql``} LIMIT 1`,
  );
  return rows.length > 0;
}

export async function regionOfTenant(tx: Executor, tenantId: string, regionId: string): Promise<{ id: string; country_id: string } | null> {
  const rows = await queryRows<{ id: string; country_id: string }>(tx, sql`SELECT id, country_id FROM regions WHERE tenant_id = ${tenantId} AND id = ${regionId}`);
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
