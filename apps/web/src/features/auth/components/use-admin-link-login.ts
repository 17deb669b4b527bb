// Runs the automatic admin login of /#q=<request_id> once: success lands on /super-admin/dashboard; a refused link
// goes to /?ec=105 or /?ec=106, whose message then shows.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notifier';
import { adminLogin } from '../api/admin-login';
import { SERVICE_PROVIDER_MESSAGES } from './service-provider-messages';
import { useFinishSignIn } from './use-finish-sign-in';
import { paths } from '../../../lib/paths';

/** A link is single-use: remember the ids already tried, so a re-render (or StrictMode) never sends one twice. */
const tried = new Set<string>();

export function useAdminLinkLogin(requestId: string | null): { running: boolean } {
  const navigate = useNavigate();
  const finish = useFinishSignIn();
  // The link that has finished (signed in or refused); the hook runs until the current link has.
  const [finished, setFinished] = useState<string | null>(null);
  const running = Boolean(requestId) && finished !== requestId;
  useEffect(() => {
    if (!requestId || tried.has(requestId)) return;
    tried.add(requestId);
    adminLogin(requestId)
      .then((res) => finish(res.data, paths.provider.dashboard))
      .catch((err: unknown) => {
        const code = err instanceof ApiError ? err.code : undefined;
        if (code && code in SERVICE_PROVIDER_MESSAGES) void navigate(`${paths.home}?ec=${code}`, { replace: true });
        else {
          notifyError(err);
          void navigate(paths.home, { replace: true });
        }
      })
      .finally(() => setFinished(requestId));
  }, [requestId, finish, navigate]);
  return { running };
}
