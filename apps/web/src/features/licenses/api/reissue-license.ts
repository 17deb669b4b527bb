// POST /base/licenses/{id}/reissue/: Re-issue from the license list (SDK only; the expiry moves one year).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageEnvelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

export const LICENSE_REISSUED = 'License reissued successfully';

export const reissueLicense = (licenseId: string) => api<MessageEnvelope>(`/base/licenses/${encodeURIComponent(licenseId)}/reissue/`, { method: 'POST' });

export function useReissueLicense() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: reissueLicense,
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.tenants.all }), client.invalidateQueries({ queryKey: queryKeys.licenses.all })]),
  });
}
