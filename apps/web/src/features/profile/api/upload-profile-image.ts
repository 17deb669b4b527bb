// PUT /accounts/users/upload-image/: the profile image as multipart field "image".
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserProfile } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { notifySuccess } from '../../../lib/notifier';
import { updateSessionUser } from '../../../lib/session-store';
import { profileKey } from './get-profile';
import { profileText } from '../profile.messages';

export function uploadProfileImage(file: File) {
  const form = new FormData();
  form.append('image', file, file.name);
  return api<Envelope<UserProfile>>('/accounts/users/upload-image/', { method: 'PUT', form });
}

export function useUploadProfileImage() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: uploadProfileImage,
    onSuccess: (res) => {
      qc.setQueryData(profileKey(res.data.id), res);
      updateSessionUser({ image: res.data.image });
      notifySuccess(profileText.imageUpdated);
    },
  });
}
