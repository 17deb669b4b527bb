// The back-to-sign-in link that every other authentication screen offers (docs/requirements.md §2).
import { Link } from 'react-router';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { paths } from '../../../lib/paths';
import { t } from '../../../i18n';
import { authText as m } from '../auth.messages';

export function BackToSignIn() {
  return (
    <Link to={paths.login} className="inline-flex gap-6 mt-16">
      <ArrowLeftOutlined aria-hidden="true" /> {t(m.backToSignIn)}
    </Link>
  );
}
