// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The back-to-sign-in link that every other authentication screen offers (docs/requirements.md §2).
import { Link } from 'react-router';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { paths } from '../../../lib/paths';

export function BackToSignIn() {
  return (
    <Link to={paths.login} style={{ display: 'inline-flex', alignItems: 'center', gap: 6, marginTop: 16 }}>
      <ArrowLeftOutlined aria-hidden="true" /> Back to sign in
    </Link>
  );
}
