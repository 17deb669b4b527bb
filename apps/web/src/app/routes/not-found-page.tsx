// The not-found page: standalone for unknown top-level routes, and inside a frame for unknown routes of an area.
import { useNavigate } from 'react-router';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { landingPath, primaryRole, useSession } from '../../lib/session-store';
import { paths } from '../../lib/paths';
import { t } from '../../i18n';
import { appText as m } from '../app.messages';

function NotFound() {
  const session = useSession();
  const navigate = useNavigate();
  const home = session.status === 'authenticated' ? landingPath(primaryRole(session.user)) : paths.home;
  return (
    <Result
      status="404"
      title={<h1 className="page-title">{t(m.pageNotFound)}</h1>}
      subTitle={t(m.pageNotFoundBody)}
      extra={
        <Button type="primary" onClick={() => void navigate(home)}>
          {session.status === 'authenticated' ? t(m.backToDashboard) : t(m.backToSignIn)}
        </Button>
      }
    />
  );
}

export function NotFoundPage() {
  return (
    <main className="blank-page">
      <NotFound />
    </main>
  );
}

export function InFrameNotFound() {
  return <NotFound />;
}
