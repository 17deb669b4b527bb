// PUT /base/licenses/{id}/revoke/: Revoke from the license list (the tenant stops acting).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const LICENSE_REVOKED = 'License revoked successfully';

export const revokeLicense = (licenseId: string) => api<MessageEnvelope>(`/base/licenses/${encodeURIComponent(licenseId)}/revoke/`, { method: 'PUT' });

export function useRevokeLicense() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeLicense,
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.tenants.all }), client.invalidateQueries({ queryKey: queryKeys.licenses.all })]),
  });
}
