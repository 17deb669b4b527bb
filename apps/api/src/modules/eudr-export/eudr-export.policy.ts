// The EUDR geolocation export: administrators only. Provider staff export every tenant's farms or one tenant's
// (tenant_id); a tenant admin its own (naming another tenant is a 404).
import { definePolicy } from '../../lib/policy.js';

export const eudrExportPolicy = definePolicy('eudr-export', {
  export: { who: ['super_admin', 'tenant_admin'], denied: 'Only administrators can export farms.', hidden: 'Tenant' },
});
