// /reset-password?token=…: choose a new password from the mailed link.
import { useSearchParams } from 'react-router';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  return (
    <AuthLayout>
      <ResetPasswordForm token={params.get('token')} />
    </AuthLayout>
  );
}
