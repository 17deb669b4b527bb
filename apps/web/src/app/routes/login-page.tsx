// The sign-in page, at / and /login. It reads q from the fragment (#q=: an admin-link request id; sign in automatically;
// the older ?q= form is still read, and rewritten) and ec (105 or 106: show the message, then return to /). A restored
// session goes straight to its landing page.
import { useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { PageLoader } from '../../components/ui/page-loader';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { serviceProviderMessage } from '../../features/auth/components/service-provider-messages';
import { useAdminLinkLogin } from '../../features/auth/components/use-admin-link-login';
import { useLinkSecret } from '../../features/auth/components/use-link-secret';
import { toast } from '../../lib/notifier';
import { landingPath, primaryRole, useSession } from '../../lib/session-store';
import { paths } from '../../lib/paths';
import { t } from '../../i18n';
import { appText as m } from '../app.messages';

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const q = useLinkSecret('q');
  const ec = params.get('ec');
  const { running } = useAdminLinkLogin(q);

  useEffect(() => {
    if (!ec) return;
    const text = serviceProviderMessage(ec);
    if (text) toast('error', text, `ec-${ec}`);
    void navigate(paths.home, { replace: true });
  }, [ec, navigate]);

  if (q || running) return <PageLoader label={t(m.signingIn)} />;
  if (!ec && session.status === 'authenticated') return <Navigate to={landingPath(primaryRole(session.user))} replace />;
  return (
    <AuthLayout>
      <SignInForm />
    </AuthLayout>
  );
}
