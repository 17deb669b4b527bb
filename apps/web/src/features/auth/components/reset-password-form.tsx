// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// Reset password from the mailed link (/reset-password#token=…): the token is checked first, then a new password is set.
import { useState } from 'react';
import { Link } from 'react-router';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Skeleton from 'antd/es/skeleton';
import Typography from 'antd/es/typography';
import { useConfirmResetToken } from '../api/confirm-reset-token';
import { useSetNewPassword } from '../api/set-new-password';
import { BackToSignIn } from './back-to-sign-in';
import { NewPasswordFields } from './new-password-fields';
import { paths } from '../../../lib/paths';

export function ResetPasswordForm({ token }: { token: string | null }) {
  const check = useConfirmResetToken(token);
  const save = useSetNewPassword();
  const [done, setDone] = useState<string | null>(null);
  const invalid = !token || check.isError;
  return (
    <>
      <Typography.Title level={1} style={{ fontSize: 28 }}>
        Reset password
      </Typography.Title>
      {token && check.isPending && <Skeleton active paragraph={{ rows: 3 }} />}
      {invalid && (
        <Alert
          type="error"
          showIcon
          title="This password reset link is invalid or has expired."
          description={<Link to={paths.forgotPassword}>Ask for a new link</Link>}
        />
      )}
      {done && <Alert type="success" showIcon title={done} description={<Link to={paths.login}>Sign in with your new password</Link>} />}
      {!invalid && check.isSuccess && !done && (
        <Form
          layout="vertical"
          requiredMark={false}
          onFinish={(v: { password: string }) => save.mutate({ token: token ?? '', password: v.password }, { onSuccess: (res) => setDone(res.message) })}
        >
          <NewPasswordFields />
          <Button type="primary" htmlType="submit" size="large" block loading={save.isPending}>
            Reset password
          </Button>
        </Form>
      )}
      <BackToSignIn />
    </>
  );
}
