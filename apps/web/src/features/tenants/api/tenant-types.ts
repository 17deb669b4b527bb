// The tenant types the screens use, from the provider contract (@farmland/contracts tenants.ts): a list row has the
// license merged in; a request body is the schema's input.
import type { tenantBody } from '@farmland/contracts';
import type { In } from '../../../lib/contract-types';

export type { CreatedTenant, LicenseType, Tenant, TenantListItem, TenantStatus, UpdatedTenant } from '@farmland/contracts';
export type TenantBody = In<typeof tenantBody>;
