// /reset-password#token=…: choose a new password from the mailed link (the token in the fragment, so no server logs it;
// an older ?token=… link is still read, and rewritten).
import { useLinkSecret } from '../../features/auth/components/use-link-secret';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';

export function ResetPasswordPage() {
  const token = useLinkSecret('token');
  return (
    <AuthLayout>
      <ResetPasswordForm token={token} />
    </AuthLayout>
  );
}
