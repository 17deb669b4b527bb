// POST /base/licenses/{id}/rotate-key/: Rotate key, from the license list and the Manage License drawer (shared by two
// features, so it lives in lib/). The answer carries the new key (license_key),
// shown once; the old license is revoked and stays in the list.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RotatedLicense } from '@farmland/contracts';
import { api } from './api-client';
import type { Envelope } from './contract-types';
import { queryKeys } from './query-keys';
import { libText } from './lib.messages';

/** The toast's text (notifySuccess shows it in the page's language). */
export const LICENSE_KEY_ROTATED = libText.licenseKeyRotated;

export const rotateLicenseKey = (licenseId: string) =>
  api<Envelope<RotatedLicense>>(`/base/licenses/${encodeURIComponent(licenseId)}/rotate-key/`, { method: 'POST' });

export function useRotateLicenseKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: rotateLicenseKey,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: queryKeys.tenants.all }), client.invalidateQueries({ queryKey: queryKeys.licenses.all })]),
  });
}
