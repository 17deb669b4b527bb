// Operational areas: a tenant's named polygons (region, city) that farms are assigned to by containment.
import { z } from 'zod';
import { emptyToUndefined, pageQuery, text, uuid } from './common.js';
import { lngLatPair, polygonCoordinates } from './geometry.js';

export const operationalAreaBody = z.object({
  name: text({ error: 'Name is required' }).trim().min(1, 'Name is required').min(2, 'Name should have at least 2 letters').max(120),
  region_id: text({ error: 'Please select a region' }).trim().min(1, 'Please select a region').pipe(z.uuid('Please select a region')),
  city_id: text({ error: 'Please select a city' }).trim().min(1, 'Please select a city').pipe(z.uuid('Please select a city')),
  coordinates: polygonCoordinates('operational_area'),
});
export type OperationalAreaBody = z.infer<typeof operationalAreaBody>;

export const operationalAreaQuery = pageQuery.extend({
  /** A region id or a region name (case-insensitive). */
  region: z.preprocess(emptyToUndefined, text().trim().max(120).optional()),
  tenant_id: z.preprocess(emptyToUndefined, uuid.optional()),
});

export const operationalArea = z.object({
  id: uuid,
  name: z.string(),
  label: z.string(),
  address: z.string(),
  city: z.string(),
  city_id: uuid,
  country: z.string(),
  region: z.string(),
  region_id: uuid,
  coordinates: z.array(lngLatPair),
  farm_count: z.number().int(),
  area_sqm: z.number(),
  tenant_id: uuid,
  created_at: z.string(),
  updated_at: z.string(),
});
export type OperationalArea = z.infer<typeof operationalArea>;
