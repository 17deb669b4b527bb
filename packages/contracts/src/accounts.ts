// The user profile (accounts/users).
import { z } from 'zod';
import { roleName, text, uuid } from './common.js';

export const userProfile = z.object({
  id: uuid,
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone_number: z.string().nullable(),
  gender: z.string().nullable(),
  image: z.string().nullable(),
  role: roleName,
  roles: z.array(roleName),
  tenant: z.object({ id: uuid, uuid: uuid, name: z.string() }).nullable(),
  is_active: z.boolean(),
  mfa_enabled: z.boolean(),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
});
export type UserProfile = z.infer<typeof userProfile>;

export const PHONE_RE = /^\+?[0-9 ()-]{7,20}$/;
export const phoneNumber = text().trim().regex(PHONE_RE, 'Enter a valid phone number');

export const updateUserBody = z
  .object({
    first_name: text().trim().min(1, 'First name is required').max(100),
    last_name: text().trim().min(1, 'Last name is required').max(100),
    phone_number: phoneNumber.nullable(),
    gender: z.enum(['Male', 'Female']).nullable(),
  })
  .partial()
  .strict();
