// POST /base/tenants/ (create: the tenant, its admin, who gets the onboarding mail, and its license) and
// PUT /base/tenants/{id}/ (edit, same payload).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import type { CreatedTenant, TenantBody, UpdatedTenant } from './tenant-types';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The created tenant carries its license key in full (license_key), shown this once; an edit answers the tenant, with
 * license_key only when a license type change issued a new license.
 */
export const saveTenant = ({ id, body }: { id: string | null; body: TenantBody }): Promise<Envelope<UpdatedTenant | CreatedTenant>> =>
  id
    ? api<Envelope<UpdatedTenant>>(`/base/tenants/${encodeURIComponent(id)}/`, { method: 'PUT', body })
    : api<Envelope<CreatedTenant>>('/base/tenants/', { method: 'POST', body });

export function useSaveTenant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveTenant,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: queryKeys.tenants.all }), client.invalidateQueries({ queryKey: queryKeys.licenses.all })]),
  });
}
