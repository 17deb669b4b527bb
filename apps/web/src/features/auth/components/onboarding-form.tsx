// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// Onboarding (/onboarding#signed_key=…): an invited tenant admin confirms their name and sets a password, then signs in.
import { useNavigate } from 'react-router';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Typography from 'antd/es/typography';
import { notifySuccess } from '../../../lib/notifier';
import { useAcceptInvitation } from '../api/accept-invitation';
import { BackToSignIn } from './back-to-sign-in';
import { NewPasswordFields } from './new-password-fields';
import { paths } from '../../../lib/paths';

type Values = { first_name?: string; last_name?: string; password: string };

export function OnboardingForm({ signedKey }: { signedKey: string | null }) {
  const navigate = useNavigate();
  const accept = useAcceptInvitation(signedKey ?? '');
  const submit = (v: Values) => {
    const body = { password: v.password, ...(v.first_name?.trim() ? { first_name: v.first_name.trim() } : {}), ...(v.last_name?.trim() ? { last_name: v.last_name.trim() } : {}) };
    accept.mutate(body, {
      onSuccess: (res) => {
        notifySuccess(res.message);
        navigate(paths.login, { replace: true });
      },
    });
  };
  return (
    <>
      <Typography.Title level={1} style={{ fontSize: 28 }}>
        Set up your account
      </Typography.Title>
      <Typography.Paragraph type="secondary">You were invited to administer your organisation. Choose a password to finish.</Typography.Paragraph>
      {!signedKey ? (
        <Alert type="error" showIcon title="This invitation link is invalid or has expired." description="Ask your service provider to send a new invitation." />
      ) : (
        <Form<Values> layout="vertical" requiredMark="optional" onFinish={submit}>
          <div style={{ display: 'flex', gap: 12 }}>
            <Form.Item label="First name" name="first_name" className="grow">
              <Input autoComplete="given-name" size="large" />
            </Form.Item>
            <Form.Item label="Last name" name="last_name" className="grow">
              <Input autoComplete="family-name" size="large" />
            </Form.Item>
          </div>
          <NewPasswordFields label="Password" />
          <Button type="primary" htmlType="submit" size="large" block loading={accept.isPending}>
            Set password
          </Button>
        </Form>
      )}
      <BackToSignIn />
    </>
  );
}
