// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// Forgot password: asks for the email and sends a reset link; the answer never says whether the account exists.
import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Typography from 'antd/es/typography';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { BackToSignIn } from './back-to-sign-in';

export function ForgotPasswordForm() {
  const reset = useRequestPasswordReset();
  const [sent, setSent] = useState<string | null>(null);
  return (
    <>
      <Typography.Title level={1} style={{ fontSize: 28 }}>
        Forgot password
      </Typography.Title>
      <Typography.Paragraph type="secondary">Enter the email of your account and we will send you a link to choose a new password.</Typography.Paragraph>
      {sent ? (
        <Alert type="success" showIcon title={sent} />
      ) : (
        <Form layout="vertical" requiredMark={false} onFinish={(v: { email: string }) => reset.mutate(v, { onSuccess: (res) => setSent(res.message) })}>
          <Form.Item label="Email" name="email" rules={[{ required: true, message: 'Enter your email' }, { type: 'email', message: 'Enter a valid email' }]}>
            <Input type="email" autoComplete="email" size="large" />
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" block loading={reset.isPending}>
            Send reset link
          </Button>
        </Form>
      )}
      <BackToSignIn />
    </>
  );
}
