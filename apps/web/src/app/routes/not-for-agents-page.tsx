// Shown to a field agent who signs in: the console is for administrators; agents capture farms with the mobile app.
import { Link } from 'react-router';
import Alert from 'antd/es/alert';
import Typography from 'antd/es/typography';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { paths } from '../../lib/paths';
import { t } from '../../i18n';
import { appText as m } from '../app.messages';

/** The English text (tests compare with it); the page shows it in the page's language. */
export const NOT_FOR_AGENTS = m.notForAgents.defaultMessage;

export function NotForAgentsPage() {
  return (
    <AuthLayout>
      <Typography.Title level={1} className="auth-title">
        {t(m.fieldAgentAccount)}
      </Typography.Title>
      <Alert type="info" showIcon title={t(m.notForAgents)} description={t(m.notForAgentsBody)} />
      <Link to={paths.login} className="inline-block mt-16">
        {t(m.backToSignIn)}
      </Link>
    </AuthLayout>
  );
}
