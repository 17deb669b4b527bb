// The Create/Edit Tenant form's values and how they become the request (docs/requirements.md §4, §5): the price is sent with its
// thousands separators removed, dates as YYYY-MM-DD, ids as strings, the issued date is today's on submit, and the
// Sync farm details choice (enable_farm_sync) counts only for an SDK license.
import dayjs, { type Dayjs } from 'dayjs';
import type { LicenseType, Tenant, TenantBody } from '../api/tenant-types';

export type TenantFormValues = {
  name: string;
  email: string;
  phone_number: string;
  address: string;
  country_id?: string;
  state_id?: string;
  city?: string;
  admin_first_name: string;
  admin_last_name: string;
  admin_email: string;
  admin_phone_number: string;
  license_type?: LicenseType;
  expiry_date?: Dayjs | null;
  price: string;
  enable_farm_sync?: 'yes' | 'no';
};

export const ISO_DAY = 'YYYY-MM-DD';

/** "1,250,000.50" → "1250000.50"; spaces go too. */
export const stripSeparators = (price: string): string => price.replace(/[,\s]/g, '');

/** A price as typed, checked: digits with optional thousands separators and up to 2 decimals. */
export const PRICE_RE = /^\d{1,3}(,?\d{3})*(\.\d{1,2})?$/;

export function toTenantBody(v: TenantFormValues, today: Dayjs = dayjs()): TenantBody {
  const type = v.license_type ?? 'Platform';
  return {
    name: v.name.trim(),
    email: v.email.trim(),
    phone_number: v.phone_number.trim(),
    ...(v.address.trim() ? { address: v.address.trim() } : {}),
    country_id: String(v.country_id ?? ''),
    ...(v.state_id ? { state_id: String(v.state_id) } : {}),
    ...(v.city ? { city: String(v.city) } : {}),
    enable_farm_sync: type === 'SDK' && v.enable_farm_sync === 'yes',
    admin: {
      first_name: v.admin_first_name.trim(),
      last_name: v.admin_last_name.trim(),
      email: v.admin_email.trim(),
      phone_number: v.admin_phone_number.trim(),
    },
    license: { type, issued_date: today.format(ISO_DAY), expiry_date: v.expiry_date ? v.expiry_date.format(ISO_DAY) : '', price: stripSeparators(v.price) },
  };
}

/** The form's values for editing an existing tenant. */
export function fromTenant(t: Tenant): Partial<TenantFormValues> {
  const price = t.license?.price;
  return {
    name: t.name,
    email: t.email ?? '',
    phone_number: t.phone_number ?? '',
    address: t.address ?? '',
    ...(t.country_id ? { country_id: t.country_id } : {}),
    ...(t.state_id ? { state_id: t.state_id } : {}),
    ...((t.city_id ?? t.city) ? { city: (t.city_id ?? t.city)! } : {}),
    admin_first_name: t.admin?.first_name ?? '',
    admin_last_name: t.admin?.last_name ?? '',
    admin_email: t.admin?.email ?? '',
    admin_phone_number: t.admin?.phone_number ?? '',
    ...(t.license ? { license_type: t.license.type, expiry_date: dayjs(t.license.expiry_date) } : {}),
    price: price === null || price === undefined ? '' : String(price),
    enable_farm_sync: t.enable_farm_sync ? 'yes' : 'no',
  };
}
