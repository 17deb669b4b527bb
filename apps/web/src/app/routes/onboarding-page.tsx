// /onboarding#signed_key=…: an invited tenant admin sets a password (the key in the fragment, so no server logs it; an
// older ?signed_key=… link is still read, and rewritten).
import { useLinkSecret } from '../../features/auth/components/use-link-secret';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { OnboardingForm } from '../../features/auth/components/onboarding-form';

export function OnboardingPage() {
  const signedKey = useLinkSecret('signed_key');
  return (
    <AuthLayout>
      <OnboardingForm signedKey={signedKey} />
    </AuthLayout>
  );
}
