// PUT /base/licenses/{id}/revoke/ and POST /base/licenses/{id}/reissue/: Revoke and Re-issue, from the license list and
// the tenants list (shared by two features, so they live in lib/ beside rotate-license-key.ts). Revoking stops the
// tenant from acting; re-issuing (SDK licenses only) moves the expiry one year.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import type { MessageEnvelope } from './contract-types';
import { queryKeys } from './query-keys';
import { libText } from './lib.messages';

/** The toasts' texts (notifySuccess shows them in the page's language). */
export const LICENSE_REVOKED = libText.licenseRevoked;
export const LICENSE_REISSUED = libText.licenseReissued;

export const revokeLicense = (licenseId: string) => api<MessageEnvelope>(`/base/licenses/${encodeURIComponent(licenseId)}/revoke/`, { method: 'PUT' });
export const reissueLicense = (licenseId: string) => api<MessageEnvelope>(`/base/licenses/${encodeURIComponent(licenseId)}/reissue/`, { method: 'POST' });

function useLicenseMutation(mutationFn: (licenseId: string) => Promise<MessageEnvelope>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: queryKeys.tenants.all }), client.invalidateQueries({ queryKey: queryKeys.licenses.all })]),
  });
}

export const useRevokeLicense = () => useLicenseMutation(revokeLicense);
export const useReissueLicense = () => useLicenseMutation(reissueLicense);
