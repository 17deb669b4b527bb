// The tenant as the console reads it (spec §3). PROVISIONAL: written from the spec while the provider API's contracts
// are being built; replaced by the contract's inferred types when they land.
export type LicenseType = 'Platform' | 'SDK';
export type TenantStatus = 'Active' | 'Inactive' | 'Suspended';

export type TenantLicense = {
  id: string;
  type: LicenseType;
  issued_date: string;
  expiry_date: string;
  price: number | string | null;
  key: string;
  is_expired: boolean;
  is_revoked: boolean;
};

export type TenantAdmin = { email: string; first_name: string; last_name: string; phone_number: string | null };

export type Tenant = {
  id: string;
  uuid: string;
  name: string;
  address: string | null;
  phone_number: string | null;
  email: string;
  city: string | null;
  city_id?: string | null;
  country: string | null;
  country_id?: string | null;
  state_id: string | null;
  enable_farm_sync: boolean;
  is_active: boolean;
  is_suspended: boolean;
  admin: TenantAdmin | null;
  license: TenantLicense | null;
  type: LicenseType | null;
  number_of_agents: number;
  issued_date: string | null;
  expiry_date: string | null;
  registration_date: string;
  status: TenantStatus;
};

export type TenantBody = {
  name: string;
  address: string;
  state_id?: string | undefined;
  phone_number: string;
  email: string;
  city: string;
  country_id: string;
  enable_farm_sync: boolean;
  admin: TenantAdmin;
  license: { type: LicenseType; issued_date: string; expiry_date: string; price: string };
};
