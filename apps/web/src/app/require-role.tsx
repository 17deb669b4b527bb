// Guards an area by role: no session goes to /, another role goes to its own landing page.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { RoleName } from '@farmland/contracts';
import { PageLoader } from '../components/ui/page-loader';
import { landingPath, primaryRole, useSession } from '../lib/session-store';
import { paths } from '../lib/paths';
import { t } from '../i18n';
import { appText as m } from './app.messages';

export function RequireRole({ role, children }: { role: RoleName; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'restoring') return <PageLoader label={t(m.restoringSession)} />;
  if (session.status === 'anonymous') return <Navigate to={paths.home} replace state={{ from: location.pathname }} />;
  const mine = primaryRole(session.user);
  if (mine !== role) return <Navigate to={landingPath(mine)} replace />;
  return <>{children}</>;
}
