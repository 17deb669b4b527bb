// PATCH /accounts/users/{id}/: edits the profile; the session's name follows.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { updateUserBody, UserProfile } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope, In } from '../../../lib/contract-types';
import { notifySuccess } from '../../../lib/notifier';
import { updateSessionUser } from '../../../lib/session-store';
import { profileKey } from './get-profile';
import { profileText } from '../profile.messages';

export type ProfilePatch = In<typeof updateUserBody>;

export const updateProfile = (id: string, body: ProfilePatch) => api<Envelope<UserProfile>>(`/accounts/users/${id}/`, { method: 'PATCH', body });

export function useUpdateProfile(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfilePatch) => updateProfile(id, body),
    onSuccess: (res) => {
      qc.setQueryData(profileKey(id), res);
      updateSessionUser({ first_name: res.data.first_name, last_name: res.data.last_name });
      notifySuccess(profileText.profileUpdated);
    },
  });
}
