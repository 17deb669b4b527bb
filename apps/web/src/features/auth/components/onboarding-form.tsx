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
import { t } from '../../../i18n';
import { authText as m } from '../auth.messages';
import { Inline } from '../../../components/ui/layout';

type Values = { first_name?: string; last_name?: string; password: string };

export function OnboardingForm({ signedKey }: { signedKey: string | null }) {
  const navigate = useNavigate();
  const accept = useAcceptInvitation(signedKey ?? '');
  const submit = (v: Values) => {
    const body = {
      password: v.password,
      ...(v.first_name?.trim() ? { first_name: v.first_name.trim() } : {}),
      ...(v.last_name?.trim() ? { last_name: v.last_name.trim() } : {}),
    };
    accept.mutate(body, {
      onSuccess: () => {
        notifySuccess(m.accountSetUp);
        void navigate(paths.login, { replace: true });
      },
    });
  };
  return (
    <>
      <Typography.Title level={1} className="auth-title">
        {t(m.setUpAccount)}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t(m.invitedIntro)}</Typography.Paragraph>
      {!signedKey ? (
        <Alert type="error" showIcon title={t(m.invitationInvalid)} description={t(m.askNewInvitation)} />
      ) : (
        <Form<Values> layout="vertical" requiredMark="optional" onFinish={submit}>
          <Inline gap={12} align="stretch">
            <Form.Item label={t(m.firstName)} name="first_name" className="grow">
              <Input autoComplete="given-name" size="large" />
            </Form.Item>
            <Form.Item label={t(m.lastName)} name="last_name" className="grow">
              <Input autoComplete="family-name" size="large" />
            </Form.Item>
          </Inline>
          <NewPasswordFields label={t(m.password)} />
          <Button type="primary" htmlType="submit" size="large" block loading={accept.isPending}>
            {t(m.setPassword)}
          </Button>
        </Form>
      )}
      <BackToSignIn />
    </>
  );
}
