// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// Shown to a field agent who signs in: the console is for administrators; agents capture farms with the mobile app.
import { Link } from 'react-router';
import Alert from 'antd/es/alert';
import Typography from 'antd/es/typography';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { paths } from '../../lib/paths';

export const NOT_FOR_AGENTS = 'This console is not for field agents.';

export function NotForAgentsPage() {
  return (
    <AuthLayout>
      <Typography.Title level={1} style={{ fontSize: 28 }}>
        Field agent account
      </Typography.Title>
      <Alert
        type="info"
        showIcon
        title={NOT_FOR_AGENTS}
        description="Agents capture farm boundaries with the mobile app or their organisation's own app. Ask your administrator if you need console access."
      />
      <Link to={paths.login} style={{ display: 'inline-block', marginTop: 16 }}>
        Back to sign in
      </Link>
    </AuthLayout>
  );
}
