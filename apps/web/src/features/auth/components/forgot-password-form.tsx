// Forgot password: asks for the email and sends a reset link; the answer never says whether the account exists.
import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Typography from 'antd/es/typography';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { BackToSignIn } from './back-to-sign-in';
import { t } from '../../../i18n';
import { authText as m } from '../auth.messages';

export function ForgotPasswordForm() {
  const reset = useRequestPasswordReset();
  const [sent, setSent] = useState<string | null>(null);
  return (
    <>
      <Typography.Title level={1} className="auth-title">
        {t(m.forgotTitle)}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t(m.forgotIntro)}</Typography.Paragraph>
      {sent ? (
        <Alert type="success" showIcon title={sent} />
      ) : (
        <Form layout="vertical" requiredMark={false} onFinish={(v: { email: string }) => reset.mutate(v, { onSuccess: () => setSent(t(m.resetLinkSent)) })}>
          <Form.Item
            label={t(m.email)}
            name="email"
            rules={[
              { required: true, message: t(m.enterEmail) },
              { type: 'email', message: t(m.validEmail) },
            ]}
          >
            <Input type="email" autoComplete="email" size="large" />
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" block loading={reset.isPending}>
            {t(m.sendResetLink)}
          </Button>
        </Form>
      )}
      <BackToSignIn />
    </>
  );
}
