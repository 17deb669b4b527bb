// The sign-in form: email and password, then either the two-factor dialog or, for a user without two-factor,
// the enrolment dialog (loaded on demand). Resend code starts a fresh challenge with the same credentials.
import { lazy, Suspense, useRef, useState } from 'react';
import { Link } from 'react-router';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Typography from 'antd/es/typography';
import { notifyInfo } from '../../../lib/notifier';
import { useLogin, type LoginBody, type LoginChallenge } from '../api/login';
import { TwoFactorDialog } from './two-factor-dialog';
import { useFinishSignIn } from './use-finish-sign-in';
import { paths } from '../../../lib/paths';
import { t } from '../../../i18n';
import { authText as m } from '../auth.messages';

const MfaEnrolmentDialog = lazy(async () => ({ default: (await import('./mfa-enrolment-dialog')).MfaEnrolmentDialog }));

export function SignInForm() {
  const [form] = Form.useForm<LoginBody>();
  const login = useLogin();
  const finish = useFinishSignIn();
  const [challenge, setChallenge] = useState<LoginChallenge | null>(null);
  const credentials = useRef<LoginBody | null>(null);

  const start = (values: LoginBody, resend = false) => {
    credentials.current = values;
    login.mutate(values, {
      onSuccess: (res) => {
        setChallenge(res.data);
        if (resend) notifyInfo(res.data.mfa_setup_required ? m.setUpToContinue : m.enterCodeToast, 'resend-code');
      },
    });
  };
  const close = () => setChallenge(null);
  const resend = () => credentials.current && start(credentials.current, true);

  return (
    <>
      <Typography.Title level={1} className="auth-title mb-4">
        {t(m.signIn)}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t(m.welcome)}</Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => start(v)} autoComplete="on">
        <Form.Item
          label={t(m.email)}
          name="email"
          rules={[
            { required: true, message: t(m.enterEmail) },
            { type: 'email', message: t(m.validEmail) },
          ]}
        >
          <Input type="email" autoComplete="username" size="large" placeholder={t(m.emailPlaceholder)} />
        </Form.Item>
        <Form.Item label={t(m.password)} name="password" rules={[{ required: true, message: t(m.enterYourPassword) }]} className="mb-8">
          <Input.Password autoComplete="current-password" size="large" />
        </Form.Item>
        <div className="text-end mb-16">
          <Link to={paths.forgotPassword}>{t(m.forgotLink)}</Link>
        </div>
        <Button type="primary" htmlType="submit" size="large" block loading={login.isPending && !challenge}>
          {t(m.signIn)}
        </Button>
      </Form>
      {challenge?.mfa_required && (
        <TwoFactorDialog
          key={challenge.user_token}
          challenge={challenge}
          onSignedIn={(r) => void finish(r)}
          onCancel={close}
          onResend={resend}
          resending={login.isPending}
          onExpired={close}
        />
      )}
      {challenge?.mfa_setup_required && (
        <Suspense fallback={null}>
          <MfaEnrolmentDialog key={challenge.user_token} challenge={challenge} onSignedIn={(r) => void finish(r)} onCancel={close} onExpired={close} />
        </Suspense>
      )}
    </>
  );
}
