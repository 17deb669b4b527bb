// Farmers as captured in the field or created by a tenant admin (multipart with an optional image, or JSON).
import { z } from 'zod';
import { emptyToUndefined, pageNumber, pageSize, text, uuid } from './common.js';
import { phoneNumber } from './accounts.js';

const optional = <T extends z.ZodType>(s: T) => z.preprocess(emptyToUndefined, s.optional());

export const createFarmerBody = z.object({
  first_name: text({ error: 'First name is required' }).trim().min(1, 'First name is required').max(100),
  last_name: text({ error: 'Last name is required' }).trim().min(1, 'Last name is required').max(100),
  email: optional(z.email('Enter a valid email address').max(200)),
  phone_number: optional(phoneNumber),
  gender: optional(z.enum(['Male', 'Female'], 'Gender must be Male or Female')),
  address: optional(text().trim().max(300)),
  location: optional(text().trim().max(300)),
  /** The farmer's id in the tenant's own records; generated when absent. */
  folio_id: optional(
    text()
      .trim()
      .min(1)
      .max(60)
      .regex(/^[A-Za-z0-9._/-]+$/, 'Use letters, digits and . _ / - only'),
  ),
  region_id: optional(uuid),
  country_id: optional(uuid),
});
export type CreateFarmerBody = z.infer<typeof createFarmerBody>;

export const updateFarmerBody = createFarmerBody.partial();
export type UpdateFarmerBody = z.infer<typeof updateFarmerBody>;

export const farmer = z.object({
  id: uuid,
  first_name: z.string(),
  last_name: z.string(),
  farmer_name: z.string(),
  email: z.string().nullable(),
  phone_number: z.string().nullable(),
  gender: z.string().nullable(),
  address: z.string().nullable(),
  location: z.string().nullable(),
  folio_id: z.string(),
  image: z.string().nullable(),
  region_id: uuid.nullable(),
  region: z.string().nullable(),
  country_id: uuid.nullable(),
  country: z.string().nullable(),
  number_of_farm: z.number().int(),
  total_farm_size: z.number(),
  is_mapped: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Farmer = z.infer<typeof farmer>;

export const farmersQuery = z.object({
  page: pageNumber,
  page_size: pageSize,
  /** Name, folio id, phone or email. */
  search: z.preprocess(emptyToUndefined, text().trim().max(200).optional()),
  /** Mapped: has at least one farm. Sent as true/false (or 1/0). */
  is_mapped: z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false', '1', '0', 'True', 'False'], 'is_mapped must be true or false')
      .transform((v) => v === 'true' || v === '1' || v === 'True')
      .optional(),
  ),
  /** A region id or name (the farmer's region), or a country name (the filter modal's "country"). */
  region: z.preprocess(emptyToUndefined, text().trim().max(120).optional()),
});
export type FarmersQuery = z.infer<typeof farmersQuery>;
