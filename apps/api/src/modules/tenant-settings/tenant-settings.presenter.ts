// Configuration, tenant and license rows → API shapes (explicit whitelists).
import type { TenantConfiguration } from '@farmland/contracts';
import type { ConfigRow, LicenseRow, TenantRow } from './tenant-settings.queries.js';

export function presentConfiguration(r: ConfigRow): TenantConfiguration {
  return {
    tenant_id: r.tenant_id,
    minimum_farm_size: Number(r.minimum_farm_size),
    recognition_threshold: Number(r.recognition_threshold),
    overlap_min_area_sqm: Number(r.overlap_min_area_sqm),
    overlap_min_share: Number(r.overlap_min_share),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

export function presentSettings(t: TenantRow, l: LicenseRow | null, c: ConfigRow) {
  return {
    tenant: { id: t.id, uuid: t.id, name: t.name, country: t.country, country_id: t.country_id, is_active: t.is_active, is_suspended: t.is_suspended },
    license: l
      ? {
          id: l.id,
          type: l.type,
          key: l.key,
          issued_date: l.issued_date,
          expiry_date: l.expiry_date,
          is_expired: l.is_expired,
          is_revoked: l.is_revoked,
          status: l.is_revoked ? ('Revoked' as const) : l.is_expired ? ('Expired' as const) : ('Active' as const),
        }
      : null,
    configuration: presentConfiguration(c),
  };
}
