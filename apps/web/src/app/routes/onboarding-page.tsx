// /onboarding?signed_key=…: an invited tenant admin sets a password.
import { useSearchParams } from 'react-router';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { OnboardingForm } from '../../features/auth/components/onboarding-form';

export function OnboardingPage() {
  const [params] = useSearchParams();
  return (
    <AuthLayout>
      <OnboardingForm signedKey={params.get('signed_key')} />
    </AuthLayout>
  );
}
