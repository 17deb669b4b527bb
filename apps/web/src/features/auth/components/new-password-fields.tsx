// The password and confirmation fields shared by reset password and onboarding (at least 12 characters, as the API requires).
import Form from 'antd/es/form';
import Input from 'antd/es/input';

export { MIN_PASSWORD_LENGTH } from '@farmland/contracts';
import { MIN_PASSWORD_LENGTH } from '@farmland/contracts';
import { t } from '../../../i18n';
import { authText as m } from '../auth.messages';

export function NewPasswordFields({ name = 'password', label }: { name?: string; label?: string }) {
  return (
    <>
      <Form.Item
        label={label ?? t(m.newPassword)}
        name={name}
        rules={[
          { required: true, message: t(m.enterPassword) },
          { min: MIN_PASSWORD_LENGTH, message: t(m.passwordMin, { min: MIN_PASSWORD_LENGTH }) },
        ]}
        hasFeedback
      >
        <Input.Password autoComplete="new-password" size="large" />
      </Form.Item>
      <Form.Item
        label={t(m.confirmPassword)}
        name="confirm"
        dependencies={[name]}
        hasFeedback
        rules={[
          { required: true, message: t(m.confirmThePassword) },
          ({ getFieldValue }) => ({
            validator: (_r, value: unknown) => (!value || getFieldValue(name) === value ? Promise.resolve() : Promise.reject(new Error(t(m.passwordsDiffer)))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" size="large" />
      </Form.Item>
    </>
  );
}
