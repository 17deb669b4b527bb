// Column helpers shared by the schema's parts.
import { sql } from 'drizzle-orm';
import { customType, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Geometry is read and written through PostGIS functions in SQL (ST_GeomFromGeoJSON / ST_AsGeoJSON), never parsed in JS. */
export const geometry = (name: string, kind: 'Polygon' | 'Point' | 'MultiPolygon' | 'Geometry') =>
  customType<{ data: string; driverData: string }>({
    dataType: () => `geometry(${kind}, 4326)`,
  })(name);

export const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
