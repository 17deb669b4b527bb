// The provider's tenants (client organisations): the list with the license merged in, details, the create/edit payload
// (organisation, admin, license), suspend/deactivate and the all-or-nothing bulk delete (docs/requirements.md §3, §4, §7 "Base").
import { z } from 'zod';
import { emptyToUndefined, isoDate, pageNumber, pageSize, text, uuid } from './common.js';
import { PHONE_RE } from './accounts.js';

const optional = <T extends z.ZodType>(s: T) => z.preprocess(emptyToUndefined, s.optional());

/** JSON booleans, and "true"/"false" as the console's forms and query strings send them. */
export const looseBoolean = (field: string) =>
  z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean({ error: `${field} must be true or false` }));

export const licenseType = z.enum(['Platform', 'SDK'], { error: 'License type must be Platform or SDK' });
export type LicenseType = z.infer<typeof licenseType>;

export const tenantStatus = z.enum(['Active', 'Inactive', 'Suspended']);
export type TenantStatus = z.infer<typeof tenantStatus>;

export const licenseStatus = z.enum(['Active', 'Expired', 'Revoked']);
export type LicenseStatus = z.infer<typeof licenseStatus>;

/**
 * A price as the spec's form sends it: thousands separators removed, so "1500000" or 1500000 (two decimals at most).
 * "1,500,000" is refused naming the field, never guessed at.
 */
export const price = z.preprocess(
  (v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v),
  text({ error: 'Price is required' })
    .trim()
    .min(1, 'Price is required')
    .refine((v) => !/[,\s']/.test(v), { message: 'Send the price without thousands separators, e.g. 1500000', abort: true })
    .refine((v) => /^\d{1,12}(\.\d{1,2})?$/.test(v), 'Price must be a number of at most 12 digits with up to 2 decimals, e.g. 220000 or 220000.50'),
);

const email = (label: string) =>
  text({ error: `${label} is required` })
    .trim()
    .toLowerCase()
    .min(1, `${label} is required`)
    .max(200)
    .pipe(z.email('Enter a valid email address'));
const phone = (label: string) =>
  text({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .regex(PHONE_RE, 'Enter a valid phone number');

export const tenantAdminInput = z.object({
  email: email('Admin email'),
  first_name: text({ error: 'First name is required' }).trim().min(1, 'First name is required').max(100),
  last_name: text({ error: 'Last name is required' }).trim().min(1, 'Last name is required').max(100),
  phone_number: phone('Admin phone number'),
});

export const tenantLicenseInput = z
  .object({
    type: licenseType,
    issued_date: isoDate,
    expiry_date: isoDate,
    price,
  })
  .refine((l) => l.expiry_date > l.issued_date, { message: 'The expiry date must be after the issued date', path: ['expiry_date'] });

/** POST /base/tenants/ and PUT /base/tenants/{id}/: the spec's payload (organisation fields, admin{…}, license{…}). */
export const tenantBody = z
  .object({
    name: text({ error: 'Organisation name is required' }).trim().min(2, 'Organisation name should have at least 2 letters').max(200),
    address: optional(text().trim().max(300)),
    state_id: optional(uuid),
    phone_number: phone('Phone number'),
    /** The organisation's email: unique among tenants. */
    email: email('Email'),
    /** A city of the country: its id (the searchable select) or its name. */
    city: optional(text().trim().max(120)),
    country_id: uuid,
    /** The "Sync farm details" choice: SDK licenses only (true with a Platform license is refused). */
    enable_farm_sync: optional(looseBoolean('enable_farm_sync')),
    admin: tenantAdminInput,
    license: tenantLicenseInput,
  })
  .refine((b) => !(b.enable_farm_sync && b.license.type !== 'SDK'), { message: 'Farm sync is available with an SDK license only', path: ['enable_farm_sync'] });
export type TenantBody = z.infer<typeof tenantBody>;

export const tenantsQuery = z.object({
  page: pageNumber,
  page_size: pageSize,
  /** Organisation name, email or phone, or the admin's name or email. */
  search: optional(text().trim().max(200)),
  is_active: optional(looseBoolean('is_active')),
  is_suspended: optional(looseBoolean('is_suspended')),
  license_type: optional(licenseType),
  /** The displayed status (Active, Inactive, Suspended): a shortcut over is_active and is_suspended. */
  status: optional(tenantStatus),
});
export type TenantsQuery = z.infer<typeof tenantsQuery>;

export const suspendDeactivateBody = z
  .object({
    is_active: optional(looseBoolean('is_active')),
    is_suspended: optional(looseBoolean('is_suspended')),
  })
  .strict()
  .refine((b) => b.is_active !== undefined || b.is_suspended !== undefined, { message: 'Send is_active or is_suspended', path: ['is_active'] });
export type SuspendDeactivateBody = z.infer<typeof suspendDeactivateBody>;

export const deleteTenantsBody = z.object({
  uuids: z.array(uuid).min(1, 'Choose at least one tenant').max(100, 'Delete at most 100 tenants at once'),
});
export type DeleteTenantsBody = z.infer<typeof deleteTenantsBody>;

export const tenantAdmin = z.object({
  id: uuid,
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone_number: z.string().nullable(),
});
export type TenantAdmin = z.infer<typeof tenantAdmin>;

/** A license as provider staff see it. The key itself is stored hashed: key is its first 10 characters (key_hint). */
export const license = z.object({
  id: uuid,
  tenant: uuid,
  tenant_name: z.string(),
  type: licenseType,
  issued_date: z.string(),
  expiry_date: z.string(),
  /** Decimal text, e.g. "220000.00". */
  price: z.string(),
  currency: z.string(),
  /** The key hint: the first 10 characters of the activation key (the full key is shown once, when it is issued or rotated). */
  key: z.string(),
  is_expired: z.boolean(),
  is_revoked: z.boolean(),
  status: licenseStatus,
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});
export type License = z.infer<typeof license>;

export const tenantLicense = license.omit({ tenant: true, tenant_name: true });

/** Tenant details (GET /base/tenants/{id}). */
export const tenant = z.object({
  id: uuid,
  uuid,
  name: z.string(),
  address: z.string().nullable(),
  phone_number: z.string().nullable(),
  email: z.string().nullable(),
  city: z.string().nullable(),
  city_id: uuid.nullable(),
  /** The country's name (country_id when sent). */
  country: z.string().nullable(),
  country_id: uuid.nullable(),
  state: z.string().nullable(),
  state_id: uuid.nullable(),
  enable_farm_sync: z.boolean(),
  is_active: z.boolean(),
  is_suspended: z.boolean(),
  status: tenantStatus,
  admin: tenantAdmin.nullable(),
  license: tenantLicense.nullable(),
  number_of_agents: z.number().int(),
  registration_date: z.string(),
});
export type Tenant = z.infer<typeof tenant>;

/** A row of GET /base/tenants/: the tenant with its current license merged in. */
export const tenantListItem = tenant.extend({
  type: licenseType.nullable(),
  issued_date: z.string().nullable(),
  expiry_date: z.string().nullable(),
  price: z.string().nullable(),
  license_status: licenseStatus.nullable(),
});
export type TenantListItem = z.infer<typeof tenantListItem>;

/** The answer to POST /base/tenants/: the tenant, and its license key in full, shown this once. */
export const createdTenant = tenant.extend({ license_key: z.string() });
export type CreatedTenant = z.infer<typeof createdTenant>;

/** PUT /base/tenants/{id}/: the tenant; license_key only when a license type change issued a new license (shown this once). */
export const updatedTenant = tenant.extend({ license_key: z.string().optional() });
export type UpdatedTenant = z.infer<typeof updatedTenant>;

export const deletedTenants = z.object({ deleted: z.number().int(), uuids: z.array(uuid) });
export type DeletedTenants = z.infer<typeof deletedTenants>;
