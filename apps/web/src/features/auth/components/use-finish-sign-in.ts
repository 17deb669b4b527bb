// What happens once the API answers a session: keep it, greet, and land by role (agents are turned away: the
// console is not for them, docs/requirements.md §6).
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { SessionResult } from '@farmland/contracts';
import { notifySuccess } from '../../../lib/notifier';
import { beginSession, logout } from '../../../lib/session';
import { landingPath, primaryRole } from '../../../lib/session-store';
import { paths } from '../../../lib/paths';
import { authText as m } from '../auth.messages';

/** The English text (tests compare with it); the toast shows it in the page's language. */
export const LOGIN_SUCCESS = m.loginSuccess.defaultMessage;

export function useFinishSignIn() {
  const navigate = useNavigate();
  return useCallback(
    async (result: SessionResult, to?: string) => {
      beginSession(result);
      const role = primaryRole(result.user);
      if (role === 'agent' || role === null) {
        await logout();
        void navigate(paths.notForAgents, { replace: true });
        return;
      }
      notifySuccess(m.loginSuccess);
      void navigate(to ?? landingPath(role), { replace: true });
    },
    [navigate],
  );
}
