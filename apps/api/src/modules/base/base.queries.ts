// All SQL of lookups (countries, states, cities: global reference data) and regions (per tenant).
import { and, asc, eq, ilike, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { cities, countries, regions, states } from '../../db/schema.js';
import { prefixPattern } from '../../db/like.js';
import { countList } from '../../db/pagination.js';

export async function listCountries(tx: Executor) {
  return tx.select().from(countries).orderBy(asc(countries.name));
}

export async function findCountry(tx: Executor, id: string) {
  const rows = await tx.select().from(countries).where(eq(countries.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function listStates(tx: Executor, countryId: string) {
  return tx.select().from(states).where(eq(states.countryId, countryId)).orderBy(asc(states.name));
}

export async function listCities(tx: Executor, countryId: string, search: string | undefined, limit: number) {
  return tx
    .select({ id: cities.id, name: cities.name, stateId: cities.stateId, latitude: cities.latitude, longitude: cities.longitude })
    .from(cities)
    .where(and(eq(cities.countryId, countryId), search ? ilike(cities.name, prefixPattern(search)) : undefined))
    .orderBy(asc(cities.name))
    .limit(limit);
}

export async function listRegions(tx: Executor, tenantId: string | null, countryId: string | undefined, limit: number, offset: number) {
  const where = and(tenantId ? eq(regions.tenantId, tenantId) : undefined, countryId ? eq(regions.countryId, countryId) : undefined);
  const rows = await tx
    .select({ id: regions.id, name: regions.name, countryId: regions.countryId, country: countries.name })
    .from(regions)
    .innerJoin(countries, eq(countries.id, regions.countryId))
    .where(where)
    .orderBy(asc(regions.name))
    .limit(limit)
    .offset(offset);
  const total = await countList(tx, { from: sql`FROM regions ${where ? sql`WHERE ${where}` : sql``}` }, offset, rows.length, limit);
  return { rows, total };
}

export async function regionNameTaken(tx: Executor, tenantId: string, name: string): Promise<boolean> {
  const rows = await tx
    .select({ id: regions.id })
    .from(regions)
    .where(and(eq(regions.tenantId, tenantId), sql`lower(${regions.name}) = ${name.toLowerCase()}`))
    .limit(1);
  return rows.length > 0;
}

export async function insertRegion(tx: Executor, tenantId: string, v: { countryId: string; name: string }) {
  const [row] = await tx
    .insert(regions)
    .values({ tenantId, ...v })
    .returning();
  if (!row) throw new Error('region insert returned nothing');
  return row;
}
