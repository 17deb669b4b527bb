// Lookups: countries, states, cities and regions.
import { z } from 'zod';
import { text, uuid } from './common.js';

export const countryRef = z.object({
  id: uuid,
  country_name: z.string(),
  country_code: z.string(),
  currency_code: z.string(),
  currency_name: z.string(),
  currency_symbol: z.string(),
  country_flag: z.string(),
  flag_emoji: z.string(),
});
export const stateRef = z.object({
  id: uuid,
  name: z.string(),
  code: z.string(),
  country_id: uuid,
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export const cityRef = z.object({ id: uuid, name: z.string(), state_id: uuid.nullable(), latitude: z.number(), longitude: z.number() });
export const region = z.object({ id: uuid, name: z.string(), country_id: uuid, country: z.string() });
export const createRegionBody = z.object({ country_id: uuid, name: text().trim().min(2, 'Name should have at least 2 letters').max(100) });
export const regionsQuery = z.object({ country_id: z.preprocess((v) => (v === '' ? undefined : v), uuid.optional()) });
