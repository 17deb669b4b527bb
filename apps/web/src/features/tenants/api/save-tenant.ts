// POST /base/tenants/ (create: the tenant, its admin, who gets the onboarding mail, and its license) and
// PUT /base/tenants/{id}/ (edit, same payload).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import type { Tenant, TenantBody } from './tenant-types';

export const TENANT_CREATED = 'Tenant created successfully';
export const TENANT_EDITED = 'Tenant edited successfully';

export const saveTenant = ({ id, body }: { id: string | null; body: TenantBody }) =>
  id ? api<Envelope<Tenant>>(`/base/tenants/${encodeURIComponent(id)}/`, { method: 'PUT', body }) : api<Envelope<Tenant>>('/base/tenants/', { method: 'POST', body });

export function useSaveTenant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveTenant,
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: ['tenants'] }), client.invalidateQueries({ queryKey: ['licenses'] })]),
  });
}
