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
import { t } from '../../../i18n';
import { authText as m } from '../auth.messages';

export function ResetPasswordForm({ token }: { token: string | null }) {
  const check = useConfirmResetToken(token);
  const save = useSetNewPassword();
  const [done, setDone] = useState<string | null>(null);
  const invalid = !token || check.isError;
  return (
    <>
      <Typography.Title level={1} className="auth-title">
        {t(m.resetTitle)}
      </Typography.Title>
      {token && check.isPending && <Skeleton active paragraph={{ rows: 3 }} />}
      {invalid && <Alert type="error" showIcon title={t(m.resetLinkInvalid)} description={<Link to={paths.forgotPassword}>{t(m.askNewLink)}</Link>} />}
      {done && <Alert type="success" showIcon title={done} description={<Link to={paths.login}>{t(m.signInWithNew)}</Link>} />}
      {!invalid && check.isSuccess && !done && (
        <Form
          layout="vertical"
          requiredMark={false}
          onFinish={(v: { password: string }) => save.mutate({ token: token ?? '', password: v.password }, { onSuccess: () => setDone(t(m.passwordReset)) })}
        >
          <NewPasswordFields />
          <Button type="primary" htmlType="submit" size="large" block loading={save.isPending}>
            {t(m.resetPassword)}
          </Button>
        </Form>
      )}
      <BackToSignIn />
    </>
  );
}
