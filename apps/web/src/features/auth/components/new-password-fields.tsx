// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The password and confirmation fields shared by reset password and onboarding (at least 12 characters, as the API requires).
import Form from 'antd/es/form';
import Input from 'antd/es/input';

export { MIN_PASSWORD_LENGTH } from '@farmland/contracts';
import { MIN_PASSWORD_LENGTH } from '@farmland/contracts';

export function NewPasswordFields({ name = 'password', label = 'New password' }: { name?: string; label?: string }) {
  return (
    <>
      <Form.Item
        label={label}
        name={name}
        rules={[
          { required: true, message: 'Enter a password' },
          { min: MIN_PASSWORD_LENGTH, message: `Password must be at least ${MIN_PASSWORD_LENGTH} characters` },
        ]}
        hasFeedback
      >
        <Input.Password autoComplete="new-password" size="large" />
      </Form.Item>
      <Form.Item
        label="Confirm password"
        name="confirm"
        dependencies={[name]}
        hasFeedback
        rules={[
          { required: true, message: 'Confirm the password' },
          ({ getFieldValue }) => ({
            validator: (_r, value: unknown) => (!value || getFieldValue(name) === value ? Promise.resolve() : Promise.reject(new Error('The passwords do not match'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" size="large" />
      </Form.Item>
    </>
  );
}
