// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The not-found page: standalone for unknown top-level routes, and inside a frame for unknown routes of an area.
import { useNavigate } from 'react-router';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { landingPath, primaryRole, useSession } from '../../lib/session-store';
import { paths } from '../../lib/paths';

function NotFound() {
  const session = useSession();
  const navigate = useNavigate();
  const home = session.status === 'authenticated' ? landingPath(primaryRole(session.user)) : paths.home;
  return (
    <Result
      status="404"
      title={<h1 className="page-title">Page not found</h1>}
      subTitle="The page you are looking for does not exist or has moved."
      extra={
        <Button type="primary" onClick={() => navigate(home)}>
          {session.status === 'authenticated' ? 'Back to dashboard' : 'Back to sign in'}
        </Button>
      }
    />
  );
}

export function NotFoundPage() {
  return (
    <main style={{ minHeight: '100%', display: 'grid', placeItems: 'center', background: '#fff' }}>
      <NotFound />
    </main>
  );
}

export function InFrameNotFound() {
  return <NotFound />;
}
